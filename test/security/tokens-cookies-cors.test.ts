/**
 * Holes of the reference assistant that must stay absent here: tokens signed with the real secret
 * but expired, or with no expiry at all, are refused on every face (and write nothing: no skill file,
 * no commit, no stored value); a token in a cookie identifies nobody; no answer sets a cookie or lets
 * browsers send credentials across origins.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp, call, TEST_SECRET } from '../helpers/app.js';
import { makeImage, multipart } from '../helpers/images.js';
import { craftToken, expectError, nowSeconds as now, seedUser } from '../helpers/users.js';

const base = await mkdtemp(join(tmpdir(), 'oe-security-tokens-'));
t.teardown(() => rm(base, { recursive: true, force: true }));
const repo = join(base, 'skills');
const { app } = await buildTestApp(t, { SKILL_REPO_DIR: repo });
const user = await seedUser(app);
const identity = Number(user.id);
const signed = (claims: Record<string, unknown>) =>
  craftToken({ identity, sub: user.id, ...claims }, { secret: TEST_SECRET });

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** An assistant answer: status, headers and the parsed JSON. */
async function assistant(
  method: 'GET' | 'POST',
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const form = new URLSearchParams(params).toString();
  const res = await app.inject(
    method === 'GET'
      ? { method, url: `${url}?${form}`, headers }
      : { method, url, payload: form, headers: { ...FORM, ...headers } },
  );
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}
async function createSkill(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const body = multipart([['image', 'in.png', await makeImage('png', 16, 16)]], fields);
  const res = await app.inject({
    method: 'POST',
    url: '/cms/createSkill.json',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}
const commits = () => execFileSync('git', ['log', '--format=%H'], { cwd: repo }).toString().trim().split('\n');
const files = async () => (await readdir(repo, { recursive: true })).filter((f) => !f.startsWith('.git')).sort();
const stores = async () =>
  (await app.sql<{ stores: unknown }[]>`select stores from users where id = ${identity}`)[0]!.stores;
const skillRows = async () => (await app.sql<{ n: number }[]>`select count(*)::int as n from skills`)[0]!.n;

/** What a refused assistant request shows: that status, `{"accepted": false, "message"}` and nothing else. */
function refusedByAssistant(t: Test, res: Awaited<ReturnType<typeof assistant>>, status: number, message: RegExp) {
  t.equal(res.status, status, `status ${status}`);
  t.strictSame(Object.keys(res.body).sort(), ['accepted', 'message'], 'only accepted and message');
  t.equal(res.body.accepted, false);
  t.match(res.body.message, message);
}

/** Every write of the assistant a token allows, with `token` as the parameter (or form field) and as the header. */
async function expectNoAssistantWrite(t: Test, token: string, message: RegExp) {
  // A first request makes the repository exist, so that "no commit" compares two logs.
  await assistant('GET', '/cms/getModel.json', {});
  const before = { commits: commits(), files: await files(), stores: await stores(), skills: await skillRows() };
  const skill = { model: 'general', group: 'Knowledge', language: 'en' };
  for (const [how, params, headers] of [
    ['access_token', { access_token: token }, {}],
    ['Authorization header', {}, { authorization: `JWT ${token}` }],
  ] as [string, Record<string, string>, Record<string, string>][]) {
    await t.test(`as ${how}`, async (t) => {
      refusedByAssistant(
        t,
        await createSkill({ ...params, ...skill, image_name: 'stolen.jpg', skill: 'stolen', content: 'x|y' }, headers),
        401,
        message,
      );
      for (const method of ['GET', 'POST'] as const) {
        refusedByAssistant(
          t,
          await assistant(
            method,
            '/cms/modifySkill.json',
            { ...params, ...skill, skill: 'stolen', content: 'x|y', changelog: 'take over' },
            headers,
          ),
          401,
          message,
        );
        refusedByAssistant(
          t,
          await assistant(
            method,
            '/aaa/storePersonalInfo.json',
            { ...params, storeName: 'city', value: 'Stolen' },
            headers,
          ),
          401,
          message,
        );
      }
    });
  }
  t.strictSame(commits(), before.commits, 'no commit in the skill repository');
  t.strictSame(await files(), before.files, 'no skill file or image written');
  t.same(await stores(), before.stores, 'nothing stored in the personal store');
  t.equal(await skillRows(), before.skills, 'no skill recorded');
}

t.test('an expired token signed with the real secret writes nothing on the assistant', async (t) => {
  const expired = signed({ iat: now() - 7200, exp: now() - 60 });
  // As the reference, an expired token is an anonymous caller: every write needs a role, so each is refused.
  await expectNoAssistantWrite(t, expired, /Your base user role is 'ANONYMOUS'/);

  // The same requests with a live token do write: the refusals above came from the expiry alone.
  const live = signed({ iat: now(), exp: now() + 600 });
  const created = await createSkill({
    access_token: live,
    model: 'general',
    group: 'Knowledge',
    language: 'en',
    image_name: 'fine.jpg',
    skill: 'fine',
    content: 'a|b',
  });
  t.equal(created.body.accepted, true, JSON.stringify(created.body));
  const stored = await assistant('POST', '/aaa/storePersonalInfo.json', {
    access_token: live,
    storeName: 'city',
    value: 'Berlin',
  });
  t.equal(stored.body.accepted, true, JSON.stringify(stored.body));
});

t.test('a token without exp signed with the real secret is refused on /v1 and on the assistant', async (t) => {
  const eternal = signed({ iat: now() });
  for (const scheme of ['JWT', 'Bearer']) {
    const res = await call(app, { url: `/v1/users/${user.id}`, headers: { authorization: `${scheme} ${eternal}` } });
    expectError(t, res, 401, { detail: 'Invalid token' });
    // An open route is no way around it either.
    expectError(
      t,
      await call(app, { url: '/v1/event-topics', headers: { authorization: `${scheme} ${eternal}` } }),
      401,
      { detail: 'Invalid token' },
    );
  }
  const read = await assistant('GET', '/cms/getModel.json', { access_token: eternal });
  t.equal(read.status, 200, 'an open assistant read treats the token as no token (the reference)');
  t.equal(read.body.session.identity.anonymous, true);
  await expectNoAssistantWrite(t, eternal, /Your base user role is 'ANONYMOUS'/);

  const withExpiry = signed({ iat: now(), exp: now() + 600 });
  t.equal(
    (await call(app, { url: `/v1/users/${user.id}`, token: withExpiry })).status,
    200,
    'the same claims with exp are accepted',
  );
});

t.test('a token in a cookie identifies nobody', async (t) => {
  const cookies = [
    `login=${user.token}`,
    `access_token=${user.token}`,
    `login=${user.token}; access_token=${user.token}`,
  ];
  for (const cookie of cookies) {
    await t.test(cookie.replace(user.token, '<token>').replace(user.token, '<token>'), async (t) => {
      const self = await call(app, { url: `/v1/users/${user.id}`, headers: { cookie } });
      expectError(t, self, 401, { detail: 'Authentication is required' });
      const post = await call(app, {
        method: 'POST',
        url: '/v1/events',
        headers: { cookie },
        body: {
          data: {
            type: 'event',
            attributes: {
              name: 'By cookie',
              'starts-at': '2030-01-01T09:00:00Z',
              'ends-at': '2030-01-02T09:00:00Z',
              timezone: 'UTC',
            },
          },
        },
      });
      expectError(t, post, 401);

      const open = await assistant('GET', '/cms/getModel.json', {}, { cookie });
      t.equal(open.status, 200);
      t.equal(open.body.session.identity.anonymous, true, 'the assistant sees an anonymous caller');
      refusedByAssistant(
        t,
        await assistant('POST', '/aaa/storePersonalInfo.json', { storeName: 'city', value: 'Cookie' }, { cookie }),
        401,
        /Your base user role is 'ANONYMOUS'/,
      );
      refusedByAssistant(
        t,
        await assistant('GET', '/cms/modifySkill.json', { skill: 'x', content: 'y', changelog: 'z' }, { cookie }),
        401,
        /Your base user role is 'ANONYMOUS'/,
      );
      const created = await createSkill({ image_name: 'cookie.jpg' }, { cookie });
      t.equal(created.status, 401, 'createSkill: 401');
      t.match(created.body.message, /Your base user role is 'ANONYMOUS'/);
    });
  }
  t.same(await stores(), { city: 'Berlin' }, 'the personal store kept what the live token stored');
});

t.test('no answer sets a cookie or allows credentials across origins', async (t) => {
  const origin = 'https://evil.example';
  const logins = [
    await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { origin },
      payload: { email: user.email, password: user.password },
    }),
    await app.inject({
      method: 'POST',
      url: '/auth/session',
      headers: { origin },
      payload: { email: user.email, password: user.password },
    }),
    await app.inject({
      method: 'GET',
      url: `/aaa/login.json?${new URLSearchParams({ login: user.email, password: user.password })}`,
      headers: { origin },
    }),
  ];
  for (const res of logins) {
    t.equal(res.statusCode, 200, `${res.raw.req.url?.split('?')[0]} logs in`);
    t.notOk(res.headers['set-cookie'], 'and sets no cookie');
    t.notOk(res.headers['access-control-allow-credentials'], 'nor allows credentials');
  }

  for (const url of [
    '/v1/events',
    `/v1/users/${user.id}`,
    '/v1/auth/login',
    '/aaa/storePersonalInfo.json',
    '/cms/createSkill.json',
    '/api/api.php',
  ]) {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
        cookie: `login=${user.token}`,
      },
    });
    t.equal(preflight.statusCode, 204, `preflight ${url}`);
    t.equal(preflight.headers['access-control-allow-origin'], '*', `${url}: any origin, never an echoed one`);
    t.notOk(preflight.headers['access-control-allow-credentials'], `${url}: no Access-Control-Allow-Credentials`);
  }
  for (const [url, token] of [
    ['/v1/events', undefined],
    [`/v1/users/${user.id}`, user.token],
    ['/v1/nothing-here', undefined],
  ] as const) {
    const res = await call(app, { url, token, headers: { origin, cookie: `access_token=${user.token}` } });
    t.equal(res.headers['access-control-allow-origin'], '*', `GET ${url} -> ${res.status}: any origin`);
    t.notOk(res.headers['access-control-allow-credentials'], `GET ${url}: no Access-Control-Allow-Credentials`);
    t.notOk(res.headers['set-cookie'], `GET ${url}: no cookie`);
  }
});

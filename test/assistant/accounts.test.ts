/** The assistant account endpoints: /aaa/login.json, storePersonalInfo, changeRoles, and role refusals. */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

type Params = Record<string, string>;

/** An assistant request: GET with a query string, or POST with a form body; answers status, headers, JSON. */
async function aaa(
  app: FastifyInstance,
  path: string,
  params: Params = {},
  opts: { method?: 'GET' | 'POST'; headers?: Params } = {},
) {
  const { method = 'GET', headers = {} } = opts;
  const form = new URLSearchParams(params).toString();
  const res = await app.inject(
    method === 'GET'
      ? { method, url: `${path}${form ? `?${form}` : ''}`, headers }
      : {
          method,
          url: path,
          payload: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        },
  );
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(res.body) as any };
}

type Answer = Awaited<ReturnType<typeof aaa>>;

/** The common shape: JSON with charset, CORS header. */
function common(t: Test, res: Answer, status: number) {
  t.equal(res.status, status, `status ${status}`);
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8', 'content type');
  t.equal(res.headers['access-control-allow-origin'], '*', 'CORS header');
}

/** A refusal `{"accepted": false, "message"}` and nothing else. */
function refused(t: Test, res: Answer, status: number, message: string | RegExp) {
  common(t, res, status);
  t.same(Object.keys(res.body).sort(), ['accepted', 'message'], 'only accepted and message');
  t.equal(res.body.accepted, false, 'accepted false');
  t.match(res.body.message, message, 'message');
}

const weak = (min: string, role: string) =>
  `Base user role not sufficient. Your base user role is '${role.toUpperCase()}', minimum user role required is '${min.toLowerCase()}'`;

const { app } = await buildTestApp(t);
const su = await seedUser(app, { superAdmin: true });
const admin = await seedUser(app, { admin: true });

t.test('login.json: success by GET and POST, token valid on /aaa and /v1', async (t) => {
  const u = await seedUser(app);
  for (const method of ['GET', 'POST'] as const) {
    const res = await aaa(app, '/aaa/login.json', { login: u.email, password: u.password }, { method });
    common(t, res, 200);
    t.equal(res.body.accepted, true);
    t.equal(res.body.message, `You are logged in as ${u.email}`);
    t.type(res.body.access_token, 'string');
    t.ok(Number.isInteger(res.body.valid_seconds) && res.body.valid_seconds > 0, 'valid_seconds positive integer');
    t.same(
      res.body.session?.identity,
      { type: 'host', name: res.body.session?.identity?.name, anonymous: true },
      'login itself is anonymous',
    );
    const token = res.body.access_token as string;

    const byParam = await aaa(app, '/aaa/storePersonalInfo.json', {
      access_token: token,
      storeName: 'k',
      value: method,
    });
    common(t, byParam, 200);
    t.same(
      byParam.body.session.identity,
      { type: 'email', name: u.email, anonymous: false },
      'access_token parameter identifies',
    );
    const byForm = await aaa(
      app,
      '/aaa/storePersonalInfo.json',
      { access_token: token, fetchDetails: 'true' },
      { method: 'POST' },
    );
    t.equal(byForm.body.session?.identity?.name, u.email, 'access_token form field identifies');
    const byHeader = await aaa(
      app,
      '/aaa/storePersonalInfo.json',
      { fetchDetails: 'true' },
      { headers: { authorization: `JWT ${token}` } },
    );
    common(t, byHeader, 200);
    t.same(
      byHeader.body.session.identity,
      { type: 'email', name: u.email, anonymous: false },
      'Authorization header identifies',
    );
    t.same(byHeader.body.stores, { k: method });

    const v1 = await call(app, { url: `/v1/users/${u.id}`, token });
    t.equal(v1.status, 200, 'the token works on /v1');
    t.equal(v1.body.data.attributes.email, u.email);
  }
});

t.test('login.json: missing and wrong credentials', async (t) => {
  const u = await seedUser(app);
  refused(t, await aaa(app, '/aaa/login.json', {}), 400, 'Bad login parameters.');
  refused(t, await aaa(app, '/aaa/login.json', { login: u.email }), 400, 'Bad login parameters.');
  refused(
    t,
    await aaa(app, '/aaa/login.json', { password: u.password }, { method: 'POST' }),
    400,
    'Bad login parameters.',
  );
  refused(
    t,
    await aaa(app, '/aaa/login.json', { login: u.email, password: 'wrong password' }),
    422,
    'Invalid credentials',
  );
  refused(
    t,
    await aaa(app, '/aaa/login.json', { login: 'nobody@example.com', password: 'x' }, { method: 'POST' }),
    422,
    'Invalid credentials',
  );
});

t.test(
  'a bad token is an anonymous caller (susi_server AbstractAPIHandler.getIdentity): login works, a role is refused',
  async (t) => {
    const u = await seedUser(app);
    const login = await aaa(app, '/aaa/login.json', {
      access_token: 'stale-cookie-token',
      login: u.email,
      password: u.password,
    });
    common(t, login, 200);
    t.equal(login.body.accepted, true, 'the stale token of the editor cookie does not stop a login');
    t.equal(login.body.session.identity.anonymous, true);
    refused(
      t,
      await aaa(app, '/aaa/listSettings.json', { access_token: 'not-a-token' }),
      401,
      weak('ADMIN', 'anonymous'),
    );
    refused(
      t,
      await aaa(app, '/aaa/listSettings.json', {}, { headers: { authorization: 'JWT garbage.x.y' } }),
      401,
      weak('ADMIN', 'anonymous'),
    );
  },
);

t.test('storePersonalInfo: every message and code, GET and POST', async (t) => {
  const u = await seedUser(app);
  refused(t, await aaa(app, '/aaa/storePersonalInfo.json', { fetchDetails: 'true' }), 401, weak('USER', 'anonymous'));
  refused(
    t,
    await aaa(app, '/aaa/storePersonalInfo.json', { storeName: 'a', value: 'b' }, { method: 'POST' }),
    401,
    weak('USER', 'anonymous'),
  );
  for (const method of ['GET', 'POST'] as const) {
    const v = await seedUser(app);
    refused(
      t,
      await aaa(app, '/aaa/storePersonalInfo.json', { access_token: v.token, fetchDetails: 'true' }, { method }),
      420,
      'No personal information is added yet.',
    );
    refused(
      t,
      await aaa(app, '/aaa/storePersonalInfo.json', { access_token: v.token, value: 'x' }, { method }),
      422,
      'Bad store name encountered!',
    );
    refused(
      t,
      await aaa(app, '/aaa/storePersonalInfo.json', { access_token: v.token, storeName: 'x' }, { method }),
      422,
      'Bad store name value encountered!',
    );
  }
  const tok = { access_token: u.token };
  for (const [method, name, value] of [
    ['GET', 'city', 'Berlin'],
    ['POST', 'food', 'pizza'],
    ['POST', 'city', 'Hanoi'],
  ] as const) {
    const res = await aaa(app, '/aaa/storePersonalInfo.json', { ...tok, storeName: name, value }, { method });
    common(t, res, 200);
    t.equal(res.body.accepted, true);
    t.equal(res.body.message, 'You successfully updated your account information!');
    t.same(res.body.session.identity, { type: 'email', name: u.email, anonymous: false });
  }
  for (const method of ['GET', 'POST'] as const) {
    const res = await aaa(app, '/aaa/storePersonalInfo.json', { ...tok, fetchDetails: 'true' }, { method });
    common(t, res, 200);
    t.equal(res.body.accepted, true);
    t.equal(res.body.message, 'details fetched successfully.');
    t.same(res.body.stores, { city: 'Hanoi', food: 'pizza' }, 'an existing name gets the new value');
  }
  const empty = await aaa(
    app,
    '/aaa/storePersonalInfo.json',
    { ...tok, storeName: 'blank', value: '' },
    { method: 'POST' },
  );
  t.equal(empty.status, 200, 'an empty value is a value');
});

t.test('changeRoles: admin sets user, reviewer, operator', async (t) => {
  const u = await seedUser(app);
  for (const role of ['reviewer', 'operator', 'user', 'reviewer']) {
    const res = await aaa(
      app,
      '/aaa/changeRoles.json',
      { access_token: admin.token, user: u.email, role },
      { method: 'POST' },
    );
    common(t, res, 200);
    t.match(
      res.body,
      { accepted: true, message: 'User role changed successfully!!', newDetails: { userRole: role, permissions: {} } },
      role,
    );
    t.same(res.body.newDetails.permissions, {});
    t.same(res.body.session.identity, { type: 'email', name: admin.email, anonymous: false });
  }
  const dflt = await aaa(app, '/aaa/changeRoles.json', { access_token: admin.token, user: u.email });
  t.equal(dflt.status, 200);
  t.equal(dflt.body.newDetails?.userRole, 'user', 'role defaults to user');
  const v1 = await call(app, { url: `/v1/users/${u.id}`, token: su.token });
  t.match(
    v1.body.data.attributes,
    { 'is-admin': false, 'is-super-admin': false },
    'no admin flag for operator-level roles',
  );
});

t.test('changeRoles: an admin cannot grant admin or superadmin, nor change an admin', async (t) => {
  const u = await seedUser(app);
  const other = await seedUser(app, { admin: true });
  for (const role of ['admin', 'superadmin']) {
    refused(t, await aaa(app, '/aaa/changeRoles.json', { access_token: admin.token, user: u.email, role }), 403, /./);
  }
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { access_token: admin.token, user: other.email, role: 'user' }),
    403,
    /./,
  );
  const v1 = await call(app, { url: `/v1/users/${u.id}`, token: su.token });
  t.match(v1.body.data.attributes, { 'is-admin': false, 'is-super-admin': false }, 'unchanged');
  const v2 = await call(app, { url: `/v1/users/${other.id}`, token: su.token });
  t.match(v2.body.data.attributes, { 'is-admin': true }, 'other admin unchanged');
});

t.test('changeRoles: a superadmin grants admin and superadmin, and can demote', async (t) => {
  const u = await seedUser(app);
  const res = await aaa(
    app,
    '/aaa/changeRoles.json',
    { access_token: su.token, user: u.email, role: 'admin' },
    { method: 'POST' },
  );
  common(t, res, 200);
  t.match(res.body, { accepted: true, message: 'User role changed successfully!!', newDetails: { userRole: 'admin' } });
  let v1 = await call(app, { url: `/v1/users/${u.id}`, token: su.token });
  t.match(v1.body.data.attributes, { 'is-admin': true, 'is-super-admin': false }, '/v1 shows is-admin');
  const list = await aaa(app, '/aaa/listSettings.json', { access_token: u.token });
  t.equal(list.status, 200, 'the new admin passes admin checks with the same token');

  t.equal(
    (await aaa(app, '/aaa/changeRoles.json', { access_token: su.token, user: u.email, role: 'superadmin' })).status,
    200,
  );
  v1 = await call(app, { url: `/v1/users/${u.id}`, token: su.token });
  t.match(v1.body.data.attributes, { 'is-admin': true, 'is-super-admin': true }, '/v1 shows is-super-admin');

  t.equal(
    (await aaa(app, '/aaa/changeRoles.json', { access_token: su.token, user: u.email, role: 'user' })).status,
    200,
  );
  v1 = await call(app, { url: `/v1/users/${u.id}`, token: su.token });
  t.match(v1.body.data.attributes, { 'is-admin': false, 'is-super-admin': false }, 'demoted');
  refused(t, await aaa(app, '/aaa/listSettings.json', { access_token: u.token }), 401, weak('ADMIN', 'user'));
});

t.test('changeRoles: bad requests', async (t) => {
  const u = await seedUser(app);
  const tok = { access_token: admin.token };
  // The reference's statuses (ChangeUserRoles.java): anonymous and no user 422, unknown user or role 404.
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { ...tok, user: u.email, role: 'anonymous' }),
    422,
    'Cannot change user role to anonymous.',
  );
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { ...tok, user: u.email, role: 'wizard' }, { method: 'POST' }),
    404,
    'role not found',
  );
  refused(t, await aaa(app, '/aaa/changeRoles.json', { ...tok, user: u.email, role: 'bot' }), 404, 'role not found');
  refused(t, await aaa(app, '/aaa/changeRoles.json', { ...tok, role: 'reviewer' }), 422, 'Bad username');
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { ...tok, user: 'ghost@example.com', role: 'reviewer' }),
    404,
    'Username not found',
  );
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { access_token: su.token, user: u.email, role: 'Anonymous' }),
    422,
    'Cannot change user role to anonymous.',
  );
  const upper = await aaa(app, '/aaa/changeRoles.json', { ...tok, user: u.email, role: 'Reviewer' });
  t.match(
    upper.body,
    { accepted: true, newDetails: { userRole: 'reviewer' } },
    'the role is lower-cased as the reference does',
  );
});

t.test('too weak roles: 401 naming both roles', async (t) => {
  const u = await seedUser(app);
  const target = await seedUser(app);
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { access_token: u.token, user: target.email, role: 'reviewer' }),
    401,
    weak('ADMIN', 'user'),
  );
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { user: target.email, role: 'reviewer' }, { method: 'POST' }),
    401,
    weak('ADMIN', 'anonymous'),
  );
  refused(t, await aaa(app, '/aaa/listSettings.json', {}), 401, weak('ADMIN', 'anonymous'));
  await aaa(app, '/aaa/changeRoles.json', { access_token: admin.token, user: u.email, role: 'operator' });
  refused(t, await aaa(app, '/aaa/listSettings.json', { access_token: u.token }), 401, weak('ADMIN', 'operator'));
  refused(
    t,
    await aaa(app, '/aaa/changeRoles.json', { access_token: u.token, user: target.email, role: 'reviewer' }),
    401,
    weak('ADMIN', 'operator'),
  );
  const v1 = await call(app, { url: `/v1/users/${target.id}`, token: su.token });
  t.match(v1.body.data.attributes, { 'is-admin': false }, 'nothing changed');
});

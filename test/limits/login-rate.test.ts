/**
 * Brute force on the logins (POST /v1/auth/login, its alias /auth/session and the assistant's
 * /aaa/login.json, which share one count): past LOGIN_MAX_FAILURES failures of one e-mail address or
 * LOGIN_MAX_FAILURES_PER_IP from one client address within LOGIN_WINDOW_SECONDS, every attempt answers
 * 429 with `Retry-After` in the face's own error format, even with the right password, which is not
 * even checked (the account is never read). Parallel guesses are all counted; a success forgives its
 * e-mail's failures but not the client's; X-Forwarded-For counts only from a trusted proxy; once the
 * window has passed the e-mail may try again, and expired hits are deleted as new ones come.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { expectAuthError } from '../helpers/auth.js';
import { seedUser } from '../helpers/users.js';

const PROXY = '10.9.9.9';
const { app, queries, resetQueries } = await buildTestApp(t, {
  LOGIN_MAX_FAILURES: '3',
  LOGIN_MAX_FAILURES_PER_IP: '8',
  LOGIN_WINDOW_SECONDS: '900',
  TRUST_PROXY: PROXY,
});

let clients = 0;
/** A client address of its own, so that the per-address limit only counts where a test means it to. */
const nextClient = () => `198.51.100.${++clients}`;

interface Attempt {
  email: string;
  password: string;
  from: string;
  path?: string;
  headers?: Record<string, string>;
}

/** A login as a client sends it; the answer's status, headers and parsed body. */
async function login(on: FastifyInstance, { email, password, from, path = '/v1/auth/login', headers = {} }: Attempt) {
  const res =
    path === '/aaa/login.json'
      ? await on.inject({
          method: 'GET',
          url: `${path}?${new URLSearchParams({ login: email, password })}`,
          remoteAddress: from,
          headers,
        })
      : await on.inject({
          method: 'POST',
          url: path,
          remoteAddress: from,
          headers: { 'content-type': 'application/json', ...headers },
          payload: JSON.stringify({ email, password }),
        });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/** A 429 of the event service: the JSON:API error document (with `error`, as logins' failures have) and a Retry-After within the window. */
function assertLimited(t: Test, res: Awaited<ReturnType<typeof login>>) {
  expectAuthError(t, res, 429, { detail: /^Too many failed logins; try again in \d+ seconds$/ });
  t.equal(res.body.errors[0].title, 'Too Many Requests');
  t.notOk('access_token' in res.body, 'no token');
  const retry = Number(res.headers['retry-after']);
  t.ok(
    Number.isInteger(retry) && retry >= 1 && retry <= 900,
    `Retry-After ${res.headers['retry-after']} is whole seconds within the window`,
  );
  t.match(res.body.errors[0].detail, String(retry), 'the detail says the same wait');
}

const hitsOf = async (key: string) =>
  (await app.sql`select count(*)::int as n from rate_limit_hits where key = ${key}`)[0]!.n as number;

t.test(
  'per e-mail: after the limit even the right password is 429 with Retry-After, and it is not checked',
  async (t) => {
    const user = await seedUser(app);
    for (const [i, email] of [user.email, user.email.toUpperCase(), `  ${user.email}  `].entries()) {
      const res = await login(app, { email, password: `wrong ${i}`, from: nextClient() });
      t.equal(res.status, 401, `failure ${i + 1} (any letter case, any client address) is a plain 401`);
    }
    resetQueries();
    const right = await login(app, {
      email: user.email,
      password: user.password,
      from: nextClient(),
      headers: { origin: 'https://elsewhere.example' },
    });
    assertLimited(t, right);
    t.equal(queries.length, 1, 'one statement: the limits; the account is never read, so the password is never hashed');
    t.notMatch(queries[0], /"users"/);
    t.equal(right.headers['access-control-allow-origin'], '*');
    t.match(
      String(right.headers['access-control-expose-headers']),
      /Retry-After/i,
      'scripts on any origin can read Retry-After',
    );

    const other = await seedUser(app);
    const unaffected = await login(app, { email: other.email, password: other.password, from: nextClient() });
    t.equal(unaffected.status, 200, 'another account is not limited');
  },
);

t.test('the alias and the assistant login share the count; the assistant answers in its own format', async (t) => {
  const user = await seedUser(app);
  const from = nextClient();
  t.equal((await login(app, { email: user.email, password: 'wrong', from, path: '/v1/auth/login' })).status, 401);
  t.equal((await login(app, { email: user.email, password: 'wrong', from, path: '/auth/session' })).status, 401);
  t.equal((await login(app, { email: user.email, password: 'wrong', from, path: '/aaa/login.json' })).status, 422);
  assertLimited(t, await login(app, { email: user.email, password: user.password, from, path: '/auth/session' }));

  const assistant = await login(app, { email: user.email, password: user.password, from, path: '/aaa/login.json' });
  t.equal(assistant.status, 429);
  t.match(assistant.headers['content-type'], /^application\/json/);
  t.strictSame(Object.keys(assistant.body).sort(), ['accepted', 'message'], 'the assistant refusal shape');
  t.equal(assistant.body.accepted, false);
  t.match(assistant.body.message, /^Too many failed logins; try again in \d+ seconds$/);
  t.match(assistant.headers['retry-after'], /^[1-9]\d*$/);
  t.notOk('access_token' in assistant.body);
});

t.test('a success forgives the e-mail its failures', async (t) => {
  const user = await seedUser(app);
  const from = nextClient();
  for (let i = 0; i < 2; i++) t.equal((await login(app, { email: user.email, password: 'wrong', from })).status, 401);
  t.equal((await login(app, { email: user.email, password: user.password, from })).status, 200);
  t.equal(await hitsOf(user.email), 0, 'nothing counted against the e-mail any more');
  for (let i = 0; i < 3; i++)
    t.equal(
      (await login(app, { email: user.email, password: 'wrong', from })).status,
      401,
      `a fresh count: failure ${i + 1}`,
    );
  assertLimited(t, await login(app, { email: user.email, password: user.password, from }));
});

t.test(
  'per client address: many accounts guessed from one address; logging into its own account resets nothing',
  async (t) => {
    const from = nextClient();
    const own = await seedUser(app);
    const victim = await seedUser(app);
    for (let i = 0; i < 4; i++)
      t.equal((await login(app, { email: `guess${i}@example.org`, password: 'x', from })).status, 401);
    t.equal(
      (await login(app, { email: own.email, password: own.password, from })).status,
      200,
      'the attacker logs into their own account',
    );
    for (let i = 4; i < 8; i++)
      t.equal((await login(app, { email: `guess${i}@example.org`, password: 'x', from })).status, 401);
    assertLimited(t, await login(app, { email: victim.email, password: victim.password, from }));
    assertLimited(t, await login(app, { email: own.email, password: own.password, from }));
    const elsewhere = await login(app, { email: victim.email, password: victim.password, from: nextClient() });
    t.equal(elsewhere.status, 200, 'the same account from another address');

    // Without trust in the sender, X-Forwarded-For names no other client.
    const spoofed = await login(app, {
      email: victim.email,
      password: victim.password,
      from,
      headers: { 'x-forwarded-for': '203.0.113.77' },
    });
    assertLimited(t, spoofed);
  },
);

t.test(
  'behind the trusted proxy, each forwarded client has its own count; IPv6 clients count by their /64',
  async (t) => {
    const via = (client: string) => ({ from: PROXY, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 8; i++)
      t.equal(
        (await login(app, { email: `proxied${i}@example.org`, password: 'x', ...via('203.0.113.10') })).status,
        401,
      );
    assertLimited(t, await login(app, { email: 'proxied-next@example.org', password: 'x', ...via('203.0.113.10') }));
    t.equal(
      (await login(app, { email: 'proxied-next@example.org', password: 'x', ...via('203.0.113.11') })).status,
      401,
      'another client behind the proxy',
    );

    for (let i = 0; i < 8; i++)
      t.equal(
        (await login(app, { email: `v6-${i}@example.org`, password: 'x', from: `2001:db8:5:6::${i + 1}` })).status,
        401,
      );
    assertLimited(t, await login(app, { email: 'v6-next@example.org', password: 'x', from: '2001:db8:5:6:ffff::1' }));
    t.equal(
      (await login(app, { email: 'v6-next@example.org', password: 'x', from: '2001:db8:5:7::1' })).status,
      401,
      'another /64',
    );
  },
);

t.test('guesses sent in parallel are all counted: exactly the limit gets an answer', async (t) => {
  const user = await seedUser(app);
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => login(app, { email: user.email, password: `wrong ${i}`, from: nextClient() })),
  );
  const statuses = answers.map((a) => a.status).sort();
  t.strictSame(
    statuses,
    [401, 401, 401, 429, 429, 429, 429, 429, 429, 429],
    'three passwords checked, seven refused unchecked',
  );
  for (const a of answers.filter((a) => a.status === 429)) assertLimited(t, a);
});

t.test('once the window has passed the e-mail may try again, and expired hits are deleted', async (t) => {
  const user = await seedUser(app);
  const from = nextClient();
  for (let i = 0; i < 3; i++) await login(app, { email: user.email, password: 'wrong', from });
  assertLimited(t, await login(app, { email: user.email, password: user.password, from }));
  // The window passes: the hits' end is moved into the past rather than waiting 15 minutes.
  await app.sql`update rate_limit_hits set expires_at = now() - interval '1 second' where key = ${user.email}`;
  const [expired] = await app.sql`select count(*)::int as n from rate_limit_hits where expires_at <= now()`;
  t.ok(expired!.n >= 3, 'expired hits are there');
  t.equal((await login(app, { email: user.email, password: user.password, from })).status, 200, 'logged in');
  const [left] = await app.sql`select count(*)::int as n from rate_limit_hits where expires_at <= now()`;
  t.equal(left!.n, 0, 'the expired hits are gone');
});

t.test('hits do not accumulate: each new one deletes up to 100 expired ones', async (t) => {
  await app.sql`insert into rate_limit_hits (bucket, key, expires_at)
    select 'login-email', 'old' || g || '@example.org', now() - interval '1 hour' from generate_series(1, 250) g`;
  for (let i = 0; i < 3; i++)
    t.equal((await login(app, { email: `sweeper${i}@example.org`, password: 'x', from: nextClient() })).status, 401);
  const [left] = await app.sql`select count(*)::int as n from rate_limit_hits where expires_at <= now()`;
  t.equal(left!.n, 0, '250 expired hits gone after three attempts');
});

t.test('the OpenAPI document declares the 429 and its Retry-After on every login', async (t) => {
  const doc = JSON.parse(await readFile(new URL('../../openapi/openapi.json', import.meta.url), 'utf8'));
  for (const [path, method] of [
    ['/v1/auth/login', 'post'],
    ['/auth/session', 'post'],
    ['/aaa/login.json', 'get'],
    ['/aaa/login.json', 'post'],
  ]) {
    const declared = doc.paths[path][method].responses['429'];
    // Declared once under components/responses when other operations answer the same.
    const limited = declared?.$ref ? doc.components.responses[declared.$ref.split('/').pop()] : declared;
    t.ok(limited, `${method} ${path} declares 429`);
    t.equal(limited?.headers?.['Retry-After']?.schema?.type, 'integer', `${method} ${path}: Retry-After in seconds`);
  }
});

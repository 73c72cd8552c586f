/** POST /v1/auth/login and its alias POST /auth/session. */
import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import t from 'tap';
import { users } from '../../db/schema/index.js';
import { hashPassword } from '../../src/auth/password.js';
import { buildTestApp, call } from '../helpers/app.js';
import { expectAuthError, tokenWorks } from '../helpers/auth.js';
import {
  CURRENT_PARAMETERS,
  countUsers,
  createUser,
  expectError,
  hashParameters,
  storedHash,
  storeLegacyHash,
} from '../helpers/users.js';

const PATHS = ['/v1/auth/login', '/auth/session'];
const MB = 1024 * 1024;

t.test('login', async (t) => {
  const { app } = await buildTestApp(t);
  const user = await createUser(app);
  const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...headers },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body ? res.json() : undefined };
  };

  for (const path of PATHS) {
    t.test(`${path} answers {access_token, refresh_token} for the right email and password`, async (t) => {
      const res = await post(path, { email: user.email, password: user.password });
      t.equal(res.status, 200);
      t.match(res.headers['content-type'], /^application\/json/);
      t.same(Object.keys(res.body), ['access_token', 'refresh_token']);
      t.match(res.body.access_token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      t.match(res.body.refresh_token, /^[\w-]{43}$/, 'the refresh token is 256 random bits, URL-safe');
      const me = await call(app, { url: `/v1/users/${user.id}`, token: res.body.access_token });
      t.equal(me.status, 200, 'the token works');
    });

    t.test(`${path} takes the email as username, as the web front end sends it, and ignores remember-me`, async (t) => {
      for (const rememberMe of [true, false]) {
        const res = await post(path, {
          username: user.email,
          password: user.password,
          'remember-me': rememberMe,
          'include-in-response': rememberMe,
        });
        t.equal(res.status, 200, `remember-me ${rememberMe}`);
        t.same(Object.keys(res.body), ['access_token', 'refresh_token'], 'both tokens, whatever remember-me says');
      }
      const both = await post(path, {
        email: user.email,
        username: 'someone.else@example.com',
        password: user.password,
      });
      t.equal(both.status, 200, 'email wins over username');
    });

    t.test(`${path}: wrong password and unknown email are the same 401, with error beside errors`, async (t) => {
      const wrong = await post(path, { email: user.email, password: 'not the password' });
      const unknown = await post(path, { email: 'nobody@example.com', password: user.password });
      const wrongCase = await post(path, { email: user.email, password: user.password.toUpperCase() });
      const asUsername = await post(path, { username: user.email, password: 'not the password', 'remember-me': true });
      for (const res of [wrong, unknown, wrongCase, asUsername]) {
        expectAuthError(t, res, 401, { detail: 'Invalid credentials' });
        t.equal(res.body.error, 'Invalid credentials', 'the front end shows e.json.error');
        t.notOk('access_token' in res.body);
      }
      t.same(wrong.body, unknown.body, 'nothing tells which one was wrong');
    });

    t.test(`${path}: the email matches in any letter case, and trimmed`, async (t) => {
      for (const email of [user.email.toUpperCase(), `  ${user.email}  `, user.email.replace('example', 'EXAMPLE')]) {
        const res = await post(path, { email, password: user.password });
        t.equal(res.status, 200, JSON.stringify(email));
        t.type(res.body.access_token, 'string');
      }
    });
  }

  t.test('a registered mixed-case email logs in as typed or lower-cased', async (t) => {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: { data: { type: 'user', attributes: { email: 'Mixed.Case@Example.COM', password: 'long enough' } } },
    });
    t.equal(res.status, 201);
    for (const email of ['Mixed.Case@Example.COM', 'mixed.case@example.com']) {
      t.equal((await post('/v1/auth/login', { email, password: 'long enough' })).status, 200, email);
    }
  });

  t.test('a deleted account cannot log in', async (t) => {
    const doomed = await createUser(app);
    t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${doomed.id}`, token: doomed.token })).status, 200);
    for (const path of PATHS) {
      expectAuthError(t, await post(path, { email: doomed.email, password: doomed.password }), 401, {
        detail: 'Invalid credentials',
      });
    }
  });

  t.test('the JSON:API media type is accepted as well', async (t) => {
    const res = await post(
      '/v1/auth/login',
      { email: user.email, password: user.password },
      { 'content-type': 'application/vnd.api+json' },
    );
    t.equal(res.status, 200);
  });

  t.test('bad input is a 4xx error document, never a 500, and writes nothing', async (t) => {
    const ok = { email: user.email, password: user.password };
    /** [what, body, status, pointer]. */
    const CASES: [string, unknown, number, string?][] = [
      ['malformed JSON', '{"email": ', 400],
      ['empty body', undefined, 400],
      ['a JSON array', '[]', 422, ''],
      ['null', 'null', 422, ''],
      ['a string', '"hello"', 422, ''],
      ['neither email nor username', { password: ok.password }, 422, '/email'],
      ['missing password', { email: ok.email }, 422, '/password'],
      ['empty object', {}, 422, '/password'],
      ['email is a number', { ...ok, email: 42 }, 422, '/email'],
      ['email is an array', { ...ok, email: [ok.email] }, 422, '/email'],
      ['password is a number', { ...ok, password: 12345678 }, 422, '/password'],
      ['password is null', { ...ok, password: null }, 422, '/password'],
      ['password is an object', { ...ok, password: { $ne: '' } }, 422, '/password'],
      ['empty password', { ...ok, password: '' }, 422, '/password'],
      ['unknown field', { ...ok, remember: true }, 422, '/remember'],
      ['remember-me is a string', { ...ok, 'remember-me': 'yes' }, 422, '/remember-me'],
      ['username is not an email', { username: 'ada', password: ok.password }, 422, '/username'],
      ['not an email', { ...ok, email: 'not-an-email' }, 422, '/email'],
      ['a NUL in the email', { ...ok, email: `a\u0000${ok.email}` }, 422, '/email'],
      ['a 10k-character email', { ...ok, email: `${'e'.repeat(10_000)}@example.com` }, 422, '/email'],
      ['a 1025-character password', { ...ok, password: 'p'.repeat(1025) }, 422, '/password'],
      ['a 1 MB password', { ...ok, password: 'p'.repeat(MB) }, 413],
      ['__proto__', `{"email":"${ok.email}","password":"x","__proto__":{"identity":1}}`, 400],
    ];
    const before = await countUsers(app);
    for (const path of PATHS) {
      for (const [what, body, status, pointer] of CASES) {
        const res = await post(path, body);
        t.not(res.status, 500, `${path} ${what}`);
        expectAuthError(t, res, status, pointer !== undefined ? { pointer } : {});
      }
      expectAuthError(t, await post(path, JSON.stringify(ok), { 'content-type': 'text/plain' }), 415);
      expectAuthError(
        t,
        await post(path, 'email=a@b.c&password=x', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
      );
      const get = await app.inject({ method: 'GET', url: path });
      expectError(t, { status: get.statusCode, headers: get.headers, body: get.json() }, 405);
      t.equal(get.headers.allow, 'POST');
    }
    t.equal(await countUsers(app), before);
  });
});

t.test("hashes made with other parameters than OWASP's are upgraded at the next successful login", async (t) => {
  const { app, queries, resetQueries } = await buildTestApp(t);
  const login = async (email: string, password: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: { email, password },
    });
  const generation = async (id: string) =>
    (
      await app.db
        .select({ g: users.tokenGeneration })
        .from(users)
        .where(eq(users.id, Number(id)))
    )[0]!.g;

  t.test('in the statements a login makes anyway, whatever the old parameters', async (t) => {
    const OLD: [string, argon2.HashOptions][] = [
      ["the library's default", { type: argon2.argon2id }],
      ['argon2i with the same m, t, p', { type: argon2.argon2i, memoryCost: 19_456, timeCost: 2, parallelism: 1 }],
      ['argon2id with t=1', { type: argon2.argon2id, memoryCost: 19_456, timeCost: 1, parallelism: 1 }],
      ['argon2id with 4 lanes', { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 4 }],
    ];
    const current = await createUser(app);
    resetQueries();
    t.equal((await login(current.email, current.password)).statusCode, 200);
    const usual = queries.length;
    for (const [what, options] of OLD) {
      const user = await createUser(app);
      const old = await storeLegacyHash(app, user, options);
      const before = await generation(user.id);
      resetQueries();
      t.equal((await login(user.email, user.password)).statusCode, 200, what);
      t.equal(queries.length, usual, `${what}: no statement of its own (${usual}, as every login)`);
      const upgraded = await storedHash(app, user.id);
      t.not(upgraded, old);
      t.same(hashParameters(upgraded), CURRENT_PARAMETERS, `${what}: upgraded`);
      t.ok(await argon2.verify(upgraded, user.password), `${what}: the same password`);
      t.equal(await generation(user.id), before, `${what}: the token generation stays`);
      t.equal(await tokenWorks(app, user.token), 200, `${what}: the token of the earlier login works`);
    }
  });

  t.test('a hash made with the current parameters is never rewritten', async (t) => {
    const user = await createUser(app);
    const hash = await storedHash(app, user.id);
    t.same(hashParameters(hash), CURRENT_PARAMETERS, 'registration hashes with HASH_OPTIONS');
    t.same(hashParameters(await hashPassword('anything')), CURRENT_PARAMETERS);
    t.equal((await login(user.email, user.password)).statusCode, 200);
    t.equal(await storedHash(app, user.id), hash);
  });

  t.test('wrong passwords, unknown addresses and blocked accounts write no hash', async (t) => {
    const user = await createUser(app);
    const old = await storeLegacyHash(app, user);
    for (const password of ['not the password', user.password.toUpperCase()]) {
      t.equal((await login(user.email, password)).statusCode, 401);
    }
    t.equal(await storedHash(app, user.id), old, 'wrong passwords');
    await app.db
      .update(users)
      .set({ isBlocked: true })
      .where(eq(users.id, Number(user.id)));
    t.equal(
      (await login(user.email, user.password)).statusCode,
      403,
      'the right password of a blocked account is refused',
    );
    t.equal(await storedHash(app, user.id), old, 'and upgrades nothing');
  });

  t.test('a password changed between the check and the upgrade is kept', async (t) => {
    const user = await createUser(app);
    await storeLegacyHash(app, user);
    const changed = await hashPassword('the password changed meanwhile');
    // The change holds the account's row until it commits: the login reads the old hash (readers do not
    // wait), checks it, and its upgrade waits for the row; then it finds the hash is not the one it checked.
    let answer: ReturnType<typeof login> | undefined;
    await app.sql.begin(async (tx) => {
      await tx`update users set password_hash = ${changed} where id = ${Number(user.id)}`;
      answer = login(user.email, user.password);
      for (let waited = 0; ; waited += 20) {
        const [row] = await app.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query like '%update "users" set password_hash%'`;
        if (row!.n > 0) break;
        if (waited > 10_000) throw new Error('the login never waited for the row');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    t.equal((await answer!).statusCode, 200, 'the password was right when it was checked');
    t.equal(await storedHash(app, user.id), changed, 'the new password stays');
    t.equal((await login(user.email, 'the password changed meanwhile')).statusCode, 200);
    t.equal((await login(user.email, user.password)).statusCode, 401, 'the old one no longer works');
  });
});

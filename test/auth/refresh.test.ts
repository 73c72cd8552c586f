/**
 * POST /v1/auth/token/refresh: rotation, reuse detection, the web front end's pattern, expiry, hashed
 * storage, the two ways of sending the token, and its refusals.
 */
import { createHash } from 'node:crypto';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { expectAuthError, loginPair, post, refresh, tokenWorks, type TokenPair } from '../helpers/auth.js';
import { decodeToken, nowSeconds, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { JWT_REFRESH_EXPIRES_IN: '600' });

/** The login an access token names (its `sid` claim). */
const sidOf = (accessToken: string) => String(decodeToken(accessToken).claims.sid);

/** The state of a login, as the database keeps it. */
const loginOf = async (accessToken: string) => {
  const [row] = await app.sql<{ ended_at: Date | null; end_reason: string | null }[]>`
    select ended_at, end_reason from logins where id = ${sidOf(accessToken)}`;
  return row!;
};

/** A refresh that must succeed: the new pair. */
async function renewed(t: Test, token: string, via: 'body' | 'header' = 'body'): Promise<TokenPair> {
  const res = await refresh(app, token, via);
  t.equal(res.status, 200, `refresh via ${via}`);
  t.same(Object.keys(res.body ?? {}), ['access_token', 'refresh_token']);
  return res.body;
}

t.test('a refresh answers a new pair of the same login; the access token works and names the login', async (t) => {
  const user = await seedUser(app);
  const first = await loginPair(app, user.email, user.password);
  const next = await renewed(t, first.refresh_token);
  t.not(next.refresh_token, first.refresh_token, 'a new refresh token');
  t.equal(await tokenWorks(app, next.access_token), 200);
  const { claims } = decodeToken(next.access_token);
  t.equal(claims.identity, Number(user.id));
  t.equal(claims.sid, decodeToken(first.access_token).claims.sid, 'the same login');
  t.equal(claims.exp! - claims.iat!, 86400, 'an access token lives JWT_EXPIRES_IN');
  t.ok(Math.abs(claims.iat! - nowSeconds()) < 60);
  t.equal(await tokenWorks(app, first.access_token), 200, 'the earlier access token still works');
});

t.test('the token in the Authorization header (JWT or Bearer), or in the body, which wins', async (t) => {
  const user = await seedUser(app);
  const { refresh_token, access_token } = await loginPair(app, user.email, user.password);
  await renewed(t, refresh_token, 'header');
  const bearer = await post(
    app,
    '/v1/auth/token/refresh',
    {},
    { headers: { authorization: `Bearer ${refresh_token}` } },
  );
  t.equal(bearer.status, 200, 'Bearer works too');
  const both = await post(app, '/v1/auth/token/refresh', { refresh_token }, { token: access_token });
  t.equal(both.status, 200, 'the body wins over an access token in the header');
  const noBody = await app.inject({
    method: 'POST',
    url: '/v1/auth/token/refresh',
    headers: { authorization: `JWT ${refresh_token}` },
  });
  t.equal(noBody.statusCode, 200, 'no body at all: the header is enough');
});

t.test('rotation: each used token retires its parent; presenting a retired one ends the login', async (t) => {
  const user = await seedUser(app);
  const t0 = await loginPair(app, user.email, user.password);
  const t1 = await renewed(t, t0.refresh_token);
  const t2 = await renewed(t, t1.refresh_token);
  const t3 = await renewed(t, t2.refresh_token);
  const replay = await refresh(app, t1.refresh_token);
  expectAuthError(t, replay, 401, { detail: /replaced by another one that was used; the login has ended/ });
  t.match(await loginOf(t0.access_token), { end_reason: 'reuse' });
  for (const pair of [t0, t1, t2, t3])
    t.equal(await tokenWorks(app, pair.access_token), 401, 'every access token of the login ended');
  expectAuthError(t, await refresh(app, t3.refresh_token), 401, {
    detail: 'The login of this refresh token has ended',
  });
  const other = await loginPair(app, user.email, user.password);
  t.equal(await tokenWorks(app, other.access_token), 200, 'a new login of the account is unaffected');
});

t.test('the web front end refreshes with its first token only: it keeps working', async (t) => {
  const user = await seedUser(app);
  const first = await loginPair(app, user.email, user.password);
  for (let i = 1; i <= 5; i++) {
    const next = await renewed(t, first.refresh_token, 'header');
    t.equal(await tokenWorks(app, next.access_token), 200, `refresh ${i} with the first token`);
  }
  t.match(await loginOf(first.access_token), { ended_at: null });
});

t.test('a client that retries a refresh whose answer it lost keeps working', async (t) => {
  const user = await seedUser(app);
  const t0 = await loginPair(app, user.email, user.password);
  const t1 = await renewed(t, t0.refresh_token);
  await renewed(t, t1.refresh_token);
  const t2again = await renewed(t, t1.refresh_token);
  await renewed(t, t2again.refresh_token);
});

t.test(
  'theft: the thief and the owner both advance a chain from one token; the second chain ends the login',
  async (t) => {
    const user = await seedUser(app);
    const t0 = await loginPair(app, user.email, user.password);
    const stolen = await renewed(t, t0.refresh_token);
    const thief = await renewed(t, stolen.refresh_token);
    const owner = await renewed(t, stolen.refresh_token);
    t.equal(
      (await refresh(app, thief.refresh_token)).status,
      200,
      'the first chain goes on: the token it came from is retired',
    );
    expectAuthError(t, await refresh(app, owner.refresh_token), 401, { detail: /the login has ended/ });
    t.match(await loginOf(t0.access_token), { end_reason: 'reuse' });
    t.equal(await tokenWorks(app, thief.access_token), 401, "the thief's access token ended with the login");
  },
);

t.test("theft of the front end's token: when the thief rotates, the owner's next refresh ends the login", async (t) => {
  const user = await seedUser(app);
  const first = await loginPair(app, user.email, user.password);
  const thief = await renewed(t, first.refresh_token);
  await renewed(t, thief.refresh_token);
  expectAuthError(t, await refresh(app, first.refresh_token, 'header'), 401, { detail: /the login has ended/ });
  expectAuthError(t, await refresh(app, thief.refresh_token), 401);
});

t.test('concurrent refreshes with one token are judged one after the other', async (t) => {
  const user = await seedUser(app);
  const t0 = await loginPair(app, user.email, user.password);
  const parallel = await Promise.all(Array.from({ length: 6 }, () => refresh(app, t0.refresh_token)));
  t.same(
    parallel.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
    'one token, several children: allowed',
  );
  const siblings = parallel.map((r) => r.body.refresh_token as string);
  const used = await Promise.all(siblings.slice(0, 2).map((s) => refresh(app, s)));
  t.same(
    used.map((r) => r.status).sort(),
    [200, 401],
    'two chains from one token: the second to arrive ends the login',
  );
});

t.test('a refresh token expires JWT_REFRESH_EXPIRES_IN after it was issued', async (t) => {
  const user = await seedUser(app);
  const t0 = await loginPair(app, user.email, user.password);
  const [row] = await app.sql<{ seconds: number }[]>`
    select extract(epoch from expires_at - created_at)::int as seconds from refresh_tokens where token_hash = ${createHash('sha256').update(t0.refresh_token).digest()}`;
  t.equal(row!.seconds, 600);
  // The clock of the stored token moved past its expiry.
  await app.sql`update refresh_tokens set expires_at = now() - interval '1 second' where token_hash = ${createHash('sha256').update(t0.refresh_token).digest()}`;
  expectAuthError(t, await refresh(app, t0.refresh_token), 401, { detail: 'Refresh token has expired' });
  t.equal(await tokenWorks(app, t0.access_token), 200, 'the access token lives on until its own expiry');
});

t.test('refresh tokens are stored as their SHA-256 only; logins are kept until their last token expires', async (t) => {
  const user = await seedUser(app);
  const pair = await loginPair(app, user.email, user.password);
  const next = await renewed(t, pair.refresh_token);
  const dump = JSON.stringify(await app.sql`select encode(token_hash, 'base64') as hash, * from refresh_tokens`);
  for (const token of [pair.refresh_token, next.refresh_token]) {
    t.notOk(dump.includes(token), 'the token itself is nowhere in the table');
    const hash = createHash('sha256').update(token).digest();
    t.equal((await app.sql`select 1 from refresh_tokens where token_hash = ${hash}`).length, 1, 'its hash is');
  }
  const [login] = await app.sql<{ seconds: number }[]>`
    select extract(epoch from expires_at - created_at)::int as seconds from logins where id = ${sidOf(pair.access_token)}`;
  t.ok(login!.seconds >= 86400, 'a login lasts at least as long as the access tokens it issues');
  await app.sql`update logins set expires_at = now() - interval '1 second' where id = ${sidOf(pair.access_token)}`;
  await loginPair(app, user.email, user.password);
  t.equal(
    (
      await app.sql`select 1 from refresh_tokens where token_hash = ${createHash('sha256').update(next.refresh_token).digest()}`
    ).length,
    0,
    'the next login deleted the expired one with its tokens',
  );
});

t.test('refusals: 4xx error documents with error, never a 500', async (t) => {
  const user = await seedUser(app);
  const { access_token } = await loginPair(app, user.email, user.password);
  const CASES: [string, unknown, number, string?, Record<string, string>?][] = [
    ['an unknown token', { refresh_token: 'x'.repeat(43) }, 401],
    ['an access token as refresh token', { refresh_token: access_token }, 401],
    ['no token at all', {}, 400],
    ['a number', { refresh_token: 42 }, 422, '/refresh_token'],
    ['an empty string', { refresh_token: '' }, 422, '/refresh_token'],
    ['an unknown member', { refresh_token: 'x', other: 1 }, 422, '/other'],
    ['a 2 kB token', { refresh_token: 'x'.repeat(2048) }, 422, '/refresh_token'],
    ['a NUL', { refresh_token: 'a\u0000b' }, 401],
    ['a malformed header', {}, 401, undefined, { authorization: 'Basic abc' }],
  ];
  for (const [what, body, status, pointer, headers] of CASES) {
    const res = await post(app, '/v1/auth/token/refresh', body, { headers });
    t.equal(res.status, status, what);
    expectAuthError(t, res, status, pointer !== undefined ? { pointer } : {});
  }
  const text = await app.inject({
    method: 'POST',
    url: '/v1/auth/token/refresh',
    headers: { 'content-type': 'text/plain' },
    payload: 'x',
  });
  expectAuthError(t, { status: text.statusCode, headers: text.headers, body: text.json() }, 415);
});

t.test('deleting the account ends its logins', async (t) => {
  const user = await seedUser(app);
  const pair = await loginPair(app, user.email, user.password);
  const res = await app.inject({
    method: 'DELETE',
    url: `/v1/users/${user.id}`,
    headers: { authorization: `JWT ${pair.access_token}` },
  });
  t.equal(res.statusCode, 200);
  expectAuthError(t, await refresh(app, pair.refresh_token), 401);
  t.match(await loginOf(pair.access_token), { end_reason: 'deleted' });
});

t.test('failed refreshes count per client address like failed logins; a success does not count', async (t) => {
  const { app: limited } = await buildTestApp(t, { LOGIN_MAX_FAILURES_PER_IP: '3' });
  const user = await seedUser(limited);
  const pair = await loginPair(limited, user.email, user.password);
  const from = (remoteAddress: string, token: string) =>
    limited.inject({
      method: 'POST',
      url: '/v1/auth/token/refresh',
      remoteAddress,
      headers: { 'content-type': 'application/json' },
      payload: { refresh_token: token },
    });
  for (let i = 0; i < 5; i++)
    t.equal((await from('203.0.113.5', pair.refresh_token)).statusCode, 200, `success ${i + 1} counts nothing`);
  for (let i = 0; i < 3; i++) t.equal((await from('203.0.113.5', `wrong-${i}`)).statusCode, 401);
  const limitedAnswer = await from('203.0.113.5', pair.refresh_token);
  t.equal(limitedAnswer.statusCode, 429, 'past the limit even a good token is refused');
  t.match(limitedAnswer.headers['retry-after'], /^\d+$/);
  expectAuthError(t, { status: 429, headers: limitedAnswer.headers, body: limitedAnswer.json() }, 429, {
    detail: /^Too many failed attempts/,
  });
  t.equal((await from('203.0.113.6', pair.refresh_token)).statusCode, 200, 'another client address is not limited');
});

/** Bearer tokens: accepted forms, and a 401 error document for every bad one. */
import t, { type Test } from 'tap';
import { buildTestApp, call, JSONAPI, TEST_SECRET } from '../helpers/app.js';
import { craftToken, decodeToken, expectError, login, nowSeconds as now, seedUser } from '../helpers/users.js';

t.test('tokens', async (t) => {
  const { app } = await buildTestApp(t);
  const user = await seedUser(app);
  const self = `/v1/users/${user.id}`;
  const withHeader = (authorization: string, url = self) => call(app, { url, headers: { authorization } });
  const refused = async (t: Test, authorization: string, detail?: string | RegExp) => {
    const res = await withHeader(authorization);
    expectError(t, res, 401, detail ? { detail } : {});
    t.equal(res.headers['www-authenticate'], 'JWT', 'names the scheme');
  };
  const identity = Number(user.id);

  t.test('JWT and Bearer schemes both work, in any letter case', async (t) => {
    for (const scheme of ['JWT', 'Bearer', 'jwt', 'bearer', 'BEARER']) {
      const res = await withHeader(`${scheme} ${user.token}`);
      t.equal(res.status, 200, scheme);
      t.equal(res.headers['content-type'], JSONAPI);
      t.equal(res.body.data.id, user.id);
    }
  });

  t.test(
    'a token the test signs with the real secret is accepted (the forgeries below fail for their flaw)',
    async (t) => {
      const token = craftToken({ identity, iat: now(), exp: now() + 600 }, { secret: TEST_SECRET });
      t.equal((await withHeader(`JWT ${token}`)).status, 200);
    },
  );

  t.test('a missing token on a protected route is 401', async (t) => {
    const res = await call(app, { url: self });
    expectError(t, res, 401, { detail: 'Authentication is required' });
    t.equal(res.headers['www-authenticate'], 'JWT');
    expectError(t, await call(app, { url: '/v1/users' }), 401);
  });

  t.test('a malformed Authorization header is 401', async (t) => {
    for (const header of [
      'Basic dXNlcjpwYXNz',
      'JWT',
      'JWT ',
      'Bearer',
      'Token x',
      user.token,
      `JWT ${user.token} extra`,
      `JWT${user.token}`,
      '',
    ]) {
      await t.test(JSON.stringify(header.slice(0, 20)), (t) => refused(t, header));
    }
  });

  t.test('tokens that are not JWTs are 401', async (t) => {
    for (const token of [
      'abc',
      'a.b.c',
      '..',
      `${user.token}x`,
      user.token.split('.').slice(0, 2).join('.'),
      'é'.repeat(10),
    ]) {
      await refused(t, `JWT ${token}`, 'Invalid token');
    }
  });

  t.test('forged tokens are 401', async (t) => {
    const claims = { identity, iat: now(), exp: now() + 3600 };
    const forgeries: Record<string, string> = {
      'another secret': craftToken(claims, { secret: 'another-secret-that-is-at-least-32-characters' }),
      'alg none, no signature': craftToken(claims, { secret: '', header: { alg: 'none', typ: 'JWT' }, hmac: null }),
      'alg none, real signature': craftToken(claims, { secret: TEST_SECRET, header: { alg: 'none', typ: 'JWT' } }),
      'alg NONE': craftToken(claims, { secret: '', header: { alg: 'NONE' }, hmac: null }),
      'HS512 with the real secret': craftToken(claims, {
        secret: TEST_SECRET,
        header: { alg: 'HS512', typ: 'JWT' },
        hmac: 'sha512',
      }),
      'HS384 with the real secret': craftToken(claims, {
        secret: TEST_SECRET,
        header: { alg: 'HS384', typ: 'JWT' },
        hmac: 'sha384',
      }),
      'RS256 header, HMAC signature': craftToken(claims, { secret: TEST_SECRET, header: { alg: 'RS256', typ: 'JWT' } }),
      'no alg': craftToken(claims, { secret: TEST_SECRET, header: { typ: 'JWT' } }),
      'claims swapped in': `${user.token.split('.')[0]}.${craftToken({ ...claims, identity: identity + 1 }, { secret: 'x' }).split('.')[1]}.${user.token.split('.')[2]}`,
    };
    for (const [what, token] of Object.entries(forgeries)) {
      await t.test(what, (t) => refused(t, `JWT ${token}`, 'Invalid token'));
    }
  });

  t.test('an expired token is 401 "Token has expired"', async (t) => {
    const expired = craftToken({ identity, iat: now() - 2 * 86400, exp: now() - 86400 }, { secret: TEST_SECRET });
    await refused(t, `JWT ${expired}`, 'Token has expired');
    const justExpired = craftToken({ identity, iat: now() - 86410, exp: now() - 10 }, { secret: TEST_SECRET });
    await refused(t, `Bearer ${justExpired}`, 'Token has expired');
    const notYet = craftToken({ identity, iat: now(), nbf: now() + 3600, exp: now() + 7200 }, { secret: TEST_SECRET });
    await refused(t, `JWT ${notYet}`, 'Invalid token');
  });

  t.test('claims that do not name a live account are 401', async (t) => {
    const signed = (claims: Record<string, unknown>) =>
      `JWT ${craftToken({ iat: now(), exp: now() + 600, ...claims }, { secret: TEST_SECRET })}`;
    await refused(t, signed({ identity: String(identity) }), 'Invalid token');
    await refused(t, signed({ identity: identity + 0.5 }), 'Invalid token');
    await refused(t, signed({ sub: String(identity) }), 'Invalid token');
    await refused(t, signed({ identity: null }), 'Invalid token');
    await refused(t, signed({ identity: 2 ** 40 }), 'Invalid token');
    await refused(t, signed({ identity: -1 }), 'Invalid token');
    await refused(t, signed({ identity: 0 }), 'Invalid token');
    await refused(t, signed({ identity: 987654 }), 'The account of this token no longer exists');
  });

  t.test('the token of a deleted user is 401, even on the open registration route', async (t) => {
    const doomed = await seedUser(app);
    t.equal((await call(app, { url: `/v1/users/${doomed.id}`, token: doomed.token })).status, 200);
    t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${doomed.id}`, token: doomed.token })).status, 200);
    await refused(t, `JWT ${doomed.token}`, 'The account of this token no longer exists');
    const post = await call(app, {
      method: 'POST',
      url: '/v1/users',
      token: doomed.token,
      body: { data: { type: 'user', attributes: { email: 'reborn@example.com', password: 'long enough' } } },
    });
    expectError(t, post, 401);
  });

  t.test('a bad token is refused on an open route too; no token there is fine', async (t) => {
    const body = { data: { type: 'user', attributes: { email: 'open@example.com', password: 'long enough' } } };
    const forged = craftToken(
      { identity, iat: now(), exp: now() + 60 },
      { secret: 'another-secret-that-is-at-least-32-characters' },
    );
    expectError(
      t,
      await call(app, { method: 'POST', url: '/v1/users', body, headers: { authorization: `JWT ${forged}` } }),
      401,
    );
    t.equal((await call(app, { method: 'POST', url: '/v1/users', body })).status, 201);
  });

  t.test('tokens are HS256, name the user, and live 24 hours by default', async (t) => {
    const token = await login(app, user.email, user.password);
    const { header, claims } = decodeToken(token);
    t.equal(header.alg, 'HS256');
    t.equal(claims.identity, identity);
    t.equal(claims.exp! - claims.iat!, 86400);
    t.ok(Math.abs(claims.iat! - now()) < 60, 'issued now');
  });
});

t.test('JWT_EXPIRES_IN sets the lifetime', async (t) => {
  const { app } = await buildTestApp(t, { JWT_EXPIRES_IN: '60' });
  const user = await seedUser(app);
  const { claims } = decodeToken(user.token);
  t.equal(claims.exp! - claims.iat!, 60);
  t.equal((await call(app, { url: `/v1/users/${user.id}`, token: user.token })).status, 200);
  // What this app issued 61 seconds ago: signed by its own signer with the issue time moved back.
  const old = app.jwt.sign({ identity: Number(user.id), iat: now() - 61 } as { identity: number });
  const { claims: oldClaims } = decodeToken(old);
  t.equal(oldClaims.exp! - oldClaims.iat!, 60);
  const res = await call(app, { url: `/v1/users/${user.id}`, token: old });
  expectError(t, res, 401, { detail: 'Token has expired' });
});

t.test('a token from an app with another secret is refused', async (t) => {
  const a = await buildTestApp(t);
  const b = await buildTestApp(t, { JWT_SECRET: 'a-different-secret-that-is-at-least-32-chars' });
  const onA = await seedUser(a.app);
  const onB = await seedUser(b.app);
  const res = await call(a.app, { url: `/v1/users/${onA.id}`, headers: { authorization: `JWT ${onB.token}` } });
  expectError(t, res, 401, { detail: 'Invalid token' });
});

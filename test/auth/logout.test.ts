/** POST /v1/auth/logout ends one login: its refresh tokens and its access tokens, nothing else. */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { loginPair, post, refresh, tokenWorks } from '../helpers/auth.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);

t.test('with the access token: its login ends at once, other logins of the account go on', async (t) => {
  const user = await seedUser(app);
  const phone = await loginPair(app, user.email, user.password);
  const laptop = await loginPair(app, user.email, user.password);
  const renewed = (await refresh(app, laptop.refresh_token)).body;
  t.equal(await tokenWorks(app, renewed.access_token), 200);

  const res = await post(app, '/v1/auth/logout', {}, { token: laptop.access_token });
  t.equal(res.status, 200);
  t.same(res.body, { success: true });
  for (const token of [laptop.access_token, renewed.access_token])
    t.equal(await tokenWorks(app, token), 401, 'every access token of the login ended');
  for (const token of [laptop.refresh_token, renewed.refresh_token])
    t.equal((await refresh(app, token)).status, 401, 'every refresh token of the login ended');
  t.equal(await tokenWorks(app, phone.access_token), 200, 'the other login goes on');
  t.equal((await refresh(app, phone.refresh_token)).status, 200);
  const [row] = await app.sql<{ end_reason: string }[]>`select end_reason from logins where id in (
    select login_id from refresh_tokens where token_hash = sha256(${laptop.refresh_token}::bytea))`;
  t.equal(row!.end_reason, 'logout');
});

t.test('with the refresh token (a client whose access token expired), and twice', async (t) => {
  const user = await seedUser(app);
  const pair = await loginPair(app, user.email, user.password);
  const res = await post(
    app,
    '/v1/auth/logout',
    { refresh_token: pair.refresh_token },
    { headers: { authorization: 'JWT an.expired.token' } },
  );
  t.equal(res.status, 200, 'the refresh token in the body names the login; the header is not read');
  t.equal(await tokenWorks(app, pair.access_token), 401);
  t.equal(
    (await post(app, '/v1/auth/logout', { refresh_token: pair.refresh_token })).status,
    200,
    'ending an ended login is fine',
  );
});

t.test('refusals: no token, an unknown refresh token, a bad access token, a token of no login alone', async (t) => {
  const user = await seedUser(app);
  expectError(t, await post(app, '/v1/auth/logout', {}), 401, { detail: 'Authentication is required' });
  expectError(t, await post(app, '/v1/auth/logout', { refresh_token: 'not a token we issued' }), 401, {
    detail: 'Invalid refresh token',
  });
  expectError(t, await post(app, '/v1/auth/logout', {}, { token: 'not.a.token' }), 401);
  // seedUser's token is issued as the assistant issues its tokens: it belongs to no login.
  expectError(t, await post(app, '/v1/auth/logout', {}, { token: user.token }), 400, { detail: /belongs to no login/ });
  t.equal(await tokenWorks(app, user.token), 200, 'and it still works');
});

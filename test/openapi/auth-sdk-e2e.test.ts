/**
 * The logins through the typed SDK against a listening server, as a rotating client: each refresh uses
 * the token the previous one gave back (retiring the one before it); a replayed token ends the login;
 * logout; the typed answers of the account routes.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { createApiClient } from '../../openapi/client/index.js';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const user = await seedUser(app);

t.test('log in, rotate the refresh token, replay an old one, log out', async (t) => {
  const api = createApiClient(baseUrl);
  const login = await api.POST('/v1/auth/login', { body: { email: user.email, password: user.password } });
  t.equal(login.response.status, 200);
  let pair = login.data!;
  const first = pair.refresh_token;
  for (let i = 1; i <= 3; i++) {
    const next = await api.POST('/v1/auth/token/refresh', { body: { refresh_token: pair.refresh_token } });
    t.equal(next.response.status, 200, `refresh ${i}`);
    pair = next.data!;
    api.setToken(pair.access_token);
    t.equal(
      (await api.GET('/v1/users/{id}', { params: { path: { id: user.id } } })).response.status,
      200,
      'the new access token works',
    );
  }

  const replay = await api.POST('/v1/auth/token/refresh', { body: { refresh_token: first } });
  t.equal(replay.response.status, 401, 'a retired token: the login ends');
  t.equal(replay.error?.error, replay.error?.errors[0]?.detail, 'the typed error has `error`');
  t.equal(
    (await api.GET('/v1/users/{id}', { params: { path: { id: user.id } } })).response.status,
    401,
    'and so does its access token',
  );

  const again = (await api.POST('/v1/auth/login', { body: { email: user.email, password: user.password } })).data!;
  api.setToken(again.access_token);
  const out = await api.POST('/v1/auth/logout', { body: {} });
  t.equal(out.response.status, 200);
  t.same(out.data, { success: true });
  t.equal(
    (await api.POST('/v1/auth/token/refresh', { body: { refresh_token: again.refresh_token } })).response.status,
    401,
  );
});

t.test('the account routes answer their typed documents', async (t) => {
  const api = createApiClient(baseUrl);
  const check = await api.POST('/v1/users/check_email', { body: { email: user.email } });
  t.same(check.data, { exists: true });
  const asked = await api.POST('/v1/auth/reset-password', { body: { data: { email: 'someone@example.com' } } });
  t.equal(asked.response.status, 200);
  t.type(asked.data?.message, 'string');
  const own = (await api.POST('/v1/auth/login', { body: { email: user.email, password: user.password } })).data!;
  api.setToken(own.access_token);
  const changed = await api.POST('/v1/auth/change-password', {
    body: { data: { 'old-password': user.password, 'new-password': 'a longer new password' } },
  });
  t.same(changed.data, { id: user.id, email: user.email, name: null, 'password-changed': true });
  const wrong = await api.PATCH('/v1/auth/reset-password', {
    body: { data: { token: 'not a token', password: 'long enough' } },
  });
  t.equal(wrong.response.status, 400);
  t.equal(wrong.error?.errors[0]?.status, '400');
});

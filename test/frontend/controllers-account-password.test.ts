/**
 * open-event-frontend app/controllers/account/password.js (the form of app/components/account/password-section.js):
 * a logged-in user changes the password and goes on with the same session; the other sessions end.
 */
import t from 'tap';
import { nthMailTo } from '../helpers/auth.js';
import { seedUser } from '../helpers/users.js';
import { frontEnd, preflight } from '../helpers/front-end-client.js';
import { preflightPasses, readableByFrontEnd, simpleAuth, startForFrontEnd } from '../helpers/front-end-auth.js';

const { apiHost, app, smtp } = await startForFrontEnd(t);
const refreshEndpoint = `${apiHost}/v1/auth/token/refresh`;

/** A remember-me login (app/components/forms/login-form.js:66). */
async function login(email: string, password: string) {
  const res = await simpleAuth(`${apiHost}/auth/session`, {
    username: email,
    password,
    'remember-me': true,
    'include-in-response': true,
  });
  return res.body as { access_token: string; refresh_token: string };
}

/** A refresh as app/authenticators/custom-jwt.js:51-58 sends it. */
const refresh = (refreshToken: string) =>
  simpleAuth(
    refreshEndpoint,
    { refresh_token: refreshToken },
    { Authorization: `JWT ${refreshToken}`, 'X-CSRF-Token': 'undefined' },
  );

t.test('change the password; this session goes on, the other one ends, a notice is mailed', async (t) => {
  const user = await seedUser(app);
  const session = await login(user.email, user.password);
  const elsewhere = await login(user.email, user.password);

  const wanted = ['authorization', 'content-type'];
  preflightPasses(
    t,
    await preflight(apiHost, '/v1/auth/change-password', 'POST', wanted),
    'POST',
    wanted,
    'change-password',
  );
  // password.js:9-16: loader.post('/auth/change-password', {data: {'old-password', 'new-password'}}), logged in.
  const payload = { data: { 'old-password': user.password, 'new-password': 'a better password' } };
  const changed = await frontEnd(apiHost, session.access_token).loader('POST', '/v1/auth/change-password', payload);
  t.equal(changed.status, 200, 'password.js:17-22: "Password updated successfully"');
  readableByFrontEnd(t, changed, 'the change');

  // The front end keeps its session (password.js does not log in again): its tokens go on working.
  t.equal((await frontEnd(apiHost, session.access_token).adapter('GET', `/v1/users/${user.id}`)).status, 200);
  t.equal((await refresh(session.refresh_token)).status, 200, 'and its first refresh token still refreshes');
  // Another browser logged in with the old password is logged out at its next request or refresh.
  t.equal((await frontEnd(apiHost, elsewhere.access_token).adapter('GET', `/v1/users/${user.id}`)).status, 401);
  t.equal((await refresh(elsewhere.refresh_token)).status, 401);

  const relogin = await simpleAuth(`${apiHost}/auth/session`, { username: user.email, password: 'a better password' });
  t.equal(relogin.status, 200, 'the new password logs in');
  t.match((await nthMailTo(smtp, user.email)).parsed.subject, /was changed/);
});

t.test('a wrong current password is refused and changes nothing', async (t) => {
  const user = await seedUser(app);
  const session = await login(user.email, user.password);
  const refused = await frontEnd(apiHost, session.access_token).loader('POST', '/v1/auth/change-password', {
    data: { 'old-password': 'a wrong one', 'new-password': 'a better password' },
  });
  // password.js:23-35 shows error.errors[0].detail when the rejection carries `errors`; the loader puts the
  // document under `response` (app/services/loader.ts:119-131), so the form shows its generic message.
  t.equal(refused.status, 422);
  readableByFrontEnd(t, refused, 'the refusal');
  t.equal(refused.body.errors[0].detail, 'The current password is wrong');
  t.equal((await simpleAuth(`${apiHost}/auth/session`, { username: user.email, password: user.password })).status, 200);
});

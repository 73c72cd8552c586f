/**
 * open-event-frontend app/authenticators/custom-jwt.js: a long session that refreshes again and again
 * with the refresh token of its login (also what a restored session does after a reload), a new login
 * that still carries the last refresh's headers, and the end of the session when its login ended elsewhere.
 */
import t from 'tap';
import { post } from '../helpers/auth.js';
import { seedUser } from '../helpers/users.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { readableByFrontEnd, simpleAuth, startForFrontEnd, tokenPayload } from '../helpers/front-end-auth.js';

const { apiHost, app } = await startForFrontEnd(t);
const serverTokenEndpoint = `${apiHost}/auth/session`;
const serverTokenRefreshEndpoint = `${apiHost}/v1/auth/token/refresh`;

/** A remember-me login (app/components/forms/login-form.js:66). */
async function login(email: string, password: string, headers: Record<string, string> = {}) {
  const res = await simpleAuth(
    serverTokenEndpoint,
    { username: email, password, 'remember-me': true, 'include-in-response': true },
    headers,
  );
  if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { access_token: string; refresh_token: string };
}

/**
 * refreshAccessToken (custom-jwt.js:51-64): the authenticator's `headers` get Authorization (:52) and
 * X-CSRF-Token (:53; no csrf claim here, so "undefined") and keep them; the body is {refresh_token}.
 */
function refreshAs(session: { access_token: string; refresh_token: string }) {
  const headers = {
    Authorization: `JWT ${session.refresh_token}`,
    'X-CSRF-Token': String(tokenPayload(session.access_token).csrf),
  };
  return { headers, reply: simpleAuth(serverTokenRefreshEndpoint, { refresh_token: session.refresh_token }, headers) };
}

t.test('a session refreshes ten times with its first refresh token; sessionData keeps that token', async (t) => {
  const user = await seedUser(app);
  const session = await login(user.email, user.password);
  for (let i = 1; i <= 10; i++) {
    const reply = await refreshAs(session).reply;
    t.equal(reply.status, 200, `refresh ${i}`);
    // :57-58: handleAuthResponse(response.json, token), then sessionData.refresh_token = token: the new one is dropped.
    session.access_token = reply.body.access_token;
    t.equal((await frontEnd(apiHost, session.access_token).adapter('GET', `/v1/users/${user.id}`)).status, 200);
  }
});

t.test("a new login after a logout still sends the last refresh's headers: it works", async (t) => {
  const user = await seedUser(app);
  const first = await login(user.email, user.password);
  const { headers } = refreshAs(first);
  // app/routes/logout.js:8 -> authManager.logout() -> session.invalidate(): the authenticator's headers stay set,
  // and authenticate() sends them with the next credentials.
  const again = await simpleAuth(
    serverTokenEndpoint,
    { username: user.email, password: user.password, 'remember-me': true, 'include-in-response': true },
    headers,
  );
  t.equal(again.status, 200, 'a login ignores Authorization');
  readableByFrontEnd(t, again, 'the new login');
  t.type(again.body.refresh_token, 'string');
});

t.test('when the login ended elsewhere, the refresh is 401 and the front end ends its session', async (t) => {
  const user = await seedUser(app);
  const session = await login(user.email, user.password);
  const other = await login(user.email, user.password);
  // The password changed in another browser (app/controllers/account/password.js): this login ends.
  const changed = await post(
    app,
    '/v1/auth/change-password',
    { data: { 'old-password': user.password, 'new-password': 'another long password' } },
    { token: other.access_token },
  );
  t.equal(changed.status, 200);
  const refused = await refreshAs(session).reply;
  // :61-63: handleTokenRefreshFail(error.status): a 401 invalidates the session.
  t.equal(refused.status, 401);
  readableByFrontEnd(t, refused, 'the refusal');
  t.equal(refused.body.error, 'The login of this refresh token has ended');
  // app/adapters/application.js:102-106: a 401 on any request invalidates the session too.
  t.equal((await frontEnd(apiHost, session.access_token).adapter('GET', `/v1/users/${user.id}`)).status, 401);
});

/**
 * open-event-frontend app/components/forms/login-form.js: the login form, with "remember me" on and off,
 * then the refreshes app/authenticators/custom-jwt.js makes for it, and a wrong password as the form shows it.
 */
import argon2 from 'argon2';
import t from 'tap';
import { CURRENT_PARAMETERS, hashParameters, seedUser, storedHash, storeLegacyHash } from '../helpers/users.js';
import { frontEnd, preflight } from '../helpers/front-end-client.js';
import {
  preflightPasses,
  readableByFrontEnd,
  simpleAuth,
  startForFrontEnd,
  tokenPayload,
} from '../helpers/front-end-auth.js';

const { apiHost, app } = await startForFrontEnd(t);
// config/environment.js:94 and :100.
const serverTokenEndpoint = `${apiHost}/auth/session`;
const serverTokenRefreshEndpoint = `${apiHost}/v1/auth/token/refresh`;
const user = await seedUser(app);

t.test('remember me: login, the current user, then two refreshes with the original refresh token', async (t) => {
  preflightPasses(
    t,
    await preflight(apiHost, '/auth/session', 'POST', ['content-type']),
    'POST',
    ['content-type'],
    'login',
  );
  // login-form.js:65-66: with rememberMe, refreshAccessTokens is on and the credentials are these.
  const credentials = {
    username: user.email,
    password: user.password,
    'remember-me': true,
    'include-in-response': true,
  };
  const login = await simpleAuth(serverTokenEndpoint, credentials);
  t.equal(login.status, 200);
  readableByFrontEnd(t, login, 'login');
  // custom-jwt.js:17 reads access_token (tokenPropertyName, environment.js:95), :38 refresh_token (environment.js:101):
  // with refreshAccessTokens on, an empty refresh token throws "Refresh token is empty" (:41-43).
  const { access_token, refresh_token } = login.body;
  t.type(access_token, 'string');
  t.type(refresh_token, 'string');
  t.ok(refresh_token.length > 0, 'the refresh token the authenticator requires');
  // custom-jwt.js:23-24: getTokenData(token).exp (tokenExpireName, environment.js:102) schedules the refresh
  // 120 seconds before it (refreshLeeway, environment.js:98).
  const claims = tokenPayload(access_token);
  t.type(claims.exp, 'number');
  t.ok(claims.exp - Date.now() / 1000 > 120, 'the token outlives the refresh leeway');

  // login-form.js:74-78 (auth-manager.js:54-58): identity -> store.findRecord('user', identity).
  const me = await frontEnd(apiHost, access_token).adapter('GET', `/v1/users/${claims.identity}`);
  t.equal(me.status, 200);
  readableByFrontEnd(t, me, 'the current user');
  t.equal(me.body.data.id, user.id);
  t.equal(me.body.data.attributes.email, user.email);

  // custom-jwt.js:51-58: Authorization: JWT <refresh token>, X-CSRF-Token from the token's csrf claim (none:
  // the header carries "undefined"), body {refresh_token} (makeRefreshData); it keeps the original refresh
  // token (:57-58) and refreshes with it every time.
  const headers = { Authorization: `JWT ${refresh_token}`, 'X-CSRF-Token': String(claims.csrf) };
  const wanted = ['authorization', 'content-type', 'x-csrf-token'];
  preflightPasses(t, await preflight(apiHost, '/v1/auth/token/refresh', 'POST', wanted), 'POST', wanted, 'refresh');
  for (const round of [1, 2]) {
    const refreshed = await simpleAuth(serverTokenRefreshEndpoint, { refresh_token }, headers);
    t.equal(refreshed.status, 200, `refresh ${round} with the original refresh token`);
    readableByFrontEnd(t, refreshed, `refresh ${round}`);
    const next = refreshed.body.access_token;
    t.type(next, 'string', 'custom-jwt.js:57 reads access_token');
    t.equal(tokenPayload(next).identity, claims.identity);
    t.equal(
      (await frontEnd(apiHost, next).adapter('GET', `/v1/users/${claims.identity}`)).status,
      200,
      `the access token of refresh ${round} works`,
    );
  }
});

t.test('without remember me: the same login, whose refresh token the front end leaves unused', async (t) => {
  // login-form.js:65-66 with rememberMe false.
  const login = await simpleAuth(serverTokenEndpoint, {
    username: user.email,
    password: user.password,
    'remember-me': false,
    'include-in-response': false,
  });
  t.equal(login.status, 200);
  t.type(login.body.access_token, 'string');
  const claims = tokenPayload(login.body.access_token);
  t.equal(
    (await frontEnd(apiHost, login.body.access_token).adapter('GET', `/v1/users/${claims.identity}`)).status,
    200,
  );
});

t.test('a wrong password: the form shows e.json.error', async (t) => {
  const login = await simpleAuth(serverTokenEndpoint, {
    username: user.email,
    password: 'not my password',
    'remember-me': true,
    'include-in-response': true,
  });
  t.equal(login.status, 401);
  readableByFrontEnd(t, login, 'the refusal');
  // login-form.js:87-89: `if (e.json && e.json.error)` -> errorMessage = e.json.error (e.json: the parsed answer, here `body`).
  t.equal(login.body.error, 'Invalid credentials');
  t.equal(login.body.errors[0].detail, 'Invalid credentials', 'the JSON:API document is still there');
});

t.test(
  "a password hashed with the library's default parameters is rehashed at the next login, and only by a right one",
  async (t) => {
    // The form's endpoint (environment.js:94), and the same body at /v1/auth/login (the server's own path).
    for (const endpoint of [serverTokenEndpoint, `${apiHost}/v1/auth/login`]) {
      const account = await seedUser(app);
      const earlier = await simpleAuth(serverTokenEndpoint, {
        username: account.email,
        password: account.password,
        'remember-me': true,
        'include-in-response': true,
      });
      t.equal(earlier.status, 200, 'a login from before the upgrade');
      const legacy = await storeLegacyHash(app, account);
      t.same(
        hashParameters(legacy),
        { type: 'argon2id', v: '19', m: '65536', t: '3', p: '4' },
        "the library's default: 64 MiB, t=3, p=4",
      );

      const wrong = await simpleAuth(endpoint, {
        username: account.email,
        password: 'not my password',
        'remember-me': true,
        'include-in-response': true,
      });
      t.equal(wrong.status, 401);
      t.equal(await storedHash(app, account.id), legacy, `${endpoint}: a wrong password leaves the hash`);

      const login = await simpleAuth(endpoint, {
        username: account.email,
        password: account.password,
        'remember-me': true,
        'include-in-response': true,
      });
      t.equal(login.status, 200, endpoint);
      const upgraded = await storedHash(app, account.id);
      t.same(hashParameters(upgraded), CURRENT_PARAMETERS, `${endpoint}: the hash has OWASP's parameters now`);
      t.ok(await argon2.verify(upgraded, account.password), 'and is the same password');
      t.notOk(await argon2.verify(upgraded, 'not my password'));

      // The password did not change: no token of the account ends.
      const client = (token: string) => frontEnd(apiHost, token).adapter('GET', `/v1/users/${account.id}`);
      t.equal((await client(login.body.access_token)).status, 200, 'the new login works');
      t.equal((await client(earlier.body.access_token)).status, 200, "the earlier login's access token still works");
      t.equal(
        (await client(account.token)).status,
        200,
        'so does a token of no login (the token generation is unchanged)',
      );
      const refreshed = await simpleAuth(
        serverTokenRefreshEndpoint,
        { refresh_token: earlier.body.refresh_token },
        { Authorization: `JWT ${earlier.body.refresh_token}` },
      );
      t.equal(refreshed.status, 200, "and the earlier login's refresh token");

      const again = await simpleAuth(endpoint, {
        username: account.email,
        password: account.password,
        'remember-me': false,
        'include-in-response': false,
      });
      t.equal(again.status, 200, 'the upgraded hash logs in');
      t.equal(await storedHash(app, account.id), upgraded, 'and is not rewritten');
    }
  },
);

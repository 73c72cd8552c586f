/**
 * open-event-frontend app/controllers/register.js: registration (the user model saved as
 * app/serializers/user.js sends it), the verification mail, the login that follows, and the verify page
 * (app/routes/verify.js, app/controllers/verify.js) the mailed link opens.
 */
import t from 'tap';
import { linkIn, nthMailTo } from '../helpers/auth.js';
import { frontEnd, FRONTEND_ORIGIN, preflight } from '../helpers/front-end-client.js';
import {
  preflightPasses,
  readableByFrontEnd,
  simpleAuth,
  startForFrontEnd,
  tokenPayload,
} from '../helpers/front-end-auth.js';

const { apiHost, smtp } = await startForFrontEnd(t);
const JSONAPI_HEADERS = ['content-type'];

/** register.js:24 `this.model.save()`: serializers/user.js:14 keeps email, password, was-registered-with-order (false: models/user.js:29). */
const registration = (email: string, password: string) => ({
  data: { type: 'user', attributes: { email, password, 'was-registered-with-order': false } },
});

t.test('register, get the mail, log in, open the link: the account is verified', async (t) => {
  const email = 'grace@example.com';
  const password = 'compiler compiler';
  preflightPasses(
    t,
    await preflight(apiHost, '/v1/users', 'POST', JSONAPI_HEADERS),
    'POST',
    JSONAPI_HEADERS,
    'registration',
  );
  const created = await frontEnd(apiHost).adapter('POST', '/v1/users', { body: registration(email, password) });
  t.equal(created.status, 201);
  readableByFrontEnd(t, created, 'registration');
  // register.js:26: user.get('email').
  t.equal(created.body.data.attributes.email, email);
  t.equal(created.body.data.attributes['is-verified'], false);

  // register.js:27 promises "an email with a verification link": it links to the front end's /verify page
  // (app/router.js:303) with the token as query parameter (app/controllers/verify.js:6).
  const mail = await nthMailTo(smtp, email);
  const { url, token } = linkIn(mail, '/verify');
  t.equal(`${url.origin}${url.pathname}`, `${FRONTEND_ORIGIN}/verify`);

  // register.js:45-53 loginExistingUser: authenticator:jwt with {username, password}; refreshAccessTokens is on
  // (config/environment.js:93), so the answer must hold a refresh token too.
  const login = await simpleAuth(`${apiHost}/auth/session`, { username: email, password });
  t.equal(login.status, 200);
  t.type(login.body.refresh_token, 'string');
  const { identity } = tokenPayload(login.body.access_token);
  // register.js:58-60: findRecord('user', identity); app/components/unverified-user-message.js:12 reads isVerified.
  const before = await frontEnd(apiHost, login.body.access_token).adapter('GET', `/v1/users/${identity}`);
  t.equal(before.body.data.attributes['is-verified'], false, 'the front end shows the unverified banner');

  // app/routes/verify.js:12 -> app/controllers/verify.js:14-20: loader.post('auth/verify-email', {data: {token}}),
  // from a logged-in browser (the loader sends the adapter's Authorization).
  preflightPasses(
    t,
    await preflight(apiHost, '/v1/auth/verify-email', 'POST', ['authorization', 'content-type']),
    'POST',
    ['authorization', 'content-type'],
    'verify',
  );
  const verified = await frontEnd(apiHost, login.body.access_token).loader('POST', '/v1/auth/verify-email', {
    data: { token },
  });
  t.equal(verified.status, 200, 'verify.js:21-22: success');
  readableByFrontEnd(t, verified, 'verify');
  const after = await frontEnd(apiHost, login.body.access_token).adapter('GET', `/v1/users/${identity}`);
  t.equal(after.body.data.attributes['is-verified'], true);

  // Opening the link again (verify.js:24-26 shows the error).
  const again = await frontEnd(apiHost).loader('POST', '/v1/auth/verify-email', { data: { token } });
  t.equal(again.status, 400);
  readableByFrontEnd(t, again, 'a used link');
});

t.test('the link opened in a browser that is not logged in works as well', async (t) => {
  const email = 'ada@example.com';
  t.equal(
    (await frontEnd(apiHost).adapter('POST', '/v1/users', { body: registration(email, 'analytical engine') })).status,
    201,
  );
  const { token } = linkIn(await nthMailTo(smtp, email), '/verify');
  t.equal((await frontEnd(apiHost).loader('POST', '/v1/auth/verify-email', { data: { token } })).status, 200);
});

t.test('registering an address twice is 409', async (t) => {
  const email = 'twice@example.com';
  t.equal(
    (await frontEnd(apiHost).adapter('POST', '/v1/users', { body: registration(email, 'long enough') })).status,
    201,
  );
  const second = await frontEnd(apiHost).adapter('POST', '/v1/users', {
    body: registration(email.toUpperCase(), 'long enough'),
  });
  // register.js:31 tells "User already exists." by errors[0].status; it compares with the number 409, and
  // JSON:API statuses are strings ("409"), so the front end shows its generic message.
  t.equal(second.status, 409);
  t.equal(second.body.errors[0].status, '409');
});

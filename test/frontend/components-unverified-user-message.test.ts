/**
 * open-event-frontend app/components/unverified-user-message.js: the banner of an unverified user sends a
 * new verification mail; administrators send one from the user list (app/controllers/admin/users/list.js:213-221).
 */
import t from 'tap';
import { linkIn, nthMailTo } from '../helpers/auth.js';
import { seedUser } from '../helpers/users.js';
import { frontEnd, preflight } from '../helpers/front-end-client.js';
import { preflightPasses, readableByFrontEnd, simpleAuth, startForFrontEnd } from '../helpers/front-end-auth.js';

const { apiHost, app, smtp } = await startForFrontEnd(t);

t.test('the banner sends the mail to the current user; its link verifies the address', async (t) => {
  const user = await seedUser(app);
  const { access_token } = (
    await simpleAuth(`${apiHost}/auth/session`, { username: user.email, password: user.password })
  ).body;
  // :10-12: shown while the current user is not verified.
  t.equal(
    (await frontEnd(apiHost, access_token).adapter('GET', `/v1/users/${user.id}`)).body.data.attributes['is-verified'],
    false,
  );
  const wanted = ['authorization', 'content-type'];
  preflightPasses(
    t,
    await preflight(apiHost, '/v1/auth/resend-verification-email', 'POST', wanted),
    'POST',
    wanted,
    'resend',
  );
  // :17-23: loader.post('/auth/resend-verification-email', {data: {email: currentUser.email}}).
  const sent = await frontEnd(apiHost, access_token).loader('POST', '/v1/auth/resend-verification-email', {
    data: { email: user.email },
  });
  t.equal(sent.status, 200, ':24-28: "Verification mail sent successfully"');
  readableByFrontEnd(t, sent, 'resend');
  const { token } = linkIn(await nthMailTo(smtp, user.email), '/verify');
  t.equal(
    (await frontEnd(apiHost, access_token).loader('POST', '/v1/auth/verify-email', { data: { token } })).status,
    200,
  );
  t.equal(
    (await frontEnd(apiHost, access_token).adapter('GET', `/v1/users/${user.id}`)).body.data.attributes['is-verified'],
    true,
    'the banner goes away',
  );
});

t.test('an administrator sends the mail to a user from the user list', async (t) => {
  const admin = await seedUser(app, { admin: true });
  const user = await seedUser(app);
  const sent = await frontEnd(apiHost, admin.token).loader('POST', '/v1/auth/resend-verification-email', {
    data: { email: user.email },
  });
  t.equal(sent.status, 200);
  linkIn(await nthMailTo(smtp, user.email), '/verify');
});

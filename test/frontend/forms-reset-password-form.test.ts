/**
 * open-event-frontend app/components/forms/reset-password-form.js: asking for a reset link (also from the
 * administrators' user list, app/controllers/admin/users/list.js:234-241), the mail, and the new password
 * set on the page the link opens (app/routes/reset-password.js, app/controllers/reset-password.js).
 */
import t from 'tap';
import { linkIn, mailsTo, nthMailTo } from '../helpers/auth.js';
import { seedUser } from '../helpers/users.js';
import { frontEnd, FRONTEND_ORIGIN, preflight } from '../helpers/front-end-client.js';
import { preflightPasses, readableByFrontEnd, simpleAuth, startForFrontEnd } from '../helpers/front-end-auth.js';

const { apiHost, app, smtp } = await startForFrontEnd(t);

t.test('ask for a link, open it, set a new password, log in with it; the link works once', async (t) => {
  const user = await seedUser(app);
  // reset-password-form.js:103-109: loader.post('auth/reset-password', {data: {email}}).
  const asked = await frontEnd(apiHost).loader('POST', '/v1/auth/reset-password', { data: { email: user.email } });
  t.equal(asked.status, 200, 'reset-password-form.js:110-114: "Please go to the link sent to your email"');
  readableByFrontEnd(t, asked, 'the request');

  // The link opens the reset-password route (app/router.js:37) with ?token (controllers/reset-password.js:6).
  const { url, token } = linkIn(await nthMailTo(smtp, user.email), '/reset-password');
  t.equal(`${url.origin}${url.pathname}`, `${FRONTEND_ORIGIN}/reset-password`);

  // reset-password-form.js:76-84: loader.patch('auth/reset-password', {data: {token, password}}); a browser preflights every PATCH.
  const wanted = ['content-type'];
  preflightPasses(
    t,
    await preflight(apiHost, '/v1/auth/reset-password', 'PATCH', wanted),
    'PATCH',
    wanted,
    'the reset',
  );
  const reset = await frontEnd(apiHost).loader('PATCH', '/v1/auth/reset-password', {
    data: { token, password: 'a brand new password' },
  });
  t.equal(reset.status, 200, 'reset-password-form.js:85-89: "Your password has been reset successfully"');
  readableByFrontEnd(t, reset, 'the reset');

  const login = await simpleAuth(`${apiHost}/auth/session`, {
    username: user.email,
    password: 'a brand new password',
    'remember-me': false,
    'include-in-response': false,
  });
  t.equal(login.status, 200, 'the new password logs in');

  const again = await frontEnd(apiHost).loader('PATCH', '/v1/auth/reset-password', {
    data: { token, password: 'yet another password' },
  });
  t.equal(again.status, 400, 'reset-password-form.js:91-95: "Password reset link is either invalid or used already"');
  readableByFrontEnd(t, again, 'a used link');
});

t.test('an address without an account gets the same answer, and no mail', async (t) => {
  const asked = await frontEnd(apiHost).loader('POST', '/v1/auth/reset-password', {
    data: { email: 'nobody@example.com' },
  });
  // reset-password-form.js:117-119 would say "No account is registered with this email address" on a 404: never sent.
  t.equal(asked.status, 200);
  const user = await seedUser(app);
  const known = await frontEnd(apiHost).loader('POST', '/v1/auth/reset-password', { data: { email: user.email } });
  t.strictSame(asked.body, known.body, 'the same answer');
  await nthMailTo(smtp, user.email);
  t.equal(mailsTo(smtp, 'nobody@example.com').length, 0);
});

t.test('an administrator sends a user the link from the user list', async (t) => {
  const admin = await seedUser(app, { admin: true });
  const user = await seedUser(app);
  const pre = await preflight(apiHost, '/v1/auth/reset-password', 'POST', ['authorization', 'content-type']);
  preflightPasses(t, pre, 'POST', ['authorization', 'content-type'], 'reset from the admin list');
  // app/controllers/admin/users/list.js:234-241, logged in as an administrator.
  const sent = await frontEnd(apiHost, admin.token).loader('POST', '/v1/auth/reset-password', {
    data: { email: user.email },
  });
  t.equal(sent.status, 200);
  linkIn(await nthMailTo(smtp, user.email), '/reset-password');
});

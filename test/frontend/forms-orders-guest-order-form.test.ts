/**
 * open-event-frontend app/components/forms/orders/guest-order-form.js: the guest checkout asks whether
 * the address has an account to choose between logging in and registering (app/routes/role-invites.js:47
 * asks the same for an invitation).
 */
import t from 'tap';
import { seedUser } from '../helpers/users.js';
import { frontEnd, preflight } from '../helpers/front-end-client.js';
import { preflightPasses, readableByFrontEnd, startForFrontEnd } from '../helpers/front-end-auth.js';

const { apiHost, app } = await startForFrontEnd(t);

t.test('check_email tells a registered address from a new one', async (t) => {
  const user = await seedUser(app);
  preflightPasses(
    t,
    await preflight(apiHost, '/v1/users/check_email', 'POST', ['content-type']),
    'POST',
    ['content-type'],
    'check_email',
  );
  // :67: loader.post('users/check_email', {email}) -> result.exists (:68-71).
  const known = await frontEnd(apiHost).loader('POST', '/v1/users/check_email', { email: user.email });
  t.equal(known.status, 200);
  readableByFrontEnd(t, known, 'check_email');
  t.equal(known.body.exists, true, 'userExists: the form asks for the password to log in');
  const fresh = await frontEnd(apiHost).loader('POST', '/v1/users/check_email', { email: 'new.guest@example.com' });
  t.equal(fresh.body.exists, false, 'showPasswordForm: the form registers the guest');
});

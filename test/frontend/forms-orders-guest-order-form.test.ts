/**
 * open-event-frontend app/components/forms/orders/guest-order-form.js: the guest checkout asks whether
 * the address has an account to choose between logging in and registering (app/routes/role-invites.js:47
 * asks the same for an invitation).
 */
import t from 'tap';
import { seedUser } from '../helpers/users.js';
import { loader, preflight, preflightPasses, readableByFrontend, startForFrontend } from '../helpers/frontend.js';

const { apiHost, app } = await startForFrontend(t);

t.test('check_email tells a registered address from a new one', async (t) => {
  const user = await seedUser(app);
  preflightPasses(t, await preflight(`${apiHost}/v1/users/check_email`, 'POST', ['content-type']), 'POST', ['content-type'], 'check_email');
  // :67: loader.post('users/check_email', {email}) -> result.exists (:68-71).
  const known = await loader(apiHost, 'POST', 'users/check_email', { email: user.email });
  t.equal(known.status, 200);
  readableByFrontend(t, known, 'check_email');
  t.equal(known.json.exists, true, 'userExists: the form asks for the password to log in');
  const fresh = await loader(apiHost, 'POST', '/users/check_email', { email: 'new.guest@example.com' });
  t.equal(fresh.json.exists, false, 'showPasswordForm: the form registers the guest');
});

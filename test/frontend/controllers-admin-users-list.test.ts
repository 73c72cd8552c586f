/**
 * open-event-frontend app/controllers/admin/users/list.js:126-131 `toggleSpam` (the user record with
 * isBlocked toggled, saved whole) and app/components/modals/edit-user-modal.js:17-22 (isSalesAdmin,
 * isMarketer toggled, saved whole), by an administrator. A blocked account's tokens end and its
 * logins are refused with an `error` the login form shows (app/components/forms/login-form.js:87-89);
 * unblocked, it logs in again.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { simpleAuth } from '../helpers/front-end-auth.js';
import { userSave } from '../helpers/front-end-user.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const apiHost = await listening(app);
const admin = frontEnd(apiHost, (await seedUser(app, { admin: true })).token);
const spammer = await seedUser(app);

/** login-form.js:66: the credentials the login form posts. */
const login = (username: string, password: string) =>
  simpleAuth(`${apiHost}/auth/session`, { username, password, 'remember-me': true, 'include-in-response': true });
/** The admin's `user.save()` after toggling (the list loaded the record first). */
const adminSaves = async (id: string, changes: Record<string, unknown>) => {
  const read = (await admin.adapter('GET', `/v1/users/${id}`)).body.data.attributes;
  return admin.adapter('PATCH', `/v1/users/${id}`, { body: userSave(id, read, changes) });
};

t.test('mark as spam: the account is blocked, its tokens end, its logins are refused', async (t) => {
  const session = await login(spammer.email, spammer.password);
  t.equal(session.status, 200, 'logs in before');
  const own = frontEnd(apiHost, session.body.access_token);
  t.equal(
    (await own.adapter('GET', `/v1/users/${spammer.id}`)).body.data.attributes['last-accessed-at'] !== null,
    true,
    'the login is the last access',
  );

  const res = await adminSaves(spammer.id, { 'is-blocked': true });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  t.equal(res.body.data.attributes['is-blocked'], true);

  t.equal((await own.adapter('GET', `/v1/users/${spammer.id}`)).status, 401, 'the access token of the login ended');
  const refresh = await simpleAuth(`${apiHost}/v1/auth/token/refresh`, { refresh_token: session.body.refresh_token });
  t.equal(refresh.status, 401, 'its refresh token too');
  t.equal(
    (await frontEnd(apiHost, spammer.token).adapter('GET', `/v1/users/${spammer.id}`)).status,
    401,
    'tokens of no login end too',
  );

  const again = await login(spammer.email, spammer.password);
  t.equal(again.status, 403);
  t.equal(again.body.error, 'This account has been blocked by an administrator', 'the login form shows why');
  t.notOk(again.body.access_token);
  const wrong = await login(spammer.email, 'not the password');
  t.equal(wrong.status, 401, 'a wrong password learns nothing about the block');
  t.notMatch(JSON.stringify(wrong.body), /blocked/);
  const [{ count }] =
    await app.sql`select count(*)::int as count from logins where user_id = ${Number(spammer.id)} and ended_at is null`;
  t.equal(count, 0, 'no live login');
});

t.test('the assistant login refuses a blocked account as well', async (t) => {
  const res = await fetch(
    `${apiHost}/aaa/login.json?login=${encodeURIComponent(spammer.email)}&password=${encodeURIComponent(spammer.password)}`,
  );
  t.equal(res.status, 403);
  t.match(await res.json(), { accepted: false, message: 'This account has been blocked by an administrator' });
});

t.test('mark as not spam: the account logs in again', async (t) => {
  const res = await adminSaves(spammer.id, { 'is-blocked': false });
  t.equal(res.status, 200);
  t.equal((await login(spammer.email, spammer.password)).status, 200);
});

t.test('edit-user-modal: an admin toggles sales admin and marketer', async (t) => {
  const res = await adminSaves(spammer.id, { 'is-sales-admin': true, 'is-marketer': true });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  t.match(res.body.data.attributes, { 'is-sales-admin': true, 'is-marketer': true });
  const [row] = await app.sql`select is_sales_admin, is_marketer from users where id = ${Number(spammer.id)}`;
  t.strictSame({ ...row }, { is_sales_admin: true, is_marketer: true });
  // The user's own profile save sends the flags back unchanged: accepted.
  const own = frontEnd(apiHost, (await login(spammer.email, spammer.password)).body.access_token);
  const read = (await own.adapter('GET', `/v1/users/${spammer.id}`)).body.data.attributes;
  const saved = await own.adapter('PATCH', `/v1/users/${spammer.id}`, {
    body: userSave(spammer.id, read, { company: 'Acme' }),
  });
  t.equal(saved.status, 200, 'the flags sent back unchanged by their user');
  const dropped = await own.adapter('PATCH', `/v1/users/${spammer.id}`, {
    body: userSave(spammer.id, read, { 'is-marketer': false }),
  });
  t.equal(dropped.status, 403, 'but not changed by them');
});

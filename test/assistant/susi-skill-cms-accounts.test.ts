/**
 * susi_skill_cms's account calls, built as src/api/index.js builds them through src/helper/ajax.js: GET,
 * the cookie token first (a stale one too), `key=value` joined without URL-encoding. The app start
 * (src/index.js: getApiKeys), the login dialog (src/components/Auth/Login/Login.js: login, then
 * showAdminService with the new token, then listUserSettings), signup, password recovery, the e-mail
 * check, and the admin pages (AdminTab.js and ListUser.js: getUsers, changeRoles, modifyUserDevices,
 * deleteUserAccount without `.json`).
 */
import argon2 from 'argon2';
import { eq } from 'drizzle-orm';
import t from 'tap';
import { users } from '../../db/schema/index.js';
import { buildTestApp } from '../helpers/app.js';
import { mailsTo, nthMailTo, setFrontendUrl, tokenWorks } from '../helpers/auth.js';
import { startSmtp } from '../helpers/smtp.js';
import { CURRENT_PARAMETERS, hashParameters, seedUser, storedHash, storeLegacyHash } from '../helpers/users.js';
import { cmsGet, getUrl } from '../helpers/susi-clients.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url });
await setFrontendUrl(app);
const admin = await seedUser(app, { admin: true });
/** The token a logged-out browser still has in its `loggedIn` cookie. */
const STALE = 'eyJhbGciOiJIUzI1NiJ9.eyJpZGVudGl0eSI6MX0.stale';

t.test(
  'susi_skill_cms src/index.js + src/api/index.js fetchApiKeys: at every start, with and without the cookie token',
  async (t) => {
    for (const cookie of [undefined, STALE, admin.token]) {
      const res = await getUrl(app, cmsGet('/aaa/getApiKeys.json', undefined, cookie));
      t.equal(res.status, 200);
      t.same(res.body.keys, {}, 'no secrets: no keys are configured');
      t.equal(res.body.accepted, true);
      t.equal(res.body.message, 'Success : Fetched all API key successfully !');
    }
  },
);

t.test(
  'susi_skill_cms src/components/Auth/Login/Login.js: login with the stale cookie token attached, then showAdminService and listUserSettings',
  async (t) => {
    const u = await seedUser(app);
    // getLogin({email, password: encodeURIComponent(password)}): ajax.get(url, {login, password, type: 'access-token'}).
    const login = await getUrl(
      app,
      cmsGet(
        '/aaa/login.json',
        { login: u.email, password: encodeURIComponent(u.password), type: 'access-token' },
        STALE,
      ),
    );
    t.equal(login.status, 200, 'the stale cookie token does not stop the login');
    t.match(login.body, {
      accepted: true,
      message: `You are logged in as ${u.email}`,
      access_token: String,
      uuid: /^[0-9a-f]{32}$/,
    });
    t.ok(login.body.valid_seconds > 0, 'valid_seconds: the cookie max-age');
    // getAdmin({access_token: payload.accessToken}): the payload's token wins over the cookie's, first in the query.
    const token = login.body.access_token as string;
    const show = await getUrl(app, cmsGet('/aaa/showAdminService.json', { access_token: token }, STALE));
    t.equal(show.status, 200);
    t.same(
      { accepted: show.body.accepted, showAdmin: show.body.showAdmin },
      { accepted: true, showAdmin: false },
      'a user sees no admin link',
    );
    t.equal(show.body.session.identity.name, u.email);
    const settings = await getUrl(app, cmsGet('/aaa/listUserSettings.json', {}, token));
    t.match(settings.body, { accepted: true, settings: {}, message: 'Success: Showing user settings' });

    const adminShow = await getUrl(app, cmsGet('/aaa/showAdminService.json', { access_token: admin.token }));
    t.equal(adminShow.body.showAdmin, true, 'an admin sees it');
    await app.db
      .update(users)
      .set({ assistantRole: 'operator' })
      .where(eq(users.id, Number(u.id)));
    t.equal(
      (await getUrl(app, cmsGet('/aaa/showAdminService.json', { access_token: token }))).body.showAdmin,
      true,
      'an operator sees it',
    );
    t.equal(
      (await getUrl(app, cmsGet('/aaa/showAdminService.json', {}, STALE))).body.showAdmin,
      false,
      'a stale token is anonymous',
    );
  },
);

t.test(
  "susi_skill_cms src/components/Auth/Login/Login.js: a password hashed with the library's default is rehashed by the login, not by a wrong one",
  async (t) => {
    const u = await seedUser(app);
    const loginWith = (password: string) =>
      getUrl(
        app,
        cmsGet(
          '/aaa/login.json',
          { login: u.email, password: encodeURIComponent(password), type: 'access-token' },
          STALE,
        ),
      );
    const earlier = await loginWith(u.password);
    t.equal(earlier.body.accepted, true, 'a login from before the upgrade');
    const legacy = await storeLegacyHash(app, u);

    const wrong = await loginWith('not my password');
    t.equal(wrong.status, 422);
    t.equal(wrong.body.accepted, false);
    t.equal(await storedHash(app, u.id), legacy, 'a wrong password leaves the hash');

    const login = await loginWith(u.password);
    t.equal(login.body.accepted, true);
    const upgraded = await storedHash(app, u.id);
    t.same(hashParameters(upgraded), CURRENT_PARAMETERS, "the hash has OWASP's parameters now");
    t.ok(await argon2.verify(upgraded, u.password), 'and is the same password');
    // The assistant's tokens end when the token generation moves on; the upgrade leaves it.
    for (const [what, token] of [
      ['the new token', login.body.access_token],
      ['the earlier token', earlier.body.access_token],
    ] as const) {
      const settings = await getUrl(app, cmsGet('/aaa/listUserSettings.json', {}, token as string));
      t.equal(settings.body.accepted, true, `${what} works`);
    }
    t.equal((await loginWith(u.password)).body.accepted, true, 'the upgraded hash logs in');
    t.equal(await storedHash(app, u.id), upgraded, 'and is not rewritten');
  },
);

t.test(
  "susi_skill_cms src/api/index.js getSignup, getEmailExists, getForgotPassword: over the service's accounts and mails",
  async (t) => {
    const email = `cms-signup-${process.pid}@example.com`;
    const password = 'Signup-passw0rd!';
    const exists = (address: string) => getUrl(app, cmsGet('/aaa/checkRegistration.json', { check_email: address }));
    t.match((await exists(email)).body, { accepted: true, exists: false, check_email: email });
    const signup = await getUrl(app, cmsGet('/aaa/signup.json', { signup: email, password }, STALE));
    t.equal(signup.status, 200);
    t.match(signup.body, { accepted: true, message: /signed-up/ });
    const mail = await nthMailTo(smtp, email, 1);
    t.match(mail.parsed.subject, /^Confirm your email address/, 'the verification mail of POST /v1/users');
    const [row] = await app.db
      .select({ isVerified: users.isVerified, isAdmin: users.isAdmin, isSuperAdmin: users.isSuperAdmin })
      .from(users)
      .where(eq(users.email, email));
    t.same(row, { isVerified: false, isAdmin: false, isSuperAdmin: false }, 'an unverified user, never a superadmin');
    t.match((await exists(email)).body, { exists: true });
    const login = await getUrl(
      app,
      cmsGet('/aaa/login.json', { login: email, password: encodeURIComponent(password), type: 'access-token' }),
    );
    t.equal(login.body.accepted, true, 'the new account logs in');

    const taken = await getUrl(app, cmsGet('/aaa/signup.json', { signup: email.toUpperCase(), password }));
    t.equal(taken.status, 422);
    t.same(taken.body, { accepted: false, message: 'email is already taken' });

    const known = await getUrl(app, cmsGet('/aaa/recoverpassword.json', { forgotemail: email }));
    const unknown = await getUrl(
      app,
      cmsGet('/aaa/recoverpassword.json', { forgotemail: `nobody-${process.pid}@example.com` }),
    );
    for (const res of [known, unknown]) {
      t.equal(
        res.status,
        200,
        'the same answer whether an account has the address or not (POST /v1/auth/reset-password)',
      );
      t.same(
        { accepted: res.body.accepted, message: res.body.message },
        {
          accepted: true,
          message: "If your email was registered with us, you'll get an email with reset link shortly",
        },
      );
    }
    const reset = await nthMailTo(smtp, email, 2);
    t.match(reset.parsed.subject, /^Reset your password/, 'the reset mail of the service');
    t.equal(mailsTo(smtp, `nobody-${process.pid}@example.com`).length, 0, 'no mail to an address without an account');
  },
);

t.test(
  'susi_skill_cms src/components/Admin (AdminTab.js, ListUser.js): getUsers, changeRoles, modifyUserDevices, deleteUserAccount',
  async (t) => {
    const target = await seedUser(app);
    // AdminTab: fetchAdminUserStats({getUserStats: 'true'}).
    const stats = await getUrl(app, cmsGet('/aaa/getUsers.json', { getUserStats: 'true' }, admin.token));
    t.equal(stats.status, 200);
    t.match(stats.body.userStats, {
      anonymous: 0,
      users: Number,
      reviewers: Number,
      operators: Number,
      admins: Number,
      superAdmins: Number,
      activeUsers: Number,
      inactiveUsers: Number,
      totalUsers: Number,
    });
    t.ok(stats.body.userStats.totalUsers >= 2);
    t.match(stats.body.signupOverTime, [{ timeStamp: /^\d{4}-\d\d$/, count: Number }]);
    t.type(stats.body.lastLoginOverTime, Array);
    const devices = await getUrl(app, cmsGet('/aaa/getUsers.json', { getDeviceStats: 'true' }, admin.token));
    t.match(devices.body.deviceStats, { connectedDevices: Number, deviceUsers: Number, deviceAddedOverTime: Array });
    // ListUser componentDidMount: fetchAdminUserStats() with the token alone, reads userCount.
    const count = await getUrl(app, cmsGet('/aaa/getUsers.json', {}, admin.token));
    t.equal(count.status, 200, 'the reference answered 400 here, so the list never loaded');
    t.ok(count.body.userCount >= 2);
    const pages = await getUrl(app, cmsGet('/aaa/getUsers.json', { getPageCount: 'true' }, admin.token));
    t.equal(pages.body.pageCount, 1);
    const page = await getUrl(app, cmsGet('/aaa/getUsers.json', { page: '1' }, admin.token));
    t.ok(
      page.body.users.some((u: { name: string }) => u.name === target.email),
      'fetch({page})',
    );
    t.equal(
      (await getUrl(app, cmsGet('/aaa/getUsers.json', { page: '2' }, admin.token))).body.users.length,
      0,
      'past the last page: none',
    );

    const role = await getUrl(
      app,
      cmsGet('/aaa/changeRoles.json', { user: target.email, role: 'reviewer' }, admin.token),
    );
    t.match(role.body, { accepted: true, newDetails: { userRole: 'reviewer' } });

    // The user adds a device (susi.ai / susi_android addNewDevice), the admin moves it: modifyUserDevices({email, macid, room}) sends name=undefined.
    const macid = 'AA-BB-CC-DD-EE-01';
    const added = await getUrl(
      app,
      `/aaa/addNewDevice.json?access_token=${target.token}&macid=${macid}&name=Speaker&room=Hall&latitude=52.5&longitude=13.4`,
    );
    t.match(added.body, { accepted: true, message: 'You have successfully added the device!' });
    const moved = await getUrl(
      app,
      cmsGet(
        '/aaa/modifyUserDevices.json',
        { email: target.email, macid, name: undefined, room: 'Kitchen' },
        admin.token,
      ),
    );
    t.equal(moved.status, 200);
    const listed = await getUrl(app, `/aaa/listUserDevices.json?access_token=${target.token}`);
    t.match(
      listed.body.devices[macid],
      { name: 'undefined', room: 'Kitchen', geolocation: { latitude: '52.5', longitude: '13.4' } },
      'stored as sent, as the reference does',
    );
    const deviceStats = await getUrl(app, cmsGet('/aaa/getUsers.json', { getDeviceStats: 'true' }, admin.token));
    t.ok(
      deviceStats.body.deviceStats.connectedDevices >= 1 && deviceStats.body.deviceStats.deviceUsers >= 1,
      'the device is counted',
    );

    // deleteUser: deleteUserAccount({email}) at /aaa/deleteUserAccount (no `.json`).
    const del = await getUrl(app, cmsGet('/aaa/deleteUserAccount', { email: target.email }, admin.token));
    t.equal(del.status, 200);
    t.match(del.body, { accepted: true, message: 'Successfully deleted user account!' });
    t.equal(await tokenWorks(app, target.token), 401, 'the account is gone');
    const user = await seedUser(app);
    const refused = await getUrl(app, cmsGet('/aaa/deleteUserAccount', { email: admin.email }, user.token));
    t.equal(refused.status, 401, 'a user deletes nobody');
  },
);

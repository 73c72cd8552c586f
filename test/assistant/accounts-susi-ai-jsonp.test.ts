/**
 * accounts.susi.ai (jQuery JSONP): every call is a GET whose URL the component writes by hand, with
 * `callback=<name>&_=<timestamp>` added by `$.ajax({dataType: 'jsonp'})`; the page reads the object the
 * script passes to the callback. Login, the admin's role change, device edit and account deletion, and a
 * user deleting their own account (check_password, then delete=true).
 */
import { eq } from 'drizzle-orm';
import t, { type Test } from 'tap';
import { users } from '../../db/schema/index.js';
import { buildTestApp } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';
import { tokenWorks } from '../helpers/auth.js';
import { getUrl, jsonp } from '../helpers/susi-clients.js';

const { app } = await buildTestApp(t);
const su = await seedUser(app, { superAdmin: true });
const admin = await seedUser(app, { admin: true });

/** The page's JSONP answer: a script calling `callback` with the object, as JavaScript. */
function isScript(t: Test, res: Awaited<ReturnType<typeof getUrl>>, callback: string, status = 200) {
  t.equal(res.status, status, `status ${status}`);
  t.match(res.headers['content-type'], /^application\/javascript/, 'a script');
  t.equal(res.callback, callback, `calls ${callback}`);
}

/** Login.react.js: `/aaa/login.json?type=access-token&login=<email>&password=<encodeURIComponent(password)>`. */
const loginUrl = (email: string, password: string) =>
  `/aaa/login.json?type=access-token&login=${email}&password=${encodeURIComponent(password)}&${jsonp('p')}`;

t.test('accounts.susi.ai src/components/Auth/Login/Login.react.js: login over JSONP (callback p)', async (t) => {
  const u = await seedUser(app);
  const res = await getUrl(app, loginUrl(u.email, u.password));
  isScript(t, res, 'p');
  t.equal(res.body.accepted, true, 'response.accepted');
  t.type(res.body.access_token, 'string', 'response.access_token');
  t.match(res.body.uuid, /^[0-9a-f]{32}$/, 'response.uuid: the MD5 of the e-mail, as the reference');
  t.ok(
    Number.isInteger(res.body.valid_seconds) && res.body.valid_seconds > 0,
    'response.valid_seconds: the cookie lifetime',
  );
  t.equal(res.body.message, `You are logged in as ${u.email}`);
  t.equal(await tokenWorks(app, res.body.access_token), 200, 'the token works');

  const wrong = await getUrl(app, loginUrl(u.email, 'not the password'));
  isScript(t, wrong, 'p', 422);
  t.same(
    wrong.body,
    { accepted: false, message: 'Invalid credentials' },
    'a failure is a script too (the page only sees a failed load)',
  );
});

t.test(
  'accounts.susi.ai src/components/Admin/ListUser/ListUser.js: changeRoles, getUsers, modifyUserDevices and deleteUserAccount over JSONP',
  async (t) => {
    const target = await seedUser(app);
    const cb = 'jQuery34100123456789_1580000000000';
    // apiCall: `/aaa/changeRoles.json?user=<email>&role=<role>&access_token=<cookie>`; the role list includes `bot`.
    const change = (token: string, role: string) =>
      getUrl(app, `/aaa/changeRoles.json?user=${target.email}&role=${role}&access_token=${token}&${jsonp(cb)}`);
    const res = await change(admin.token, 'operator');
    isScript(t, res, cb);
    t.match(res.body, {
      accepted: true,
      message: 'User role changed successfully!!',
      newDetails: { userRole: 'operator' },
    });
    const bot = await change(admin.token, 'bot');
    isScript(t, bot, cb, 404);
    t.same(bot.body, { accepted: false, message: 'role not found' }, 'the reference knows no bot role');
    const grant = await change(admin.token, 'admin');
    isScript(t, grant, cb, 403);
    t.match(
      grant.body.message,
      /Only a superadmin/,
      'an admin does not grant admin (a hole of the reference kept closed)',
    );
    t.equal((await change(su.token, 'admin')).body.accepted, true, 'a superadmin does');
    const [row] = await app.db
      .select({ isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.id, Number(target.id)));
    t.equal(row!.isAdmin, true, 'the event service sees the admin');
    t.equal((await change(su.token, 'user')).body.newDetails.userRole, 'user', 'and the superadmin demotes');

    // fetch: `getUsers.json?access_token=..&page=<page>` (callback named by jQuery); search: `&search=<value>` with callback pvsdu.
    const page = await getUrl(app, `/aaa/getUsers.json?access_token=${admin.token}&page=1&${jsonp(cb)}`);
    isScript(t, page, cb);
    const listed = page.body.users.find((u: { name: string }) => u.name === target.email);
    t.match(
      listed,
      {
        type: 'email',
        name: target.email,
        userRole: 'user',
        confirmed: false,
        lastLoginIP: '',
        devices: '',
        userName: '',
      },
      'the members the page reads',
    );
    t.match(listed.signupTime, /^\d{4}-\d\d-\d\dT/, 'signupTime');
    t.ok(page.body.username.includes(`email:${target.email}`), 'username: the keys of the page');
    const search = await getUrl(
      app,
      `/aaa/getUsers.json?access_token=${admin.token}&search=${target.email.slice(0, 9)}&${jsonp('pvsdu')}`,
    );
    isScript(t, search, 'pvsdu');
    t.same(
      search.body.users.map((u: { name: string }) => u.name),
      [target.email],
      'search by part of the e-mail',
    );
    const count = await getUrl(app, `/aaa/getUsers.json?access_token=${admin.token}&getUserCount=true&${jsonp(cb)}`);
    t.ok(count.body.userCount >= 3, 'getUserCount');

    // handleDevice: `modifyUserDevices.json?access_token=..&email=..&macid=..&name=..&room=..`
    const macid = '12:34:56:78:9a:bc';
    await app.db
      .update(users)
      .set({
        assistantDevices: {
          [macid]: {
            name: 'Speaker',
            room: 'Hall',
            geolocation: { latitude: '', longitude: '' } as never,
            deviceAddTime: '2020-01-02T00:00:00.000Z',
          },
        },
      })
      .where(eq(users.id, Number(target.id)));
    const device = await getUrl(
      app,
      `/aaa/modifyUserDevices.json?access_token=${admin.token}&email=${target.email}&macid=${macid}&name=Kitchen speaker&room=Kitchen&${jsonp(cb)}`.replaceAll(
        ' ',
        '%20',
      ),
    );
    isScript(t, device, cb);
    t.same(device.body.message, 'You have successfully modified the device config!');
    const after = await getUrl(
      app,
      `/aaa/getUsers.json?access_token=${admin.token}&search=${target.email}&${jsonp('pvsdu')}`,
    );
    t.match(
      after.body.users[0].devices[macid],
      { name: 'Kitchen speaker', room: 'Kitchen', geolocation: { latitude: '' } },
      'devices as the page reads them',
    );
    const missing = await getUrl(
      app,
      `/aaa/modifyUserDevices.json?access_token=${admin.token}&email=${target.email}&macid=aa:aa:aa:aa:aa:aa&name=x&room=y&${jsonp(cb)}`,
    );
    isScript(t, missing, cb, 404);
    t.same(missing.body, { accepted: false, message: 'Specified device does not exist.' });

    // deleteUser: `deleteUserAccount.json?email=<email>&access_token=<cookie>`.
    const del = await getUrl(
      app,
      `/aaa/deleteUserAccount.json?email=${target.email}&access_token=${admin.token}&${jsonp(cb)}`,
    );
    isScript(t, del, cb);
    t.match(del.body, { accepted: true, message: 'Successfully deleted user account!' });
    t.equal(await tokenWorks(app, target.token), 401, "the deleted account's token no longer works");
    const again = await getUrl(
      app,
      `/aaa/deleteUserAccount.json?email=${target.email}&access_token=${admin.token}&${jsonp(cb)}`,
    );
    isScript(t, again, cb, 404);
    const otherAdmin = await seedUser(app, { admin: true });
    const adminGone = await getUrl(
      app,
      `/aaa/deleteUserAccount.json?email=${otherAdmin.email}&access_token=${admin.token}&${jsonp(cb)}`,
    );
    isScript(t, adminGone, cb, 403);
    t.equal(await tokenWorks(app, otherAdmin.token), 200, 'an admin does not delete another admin');
  },
);

t.test(
  'accounts.susi.ai src/components/Auth/DeleteAccount/DeleteAccount.react.js: check_password, then delete=true',
  async (t) => {
    const u = await seedUser(app);
    // handleSubmit: `login.json?type=check_password&login=<cookie emailId>&password=<password>` (not encoded).
    const check = await getUrl(
      app,
      `/aaa/login.json?type=check_password&login=${u.email}&password=${u.password.replaceAll(' ', '%20')}&${jsonp('p')}`,
    );
    isScript(t, check, 'p');
    t.equal(check.body.accepted, true, 'response.accepted: the confirmation dialog opens');
    t.notOk('access_token' in check.body, 'check_password mints no token');
    const wrong = await getUrl(app, `/aaa/login.json?type=check_password&login=${u.email}&password=nope&${jsonp('p')}`);
    isScript(t, wrong, 'p', 422);

    // handleConfirm: `login.json?delete=true&access_token=<cookie loggedIn>`.
    const del = await getUrl(app, `/aaa/login.json?delete=true&access_token=${u.token}&${jsonp('p')}`);
    isScript(t, del, 'p');
    t.match(del.body, { accepted: true, message: 'Account deletion successful' });
    const [row] = await app.db
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, Number(u.id)));
    t.ok(row!.deletedAt, 'the account is deleted as DELETE /v1/users/{id} deletes it (kept with deleted-at)');
    t.equal(await tokenWorks(app, u.token), 401, 'its token ends');
    const login = await getUrl(app, loginUrl(u.email, u.password));
    isScript(t, login, 'p', 422);
    const twice = await getUrl(app, `/aaa/login.json?delete=true&access_token=${u.token}&${jsonp('p')}`);
    isScript(t, twice, 'p', 401);
    t.same(
      twice.body,
      { accepted: false, message: 'Unauthorized' },
      'no live account behind the token: nothing to delete',
    );
  },
);

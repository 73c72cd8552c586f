/**
 * The `/aaa` account endpoints beyond the client flows: login's `type`, `valid_seconds`, `checkLogin`,
 * `logout` and `delete` branches (susi_server LoginService.java), and bad input for every new endpoint
 * (the reference's status and message, never a 500).
 */
import { eq } from 'drizzle-orm';
import t, { type Test } from 'tap';
import { users } from '../../db/schema/index.js';
import { buildTestApp } from '../helpers/app.js';
import { loginPair, tokenWorks } from '../helpers/auth.js';
import { decodeToken, seedUser } from '../helpers/users.js';
import { answerOf, type AaaAnswer } from '../helpers/susi-clients.js';

const { app } = await buildTestApp(t);
const admin = await seedUser(app, { admin: true });
const operator = await seedUser(app);
await app.db
  .update(users)
  .set({ assistantRole: 'operator' })
  .where(eq(users.id, Number(operator.id)));

const get = async (path: string, params: Record<string, string>) =>
  answerOf(await app.inject({ method: 'GET', url: `${path}?${new URLSearchParams(params)}` }));

function refused(t: Test, res: AaaAnswer, status: number, message: string | RegExp) {
  t.equal(res.status, status, `status ${status}`);
  t.same(Object.keys(res.body).sort(), ['accepted', 'message']);
  t.match(res.body.message, message);
}

const weak = (min: string, role: string) =>
  `Base user role not sufficient. Your base user role is '${role}', minimum user role required is '${min}'`;

t.test('login.json: type and valid_seconds', async (t) => {
  const u = await seedUser(app);
  const login = (extra: Record<string, string>) =>
    get('/aaa/login.json', { login: u.email, password: u.password, ...extra });
  for (const value of ['0', '-2', 'abc', '1.5'])
    refused(t, await login({ valid_seconds: value }), 422, "Invalid value for 'valid_seconds'");
  refused(t, await login({ type: 'pubkey' }), 400, 'Invalid type');
  const short = await login({ valid_seconds: '60' });
  t.equal(short.body.valid_seconds, 60);
  const { claims } = decodeToken(short.body.access_token);
  t.equal(claims.exp! - claims.iat!, 60, 'the token lives 60 seconds');
  const long = await login({ valid_seconds: '999999999' });
  const max = long.body.valid_seconds as number;
  t.ok(max < 999999999, "capped at the service's token lifetime");
  const longClaims = decodeToken(long.body.access_token).claims;
  t.equal(longClaims.exp! - longClaims.iat!, max, 'and the token says so');
  t.equal((await login({ valid_seconds: '-1' })).body.valid_seconds, max, '-1: the longest lifetime, a number');
  for (const type of ['cookie', 'session', 'access-token']) {
    const res = await login({ type });
    t.equal(res.status, 200);
    t.type(res.body.access_token, 'string', `${type}: a token`);
  }
  const check = await login({ type: 'check_password' });
  t.same(Object.keys(check.body).sort(), ['accepted', 'message', 'session'], 'check_password: only accepted');
  refused(t, await login({ type: 'check_password', password: 'wrong' }), 422, 'Invalid credentials');
});

t.test('login.json: checkLogin', async (t) => {
  const u = await seedUser(app);
  t.match((await get('/aaa/login.json', { checkLogin: 'true', access_token: u.token })).body, {
    accepted: true,
    loggedIn: true,
  });
  for (const params of [{ checkLogin: 'true' }, { checkLogin: 'true', access_token: 'stale' }] as Record<
    string,
    string
  >[]) {
    const res = await get('/aaa/login.json', params);
    t.equal(res.status, 200);
    t.match(res.body, { accepted: false, loggedIn: false, message: 'Not logged in' });
  }
});

t.test('login.json: logout ends the assistant tokens of the account, or the login of a /v1 token', async (t) => {
  const u = await seedUser(app);
  const first = (await get('/aaa/login.json', { login: u.email, password: u.password })).body.access_token as string;
  const second = (await get('/aaa/login.json', { login: u.email, password: u.password })).body.access_token as string;
  const pair = await loginPair(app, u.email, u.password);
  refused(t, await get('/aaa/login.json', { logout: 'true' }), 401, 'Unauthorized');
  const out = await get('/aaa/login.json', { logout: 'true', access_token: first });
  t.match(out.body, { accepted: true, message: 'Logout successful' });
  t.equal(await tokenWorks(app, first), 401, 'the token no longer works');
  t.equal(
    await tokenWorks(app, second),
    401,
    "nor the other assistant tokens (they share the account's token generation)",
  );
  t.equal(await tokenWorks(app, pair.access_token), 200, 'the login of POST /v1/auth/login goes on');
  t.match(
    (await get('/aaa/login.json', { logout: 'true', access_token: first })).body,
    { accepted: true },
    'a token that ended already: logged out',
  );
  t.match((await get('/aaa/login.json', { logout: 'true', access_token: pair.access_token })).body, { accepted: true });
  t.equal(await tokenWorks(app, pair.access_token), 401, 'a /v1 token: its login ends');
  const fresh = (await get('/aaa/login.json', { login: u.email, password: u.password })).body.access_token as string;
  t.equal(await tokenWorks(app, fresh), 200, 'a new login works');
});

t.test('login.json: delete', async (t) => {
  const u = await seedUser(app);
  refused(t, await get('/aaa/login.json', { delete: 'true' }), 401, 'Unauthorized');
  refused(t, await get('/aaa/login.json', { delete: 'true', access_token: 'stale' }), 401, 'Unauthorized');
  refused(
    t,
    await get('/aaa/login.json', { delete: 'true', access_token: u.token, password: 'wrong' }),
    422,
    'Invalid credentials',
  );
  t.equal(await tokenWorks(app, u.token), 200, 'a wrong password deletes nothing');
  const del = await get('/aaa/login.json', { delete: 'true', access_token: u.token, password: u.password });
  t.match(del.body, { accepted: true, message: 'Account deletion successful' });
  t.equal(await tokenWorks(app, u.token), 401);
});

t.test('bad input of the new endpoints', async (t) => {
  const u = await seedUser(app);
  // getApiKeys
  refused(t, await get('/aaa/getApiKeys.json', { type: 'user' }), 422, 'Access token is not valid');
  t.same((await get('/aaa/getApiKeys.json', { type: 'user', access_token: u.token })).body.keys, {});
  refused(t, await get('/aaa/getApiKeys.json', { callback: 'alert(1)' }), 400, /callback/);
  // signup
  refused(t, await get('/aaa/signup.json', {}), 422, 'signup or password empty');
  refused(t, await get('/aaa/signup.json', { signup: 'x@example.com' }), 422, 'signup or password empty');
  refused(
    t,
    await get('/aaa/signup.json', { signup: 'not an address', password: 'long enough password' }),
    422,
    'No valid email address',
  );
  refused(
    t,
    await get('/aaa/signup.json', { signup: 'nul\u0000@example.com', password: 'long enough password' }),
    422,
    'No valid email address',
  );
  refused(t, await get('/aaa/signup.json', { signup: 'x@example.com', password: 'short' }), 422, /8 to 128/);
  refused(t, await get('/aaa/signup.json', { signup: 'x@example.com', password: 'x'.repeat(129) }), 422, /8 to 128/);
  refused(
    t,
    await get('/aaa/signup.json', { signup: 'same@example.com', password: 'same@example.com' }),
    422,
    /differ from the e-mail/,
  );
  refused(
    t,
    await get('/aaa/signup.json', { signup: u.email, password: 'long enough password' }),
    422,
    'email is already taken',
  );
  // recoverpassword
  refused(t, await get('/aaa/recoverpassword.json', {}), 422, 'email does not exist');
  refused(t, await get('/aaa/recoverpassword.json', { forgotemail: 'no address' }), 422, 'No valid email address');
  // checkRegistration
  refused(t, await get('/aaa/checkRegistration.json', {}), 400, 'Email not provided.');
  t.match((await get('/aaa/checkRegistration.json', { check_email: 'not an address\u0000' })).body, {
    accepted: true,
    exists: false,
  });
  // listUserSettings, changeUserSettings
  refused(t, await get('/aaa/listUserSettings.json', {}), 401, weak('user', 'ANONYMOUS'));
  refused(
    t,
    await get('/aaa/listUserSettings.json', { access_token: admin.token, email: 'ghost@example.com' }),
    404,
    'Username not found',
  );
  refused(
    t,
    await get('/aaa/changeUserSettings.json', { access_token: u.token }),
    400,
    'Bad Service call, key or value parameters not provided',
  );
  refused(t, await get('/aaa/changeUserSettings.json', { access_token: u.token, userName: 'abc' }), 400, /atleast 5/);
  refused(t, await get('/aaa/changeUserSettings.json', { access_token: u.token, count: '0' }), 400, /count/);
  refused(
    t,
    await get('/aaa/changeUserSettings.json', { access_token: u.token, count: '1', key1: 'password', value1: 'x' }),
    400,
    /key or value/,
  );
  refused(
    t,
    await get('/aaa/changeUserSettings.json', { access_token: u.token, theme: 'da\u0000rk' }),
    400,
    /bad value/,
  );
  t.match(
    (await get('/aaa/changeUserSettings.json', { access_token: admin.token, email: u.email, theme: 'light' })).body,
    { accepted: true },
  );
  t.same(
    (await get('/aaa/listUserSettings.json', { access_token: admin.token, email: u.email })).body.settings,
    { theme: 'light' },
    "an admin reads and writes another's settings",
  );
  t.same(
    (await get('/aaa/listUserSettings.json', { access_token: u.token, email: admin.email })).body.settings,
    { theme: 'light' },
    'a user names only their own',
  );
  // addNewDevice, listUserDevices
  refused(
    t,
    await get('/aaa/addNewDevice.json', { access_token: u.token, macid: '00:11:22:33:44:55' }),
    400,
    'Bad service call, missing arguments',
  );
  refused(
    t,
    await get('/aaa/addNewDevice.json', { access_token: u.token, macid: 'nope', name: 'a', room: 'b' }),
    400,
    'Invalid Mac Address.',
  );
  refused(t, await get('/aaa/listUserDevices.json', {}), 401, weak('user', 'ANONYMOUS'));
  // getUsers
  refused(t, await get('/aaa/getUsers.json', { access_token: u.token, page: '1' }), 401, weak('operator', 'USER'));
  for (const page of ['0', 'abc', '-1', '1e3'])
    refused(t, await get('/aaa/getUsers.json', { access_token: operator.token, page }), 400, /page/);
  refused(
    t,
    await get('/aaa/getUsers.json', { access_token: operator.token, search: 'a\u0000' }),
    400,
    'Bad search term',
  );
  t.equal(
    (await get('/aaa/getUsers.json', { access_token: operator.token, search: '%_' })).body.users.length,
    0,
    'search text is no pattern',
  );
  // deleteUserAccount (both paths), modifyUserDevices
  for (const path of ['/aaa/deleteUserAccount.json', '/aaa/deleteUserAccount']) {
    refused(t, await get(path, { access_token: admin.token }), 400, 'Bad service call, missing arguments');
    refused(t, await get(path, { access_token: admin.token, email: 'ghost@example.com' }), 404, 'Username not found');
    refused(t, await get(path, { access_token: admin.token, email: 'a\u0000b' }), 404, 'Username not found');
    refused(t, await get(path, { access_token: operator.token, email: u.email }), 401, weak('admin', 'OPERATOR'));
  }
  refused(
    t,
    await get('/aaa/modifyUserDevices.json', { access_token: admin.token, email: u.email, macid: 'x' }),
    400,
    'Bad service call, missing arguments',
  );
  refused(
    t,
    await get('/aaa/modifyUserDevices.json', {
      access_token: admin.token,
      email: 'ghost@example.com',
      macid: 'x',
      name: 'y',
    }),
    404,
    'Username not found',
  );
  refused(
    t,
    await get('/aaa/modifyUserDevices.json', { access_token: admin.token, email: u.email, macid: 'x', name: 'y' }),
    404,
    'Specified device does not exist.',
  );
  refused(
    t,
    await get('/aaa/modifyUserDevices.json', {
      access_token: admin.token,
      email: u.email,
      macid: 'x',
      name: 'y\u0000',
    }),
    400,
    /bad arguments/,
  );
  // changepassword
  refused(
    t,
    await get('/aaa/changepassword.json', { access_token: u.token, password: 'seeded user password' }),
    400,
    'Bad service call, missing arguments',
  );
  refused(
    t,
    await get('/aaa/changepassword.json', {
      access_token: u.token,
      changepassword: admin.email,
      password: 'x',
      newpassword: 'long enough password',
    }),
    403,
    /own password/,
  );
  refused(
    t,
    await get('/aaa/changepassword.json', {
      access_token: u.token,
      password: 'seeded user password',
      newpassword: 'short',
    }),
    422,
    'invalid password',
  );
  refused(
    t,
    await get('/aaa/changepassword.json', {
      access_token: u.token,
      password: 'seeded user password',
      newpassword: u.email,
    }),
    422,
    'invalid password',
  );
  refused(
    t,
    await get('/aaa/changepassword.json', { password: 'x', newpassword: 'long enough password' }),
    401,
    weak('user', 'ANONYMOUS'),
  );
  // changeRoles variants
  t.match((await get('/aaa/changeRoles.json', { access_token: admin.token, getServiceList: 'true' })).body, {
    accepted: true,
    serviceList: Array,
  });
  t.match((await get('/aaa/changeRoles.json', { access_token: admin.token, getUserRolePermission: 'true' })).body, {
    accepted: true,
    userRolePermissions: {},
  });
  refused(
    t,
    await get('/aaa/changeRoles.json', { access_token: admin.token, getServicePermissions: 'true' }),
    400,
    'Bad service name (no class)',
  );
  t.equal(await tokenWorks(app, u.token), 200, 'nothing deleted the user');
});

t.test('a JSON body that is an array or nests too deeply is a 400 (the fuzzer found a 500)', async (t) => {
  for (const payload of [
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    '[]',
    `{"signup":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`,
  ]) {
    const res = answerOf(
      await app.inject({
        method: 'POST',
        url: '/aaa/signup.json?callback=cb',
        headers: { 'content-type': 'application/json' },
        payload,
      }),
    );
    t.equal(res.status, 400, `${payload.slice(0, 12)}...: 400`);
    t.equal(res.body.accepted, false);
    t.equal(res.callback, 'cb', 'a JSONP script, as asked');
  }
});

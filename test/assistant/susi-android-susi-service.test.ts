/**
 * susi_android's account calls (app/src/main/java/org/fossasia/susi/ai/rest/services/SusiService.kt):
 * Retrofit POSTs whose parameters are all `@Query`, with an empty body; TokenInterceptor appends the
 * stored `access_token` to the query. Gson reads LoginResponse {message, session, valid_seconds (Long),
 * access_token}, SignUpResponse {message, session}, ForgotPasswordResponse {message}.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { nthMailTo, setFrontendUrl, tokenWorks } from '../helpers/auth.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';
import { answerOf, postQuery } from '../helpers/susi-clients.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url });
await setFrontendUrl(app);

t.test(
  'susi_android SusiService.kt login: POST /aaa/login.json?type=access-token&login=..&password=.. with an empty body',
  async (t) => {
    const u = await seedUser(app);
    const res = await postQuery(app, '/aaa/login.json', { type: 'access-token', login: u.email, password: u.password });
    t.equal(res.status, 200);
    t.match(res.body, {
      message: `You are logged in as ${u.email}`,
      session: { identity: { anonymous: true } },
      access_token: String,
    });
    t.ok(Number.isInteger(res.body.valid_seconds), 'valid_seconds is a number Gson reads as Long (never "forever")');
    const forever = await postQuery(app, '/aaa/login.json', {
      type: 'access-token',
      login: u.email,
      password: u.password,
      valid_seconds: '-1',
    });
    t.equal(
      forever.body.valid_seconds,
      res.body.valid_seconds,
      '-1 gets the longest lifetime this service allows, still a number',
    );
    // TokenInterceptor appends the stored token to every later call; checkLogin tells whether it still works.
    const check = await postQuery(app, '/aaa/login.json', { checkLogin: 'true', access_token: res.body.access_token });
    t.match(check.body, { accepted: true, loggedIn: true, message: `You are logged in as ${u.email}` });
    const bad = await postQuery(app, '/aaa/login.json', { type: 'access-token', login: u.email, password: 'wrong' });
    t.equal(bad.status, 422);
    t.equal(bad.body.message, 'Invalid credentials');
  },
);

t.test(
  'susi_android SusiService.kt signUp and forgotPassword: POST with @Query signup/password and forgotemail',
  async (t) => {
    const email = `android-${process.pid}@example.com`;
    const signup = await postQuery(app, '/aaa/signup.json', { signup: email, password: 'An android passw0rd' });
    t.equal(signup.status, 200);
    t.match(signup.body, { message: /signed-up/, session: { identity: { anonymous: true } } });
    t.match((await nthMailTo(smtp, email, 1)).parsed.subject, /^Confirm your email address/);
    const weak = await postQuery(app, '/aaa/signup.json', { signup: `weak-${email}`, password: 'short' });
    t.equal(weak.status, 422, 'the password rule of POST /v1/users');
    t.match(weak.body.message, /8 to 128 characters/);
    const forgot = await postQuery(app, '/aaa/recoverpassword.json', { forgotemail: email });
    t.equal(forgot.status, 200);
    t.type(forgot.body.message, 'string');
    t.match((await nthMailTo(smtp, email, 2)).parsed.subject, /^Reset your password/);
  },
);

t.test(
  'susi_android SusiService.kt changeSettingResponse, addSusiDevices, getConnectedDevices, userSetting',
  async (t) => {
    const u = await seedUser(app);
    // changeSettingResponse(key1, value1, count) as POST query; TokenInterceptor adds the token.
    const change = await postQuery(app, '/aaa/changeUserSettings.json', {
      key1: 'theme',
      value1: 'dark',
      count: '1',
      access_token: u.token,
    });
    t.match(change.body, { accepted: true, message: 'You successfully changed settings of your account!' });
    const settings = answerOf(
      await app.inject({ method: 'GET', url: `/aaa/listUserSettings.json?access_token=${u.token}` }),
    );
    t.same(settings.body.settings, { theme: 'dark' });
    // addSusiDevices(@QueryMap) is a GET.
    const add = answerOf(
      await app.inject({
        method: 'GET',
        url: `/aaa/addNewDevice.json?${new URLSearchParams({ macid: '00:11:22:33:44:55', name: 'SUSI.AI', room: 'Office', latitude: '1', longitude: '2', access_token: u.token })}`,
      }),
    );
    t.equal(add.body.accepted, true);
    const list = answerOf(
      await app.inject({ method: 'GET', url: `/aaa/listUserDevices.json?access_token=${u.token}` }),
    );
    t.match(list.body.devices['00:11:22:33:44:55'], {
      name: 'SUSI.AI',
      room: 'Office',
      geolocation: { latitude: '1', longitude: '2' },
      deviceAddTime: String,
    });
  },
);

t.test(
  'susi_android SusiService.kt resetPasswordResponse: POST /aaa/changepassword.json?changepassword=..&password=..&newpassword=..',
  async (t) => {
    const u = await seedUser(app);
    const login = await postQuery(app, '/aaa/login.json', {
      type: 'access-token',
      login: u.email,
      password: u.password,
    });
    const token = login.body.access_token as string;
    const same = await postQuery(app, '/aaa/changepassword.json', {
      changepassword: u.email,
      password: u.password,
      newpassword: u.password,
      access_token: token,
    });
    t.equal(same.status, 200);
    t.match(same.body, { accepted: false, message: 'Your current password matches new password.' });
    const wrong = await postQuery(app, '/aaa/changepassword.json', {
      changepassword: u.email,
      password: 'wrong',
      newpassword: 'a new passw0rd',
      access_token: token,
    });
    t.equal(wrong.status, 422);
    const changed = await postQuery(app, '/aaa/changepassword.json', {
      changepassword: u.email,
      password: u.password,
      newpassword: 'a new passw0rd',
      access_token: token,
    });
    t.equal(changed.status, 200);
    t.match(changed.body, { accepted: true, message: 'Your password has been changed!' });
    t.equal(await tokenWorks(app, token), 401, 'the assistant tokens end, as with POST /v1/auth/change-password');
    t.match((await nthMailTo(smtp, u.email, 1)).parsed.subject, /was changed/, 'the notice of the service is mailed');
    const again = await postQuery(app, '/aaa/login.json', {
      type: 'access-token',
      login: u.email,
      password: 'a new passw0rd',
    });
    t.equal(again.body.accepted, true, 'the new password logs in');
  },
);

/**
 * POST /v1/auth/change-password, and a password set through PATCH /v1/users/{id}: the other logins end
 * (refresh and access tokens), the one that changed it goes on; tokens of no login end with the token
 * generation; unused reset links die; a notice is mailed.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { loginPair, nthMailTo, post, refresh, tokenWorks } from '../helpers/auth.js';
import { startSmtp } from '../helpers/smtp.js';
import { expectError, login, seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, LOGIN_MAX_FAILURES: '3' });

const change = (token: string, oldPassword: string, newPassword: string) =>
  post(
    app,
    '/v1/auth/change-password',
    { data: { 'old-password': oldPassword, 'new-password': newPassword } },
    { token },
  );

t.test(
  'the new password logs in; the other logins end; the login that changed it goes on; a notice is mailed',
  async (t) => {
    const user = await seedUser(app);
    const here = await loginPair(app, user.email, user.password);
    const elsewhere = await loginPair(app, user.email, user.password);
    const assistantToken = user.token;
    await post(app, '/v1/auth/reset-password', { data: { email: user.email } });
    await nthMailTo(smtp, user.email);

    const res = await change(here.access_token, user.password, 'a new long password');
    t.equal(res.status, 200);
    t.same(res.body, { id: user.id, email: user.email, name: null, 'password-changed': true }, 'no name yet: null');

    t.type(await login(app, user.email, 'a new long password'), 'string', 'the new password logs in');
    t.equal(
      (await post(app, '/v1/auth/login', { email: user.email, password: user.password })).status,
      401,
      'the old one does not',
    );
    t.equal(await tokenWorks(app, here.access_token), 200, 'the login that changed it goes on');
    t.equal((await refresh(app, here.refresh_token)).status, 200, 'its refresh token too');
    t.equal(await tokenWorks(app, elsewhere.access_token), 401, "another login's access token ended");
    t.equal((await refresh(app, elsewhere.refresh_token)).status, 401, 'and its refresh token');
    t.equal(await tokenWorks(app, assistantToken), 401, 'a token of no login ended with the token generation');
    t.equal(
      (await app.sql`select 1 from account_tokens where user_id = ${Number(user.id)} and purpose = 'reset-password'`)
        .length,
      0,
      'the reset link mailed before is dead',
    );

    const notice = await nthMailTo(smtp, user.email, 2);
    t.match(notice.parsed.subject, /password .* was changed/);
    t.match(notice.parsed.text, /reset-password/);
  },
);

t.test(
  'refusals: wrong current password (counted as a failed login), same password, short password, no login',
  async (t) => {
    const user = await seedUser(app);
    const pair = await loginPair(app, user.email, user.password);
    expectError(t, await change(pair.access_token, 'not the password', 'a new long password'), 422, {
      pointer: '/data/old-password',
      detail: 'The current password is wrong',
    });
    expectError(t, await change(pair.access_token, user.password, user.password), 422, {
      pointer: '/data/new-password',
    });
    expectError(t, await change(pair.access_token, user.password, 'short'), 422, { pointer: '/data/new-password' });
    expectError(
      t,
      await post(
        app,
        '/v1/auth/change-password',
        { data: { 'old-password': user.password } },
        { token: pair.access_token },
      ),
      422,
      { pointer: '/data/new-password' },
    );
    expectError(
      t,
      await post(
        app,
        '/v1/auth/change-password',
        { 'old-password': user.password, 'new-password': 'a new long password' },
        { token: pair.access_token },
      ),
      422,
      { pointer: '/data' },
    );
    expectError(
      t,
      await post(app, '/v1/auth/change-password', {
        data: { 'old-password': user.password, 'new-password': 'a new long password' },
      }),
      401,
    );
    t.type(await login(app, user.email, user.password), 'string', 'nothing changed');

    const guessed = await seedUser(app);
    const its = await loginPair(app, guessed.email, guessed.password);
    for (let i = 0; i < 3; i++)
      t.equal((await change(its.access_token, `guess ${i}`, 'a new long password')).status, 422);
    const limited = await change(its.access_token, guessed.password, 'a new long password');
    expectError(t, limited, 429, { detail: /^Too many failed logins/ });
    t.match(limited.headers['retry-after'], /^\d+$/);
  },
);

t.test(
  "PATCH /v1/users/{id} with a password: refused to the user themself, an administrator's reset ends every login",
  async (t) => {
    const user = await seedUser(app);
    const here = await loginPair(app, user.email, user.password);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: here.access_token,
      body: { data: { type: 'user', id: user.id, attributes: { password: 'patched long password' } } },
    });
    expectError(t, res, 403, { pointer: '/data/attributes/password' });
    t.equal(await tokenWorks(app, here.access_token), 200, 'a stolen token alone cannot take the account over');

    const admin = await seedUser(app, { admin: true });
    const adminLogin = await loginPair(app, admin.email, admin.password);
    const byAdmin = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: adminLogin.access_token,
      body: { data: { type: 'user', id: user.id, attributes: { password: 'set by the admin' } } },
    });
    t.equal(byAdmin.status, 200);
    t.equal(await tokenWorks(app, here.access_token), 401, "an administrator's change ends every login of the account");
    t.equal(await tokenWorks(app, adminLogin.access_token), 200, "the administrator's own login goes on");
  },
);

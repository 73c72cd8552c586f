/**
 * Password reset: POST /v1/auth/reset-password answers the same whether or not an account has the
 * address (the mail is a job's business); PATCH with the mailed token sets the password once, within the
 * token's lifetime, and ends every login of the account.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { linkIn, loginPair, mailsTo, nthMailTo, post, setFrontendUrl, tokenWorks } from '../helpers/auth.js';
import { FRONTEND_ORIGIN } from '../helpers/front-end-client.js';
import { startSmtp } from '../helpers/smtp.js';
import { expectError, login, seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  SMTP_URL: smtp.url,
  MAIL_RATE_PER_RECIPIENT: '2',
  PASSWORD_RESET_EXPIRES_IN: '900',
});
await setFrontendUrl(app);

const ask = (email: string) => post(app, '/v1/auth/reset-password', { data: { email } });
const reset = (token: string, password: string) =>
  post(app, '/v1/auth/reset-password', { data: { token, password } }, { method: 'PATCH' });
const SENT = { message: "If your email was registered with us, you'll get an email with reset link shortly" };

t.test('no enumeration: the same answer, and the same limits, whether or not an account has the address', async (t) => {
  const user = await seedUser(app);
  const known = [await ask(user.email), await ask(user.email.toUpperCase())];
  const unknown = [await ask('nobody@example.com'), await ask('NOBODY@example.com')];
  for (const res of [...known, ...unknown]) {
    t.equal(res.status, 200);
    t.strictSame(res.body, SENT);
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  }
  const limits = [await ask(user.email), await ask('nobody@example.com')];
  t.same(
    limits.map((r) => r.status),
    [429, 429],
    'the third request for either address is refused alike',
  );
  // Alike but for the seconds left of each address's window, which began when its first request was answered (a
  // loaded machine once answered the second address two seconds after the first).
  const seconds = (body: { errors: { detail: string }[] }) =>
    Number(/in (\d+) seconds/.exec(body.errors[0]!.detail)?.[1]);
  const alike = (body: { errors: { detail: string }[] }) =>
    JSON.stringify(body).replace(/in \d+ seconds/, 'in N seconds');
  t.equal(alike(limits[0]!.body), alike(limits[1]!.body));
  for (const limit of limits) t.ok(seconds(limit.body) > 3500 && seconds(limit.body) <= 3600, 'about an hour to wait');
  await nthMailTo(smtp, user.email, 2);
  t.equal(mailsTo(smtp, 'nobody@example.com').length, 0, 'no mail to an address without an account');
});

t.test(
  'the mailed link sets a new password once; it ends every login and the other links, and verifies the address',
  async (t) => {
    const user = await seedUser(app);
    const earlier = await loginPair(app, user.email, user.password);
    await ask(user.email);
    await ask(user.email);
    const first = linkIn(await nthMailTo(smtp, user.email, 1), '/reset-password');
    const second = linkIn(await nthMailTo(smtp, user.email, 2), '/reset-password');
    const mail = mailsTo(smtp, user.email)[0]!;
    t.match(mail.parsed.subject, /^Reset your password for Open Event$/);
    t.match(mail.parsed.text, /within 15 minutes/);
    t.equal(`${second.url.origin}${second.url.pathname}`, `${FRONTEND_ORIGIN}/reset-password`);

    await app.sql`update users set first_name = 'Ada', last_name = 'Lovelace' where id = ${Number(user.id)}`;
    const res = await reset(second.token, 'my new password');
    t.equal(res.status, 200);
    t.same(res.body, { id: user.id, email: user.email, name: 'Ada Lovelace' }, 'the name as the reference answers it');
    t.type(await login(app, user.email, 'my new password'), 'string');
    t.equal(await tokenWorks(app, earlier.access_token), 401, 'the login from before ended');
    t.equal(await tokenWorks(app, user.token), 401, 'a token of no login ended too');
    const [row] = await app.sql<{ v: boolean }[]>`select is_verified as v from users where id = ${Number(user.id)}`;
    t.ok(row!.v, 'the mailbox is proven: the address is verified');
    expectError(t, await reset(second.token, 'another password'), 400, {
      detail: 'This password reset link is invalid, expired or used already',
    });
    expectError(t, await reset(first.token, 'another password'), 400);
    t.type(await login(app, user.email, 'my new password'), 'string', 'used and older links changed nothing');
  },
);

t.test('expired links, verification links and links to an address the account left are refused', async (t) => {
  const user = await seedUser(app);
  await ask(user.email);
  const { token } = linkIn(await nthMailTo(smtp, user.email), '/reset-password');
  const dump = JSON.stringify(await app.sql`select encode(token_hash, 'base64') as h, * from account_tokens`);
  t.notOk(dump.includes(token), 'only a hash of the token is stored');
  await app.sql`update account_tokens set expires_at = now() - interval '1 second' where token_hash = ${createHash('sha256').update(token).digest()}`;
  expectError(t, await reset(token, 'my new password'), 400);

  const verifying = await seedUser(app);
  await post(
    app,
    '/v1/auth/resend-verification-email',
    { data: { email: verifying.email } },
    { token: verifying.token },
  );
  const verifyLink = linkIn(await nthMailTo(smtp, verifying.email), '/verify');
  expectError(t, await reset(verifyLink.token, 'my new password'), 400);

  const mover = await seedUser(app);
  await ask(mover.email);
  const old = linkIn(await nthMailTo(smtp, mover.email), '/reset-password');
  await app.sql`update users set email = ${`moved-${mover.email}`} where id = ${Number(mover.id)}`;
  expectError(t, await reset(old.token, 'my new password'), 400);
  t.type(await login(app, `moved-${mover.email}`, mover.password), 'string', 'the password stayed');
});

t.test('bad input is a 4xx error document and changes nothing', async (t) => {
  const CASES: [string, unknown, number, string?][] = [
    ['a short password', { data: { token: 'x', password: 'short' } }, 422, '/data/password'],
    ['no token', { data: { password: 'long enough' } }, 422, '/data/token'],
    ['not wrapped in data', { token: 'x', password: 'long enough' }, 422, '/data'],
    ['an unknown member', { data: { token: 'x', password: 'long enough', email: 'a@b.c' } }, 422, '/data/email'],
  ];
  for (const [what, body, status, pointer] of CASES) {
    const res = await post(app, '/v1/auth/reset-password', body, { method: 'PATCH' });
    t.equal(res.status, status, what);
    expectError(t, res, status, pointer ? { pointer } : {});
  }
  expectError(t, await ask('not an address'), 422, { pointer: '/data/email' });
});

/**
 * E-mail verification: registration mails a link to the front end's /verify page; POST
 * /v1/auth/verify-email with its token sets is-verified, once, within its lifetime, for the address it
 * was mailed to; POST /v1/auth/resend-verification-email mails a new one.
 */
import { createHash } from 'node:crypto';
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { linkIn, mailsTo, nthMailTo, post, setFrontendUrl } from '../helpers/auth.js';
import { FRONTEND_ORIGIN } from '../helpers/front-end-client.js';
import { startSmtp } from '../helpers/smtp.js';
import { expectError, seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  SMTP_URL: smtp.url,
  PUBLIC_URL: 'https://api.example',
  MAIL_RATE_PER_RECIPIENT: '3',
});

let n = 0;
/** Registers an account as the web front end does; its id. */
async function register(email = `verify${++n}@example.com`) {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/users',
    body: {
      data: { type: 'user', attributes: { email, password: 'long enough', 'was-registered-with-order': false } },
    },
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id as string, email };
}
const verify = (token: string) => post(app, '/v1/auth/verify-email', { data: { token } });
const isVerified = async (id: string) =>
  (await app.sql<{ v: boolean }[]>`select is_verified as v from users where id = ${Number(id)}`)[0]!.v;

t.test('without a frontend-url in the settings, links point to PUBLIC_URL', async (t) => {
  const { email } = await register();
  t.equal(linkIn(await nthMailTo(smtp, email), '/verify').url.origin, 'https://api.example');
});

t.test('registration mails a link to the front end; it verifies the address once', async (t) => {
  await setFrontendUrl(app, `${FRONTEND_ORIGIN}/`);
  const { id, email } = await register();
  t.notOk(await isVerified(id));
  const mail = await nthMailTo(smtp, email);
  t.match(mail.parsed.subject, /^Confirm your email address for Open Event$/);
  const { url, token } = linkIn(mail, '/verify');
  t.equal(
    `${url.origin}${url.pathname}`,
    `${FRONTEND_ORIGIN}/verify`,
    "the front end's verify page (app/router.js), one slash",
  );
  t.match(token, /^[\w-]{43}$/);
  const dump = JSON.stringify(await app.sql`select encode(token_hash, 'base64') as h, * from account_tokens`);
  t.notOk(dump.includes(token), 'only a hash of the token is stored');

  const res = await verify(token);
  t.equal(res.status, 200);
  t.same(res.body, { message: 'Email Verified' });
  t.ok(await isVerified(id));
  expectError(t, await verify(token), 400, { detail: 'This verification link is invalid, expired or used already' });
});

t.test(
  'an expired link, a reset link, an unknown token and a link to an address the account left are refused',
  async (t) => {
    const { id, email } = await register();
    const { token } = linkIn(await nthMailTo(smtp, email), '/verify');
    await app.sql`update account_tokens set expires_at = now() - interval '1 second' where token_hash = ${createHash('sha256').update(token).digest()}`;
    expectError(t, await verify(token), 400);
    expectError(t, await verify('x'.repeat(43)), 400);

    const resetFor = await register();
    await post(app, '/v1/auth/reset-password', { data: { email: resetFor.email } });
    const reset = linkIn(await nthMailTo(smtp, resetFor.email, 2), '/reset-password');
    expectError(t, await verify(reset.token), 400);
    t.notOk(await isVerified(resetFor.id), 'a reset token does not verify');

    const mover = await register();
    const old = linkIn(await nthMailTo(smtp, mover.email), '/verify');
    const token2 = await post(app, '/v1/auth/login', { email: mover.email, password: 'long enough' });
    const moved = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${mover.id}`,
      token: token2.body.access_token,
      body: { data: { type: 'user', id: mover.id, attributes: { email: `moved-${mover.email}` } } },
    });
    t.equal(moved.status, 200);
    expectError(t, await verify(old.token), 400);
    t.notOk(await isVerified(mover.id), 'the link of the old address verifies nothing');
    const fresh = linkIn(await nthMailTo(smtp, `moved-${mover.email}`), '/verify');
    t.equal((await verify(fresh.token)).status, 200, 'the new address got a link of its own');
    t.ok(await isVerified(mover.id));
    t.notOk(await isVerified(id));
  },
);

t.test('a new address is unverified again; users cannot set is-verified, administrators can', async (t) => {
  const user = await seedUser(app);
  const admin = await seedUser(app, { admin: true });
  const set = (token: string, attributes: Record<string, unknown>) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token,
      body: { data: { type: 'user', id: user.id, attributes } },
    });
  expectError(t, await set(user.token, { 'is-verified': true }), 403, { pointer: '/data/attributes/is-verified' });
  t.equal(
    (await set(user.token, { 'is-verified': false, 'public-name': 'Ada' })).status,
    200,
    'the current value sent back is fine',
  );
  const byAdmin = await set(admin.token, { 'is-verified': true });
  t.equal(byAdmin.body.data.attributes['is-verified'], true);
  const moved = await set(user.token, { email: `new-${user.email}`, 'is-verified': true });
  t.equal(moved.status, 200, 'the current value with a new address is fine...');
  t.equal(moved.body.data.attributes['is-verified'], false, '...but the new address is not verified');
  await nthMailTo(smtp, `new-${user.email}`);
  const registered = await call(app, {
    method: 'POST',
    url: '/v1/users',
    body: {
      data: {
        type: 'user',
        attributes: { email: 'self-verified@example.com', password: 'long enough', 'is-verified': true },
      },
    },
  });
  expectError(t, registered, 403, { pointer: '/data/attributes/is-verified' });
  const made = await call(app, {
    method: 'POST',
    url: '/v1/users',
    token: admin.token,
    body: {
      data: {
        type: 'user',
        attributes: { email: 'made-verified@example.com', password: 'long enough', 'is-verified': true },
      },
    },
  });
  t.equal(made.status, 201);
  t.equal(
    made.body.data.attributes['is-verified'],
    true,
    'an administrator may create a verified account (and no link is mailed)',
  );
});

t.test(
  'resend-verification-email: own address only (administrators: any), not when verified, within the mail limits',
  async (t) => {
    const user = await seedUser(app);
    const other = await seedUser(app);
    const admin = await seedUser(app, { admin: true });
    const resend = (email: string, token?: string) =>
      post(app, '/v1/auth/resend-verification-email', { data: { email } }, { token });
    const res = await resend(user.email.toUpperCase(), user.token);
    t.equal(res.status, 200);
    t.same(res.body, { message: 'Verification email resent' });
    const { token } = linkIn(await nthMailTo(smtp, user.email), '/verify');
    expectError(t, await resend(other.email, user.token), 403, { pointer: '/data/email' });
    expectError(t, await resend(user.email), 401);
    t.equal((await resend(other.email, admin.token)).status, 200, 'an administrator mails anyone a link');
    expectError(t, await resend('nobody@example.com', admin.token), 404);
    t.equal((await verify(token)).status, 200);
    expectError(t, await resend(user.email, user.token), 409, { pointer: '/data/email' });

    const busy = await seedUser(app);
    t.equal((await resend(busy.email, busy.token)).status, 200);
    t.equal((await resend(busy.email, busy.token)).status, 200);
    t.equal((await resend(busy.email, busy.token)).status, 200);
    const limited = await resend(busy.email, busy.token);
    expectError(t, limited, 429);
    t.match(limited.headers['retry-after'], /^\d+$/);
  },
);

t.test('registration past the mail limits of its client creates the account without a mail', async (t) => {
  const { app: tight } = await buildTestApp(t, { SMTP_URL: smtp.url, MAIL_RATE_PER_IP: '1' });
  const first = await call(tight, {
    method: 'POST',
    url: '/v1/users',
    body: { data: { type: 'user', attributes: { email: 'first@example.com', password: 'long enough' } } },
  });
  const second = await call(tight, {
    method: 'POST',
    url: '/v1/users',
    body: { data: { type: 'user', attributes: { email: 'second@example.com', password: 'long enough' } } },
  });
  t.same([first.status, second.status], [201, 201]);
  const jobs = await tight.sql<{ n: number }[]>`select count(*)::int as n from pgboss.job where name = 'account-mail'`;
  t.equal(jobs[0]!.n, 1, 'one verification mail queued: the second can be asked for again later');
  t.equal(mailsTo(smtp, 'second@example.com').length, 0);
});

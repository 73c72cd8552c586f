/**
 * The mail log (/v1/mails): every mail the mailer recorded, with its text, for administrators only; read-only.
 * A mail also leaves the reference's `mail_event` line in the activity log, in the transaction that records it.
 */
import t from 'tap';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { SMTP_URL: smtp.url });
const admin = await seedUser(app, { admin: true });
const user = await seedUser(app);

const sent = await app.mailer.send({
  to: { address: 'log@example.org' },
  subject: 'Logged mail',
  action: 'test-mail',
  text: 'Plain text',
  html: '<p>The HTML part</p>',
});
await app.mailer.send({ to: { address: 'other@example.org' }, subject: 'Another', action: 'test-mail', text: 'Two' });

t.test(
  'administrators read each mail: recipient, time, action, subject, message (the HTML part where there is one)',
  async (t) => {
    const res = await call(app, { url: `/v1/mails/${sent.id}`, token: admin.token });
    t.equal(res.status, 200);
    const { time, ...rest } = res.body.data.attributes;
    t.same(rest, {
      recipient: 'log@example.org',
      action: 'test-mail',
      subject: 'Logged mail',
      message: '<p>The HTML part</p>',
    });
    t.ok(Math.abs(Date.parse(time) - Date.now()) < 60_000, 'time is when it was recorded');
    t.equal(res.body.data.type, 'mail');
  },
);

t.test('the mail-logs page: searched by recipient, newest first', async (t) => {
  const filter = encodeURIComponent(JSON.stringify([{ name: 'recipient', op: 'ilike', val: '%log@%' }]));
  const res = await call(app, { url: `/v1/mails?filter=${filter}&sort=-time&page[size]=100`, token: admin.token });
  t.equal(res.status, 200);
  t.same(
    res.body.data.map((m: { attributes: { recipient: string } }) => m.attributes.recipient),
    ['log@example.org'],
  );
  const all = await call(app, { url: '/v1/mails?sort=-time', token: admin.token });
  t.same(
    all.body.data.map((m: { attributes: { subject: string } }) => m.attributes.subject),
    ['Another', 'Logged mail'],
  );
});

t.test("the log withholds a message's links: a password reset's link would take over the account", async (t) => {
  const reset = await app.mailer.send({
    to: { address: 'reset@example.org' },
    subject: 'Reset your password',
    action: 'reset-password',
    text: 'Choose a new one at this link:\n\nhttps://front.example/reset-password?token=SECRET123\n\nThanks.',
    html: '<a href="https://front.example/reset-password?token=SECRET123">reset</a> or http://x.example/y?t=SECRET123',
  });
  const res = await call(app, { url: `/v1/mails/${reset.id}`, token: admin.token });
  t.equal(res.status, 200);
  t.equal(
    res.body.data.attributes.message,
    '<a href="[link withheld]">reset</a> or [link withheld]',
    'no link, hence no token, is kept',
  );
});

t.test('each mail sent leaves its line in the activity log', async (t) => {
  const lines = await app.sql`select actor, action from activities where action like 'Mail sent to log@%'`;
  t.same(lines, [{ actor: null, action: 'Mail sent to log@example.org, action: test-mail, subject: Logged mail' }]);
});

t.test('administrators only, read only', async (t) => {
  assertError(t, await call(app, { url: '/v1/mails' }), 401);
  assertError(t, await call(app, { url: '/v1/mails', token: user.token }), 403);
  assertError(t, await call(app, { url: `/v1/mails/${sent.id}`, token: user.token }), 403);
  assertError(t, await call(app, { url: '/v1/mails/999999', token: admin.token }), 404);
  assertError(t, await call(app, { url: '/v1/mails?sort=colour', token: admin.token }), 400, { parameter: 'sort' });
  for (const method of ['POST', 'PATCH', 'DELETE'] as const) {
    const res = await call(app, {
      method,
      url: method === 'POST' ? '/v1/mails' : `/v1/mails/${sent.id}`,
      token: admin.token,
      ...(method === 'DELETE' ? {} : { body: { data: { type: 'mail', attributes: { subject: 'x' } } } }),
    });
    t.ok([404, 405].includes(res.status), `${method} is no route (${res.status})`);
  }
  const [row] = await app.sql`select subject from mails where id = ${sent.id}`;
  t.equal(row!.subject, 'Logged mail', 'unchanged');
});

import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel, sendReceipt } from '../helpers/events.js';
import { sellTickets } from '../helpers/orders.js';
import { startSmtp, type ReceivedMail } from '../helpers/smtp.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { SMTP_URL: smtp.url, MAIL_FROM: 'Open Event <no-reply@open-event.test>' });

/** The top-level header block of a raw message, as physical lines (before the first empty line). */
function headerLines(raw: Buffer): string[] {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  return text.slice(0, end).split('\r\n');
}

/** No injected header, no bare CR or LF, every header value on one logical line. */
function assertCleanHeaders(t: Test, mail: ReceivedMail) {
  const raw = mail.raw.toString('latin1');
  t.ok(raw.indexOf('\r\n\r\n') > 0, 'a header block ends with an empty line');
  const lines = headerLines(mail.raw);
  const block = lines.join('\r\n');
  t.notOk(/\r(?!\n)|(?<!\r)\n/.test(block), 'no bare CR or LF in the headers');
  t.ok(/^[A-Za-z0-9-]+:/.test(lines[0]!), 'the first line is a header');
  for (const line of lines) {
    t.ok(
      /^[A-Za-z0-9-]+:|^[ \t]/.test(line),
      `a header or its folded continuation: ${JSON.stringify(line.slice(0, 60))}`,
    );
  }
  const names = lines.filter((l) => !/^[ \t]/.test(l)).map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
  t.notOk(names.includes('bcc'), 'no Bcc header');
  t.notOk(names.includes('x-injected'), 'no X-Injected header');
  t.notOk(mail.parsed.headers.has('bcc'), 'mailparser sees no Bcc');
  t.notOk(mail.parsed.headers.has('x-injected'), 'mailparser sees no X-Injected');
  t.equal(names.filter((n) => n === 'to').length, 1, 'one To header');
  t.equal(names.filter((n) => n === 'subject').length, 1, 'one Subject header');
  for (const [name, value] of mail.parsed.headers) {
    if (typeof value === 'string') t.notOk(/[\r\n]/.test(value), `${name} is a single line`);
  }
  t.notOk(/evil\.test/.test(mail.envelope.to.join(',')), 'no attacker in the envelope');
}

const recipientsOf = (mail: ReceivedMail) =>
  mail.parsed.to && !Array.isArray(mail.parsed.to) ? mail.parsed.to.value : [];

t.test('app.mailer.send: CR/LF in the name and subject cannot add headers or recipients', async (t) => {
  const before = smtp.received.length;
  const result = await app.mailer.send({
    to: { name: 'Eve\r\nBcc: attacker@evil.test', address: 'eve@example.org' },
    subject: 'Hello\r\nX-Injected: 1',
    action: 'test-mail',
    text: 'The body.',
  });
  t.equal(result.status, 'sent');
  const mail = (await smtp.waitFor(before + 1))[before]!;
  t.same(mail.envelope.to, ['eve@example.org'], 'exactly the intended recipient');
  assertCleanHeaders(t, mail);
  t.equal(mail.parsed.subject, 'Hello X-Injected: 1', 'the subject arrives flattened');
  t.same(
    recipientsOf(mail),
    [{ address: 'eve@example.org', name: 'Eve Bcc: attacker@evil.test' }],
    'the name flattened',
  );
  t.equal(mail.parsed.text?.trim(), 'The body.');
  const [row] = await app.sql`select recipient, subject from mails where id = ${result.id}`;
  t.same(row, { recipient: 'eve@example.org', subject: 'Hello X-Injected: 1' }, 'recorded flattened');
});

t.test('app.mailer.send: an address carrying a second address never reaches it', async (t) => {
  // Callers validate addresses, but the mailer is the last line: one `to` means one recipient.
  for (const address of ['eve@example.org\r\nBcc: attacker@evil.test', 'eve@example.org, attacker@evil.test']) {
    const before = smtp.received.length;
    const outcome = await app.mailer
      .send({ to: { name: 'Eve', address }, subject: 'One recipient', action: 'test-mail', text: 'x' })
      .then(
        (result) => result.status,
        (err: Error) => `refused: ${err.message}`,
      );
    t.match(outcome, /^refused: not a single mail address/, 'the mailer refuses it before recording anything');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const envelopes = smtp.received.slice(before).flatMap((m) => m.envelope.to);
    t.notOk(
      envelopes.some((to) => to.endsWith('evil.test')),
      `${JSON.stringify(address)} (${outcome}): no attacker in the envelope`,
    );
    t.ok(envelopes.length <= 1, 'at most one recipient');
    const [sent] =
      await app.sql`select count(*)::int as n from mails where status = 'sent' and recipient like '%evil.test%'`;
    t.equal(sent!.n, 0, 'no mail recorded as sent to the attacker');
  }
});

t.test('a blank line in the subject cannot start the body early', async (t) => {
  const before = smtp.received.length;
  await app.mailer.send({
    to: { name: 'Ada', address: 'ada@example.org' },
    subject: 'Report\n\nbody-injection',
    action: 'test-mail',
    text: 'The real body.',
  });
  const mail = (await smtp.waitFor(before + 1))[before]!;
  assertCleanHeaders(t, mail);
  t.equal(mail.parsed.subject, 'Report body-injection');
  t.equal(mail.parsed.text?.trim(), 'The real body.', 'the body is only the real body');
  const body = mail.raw.toString('latin1').slice(mail.raw.toString('latin1').indexOf('\r\n\r\n') + 4);
  t.notOk(body.includes('body-injection'), 'nothing of the subject in the body');
  const subjectLine = headerLines(mail.raw).find((l) => /^subject:/i.test(l));
  t.match(subjectLine, /^Subject: Report body-injection$/, 'the subject header is one line');
});

t.test('end to end: a receipt for an attendee named with CR/LF, for an event named with CR/LF', async (t) => {
  const world = await buildWorld(app);
  const { cast } = world;
  const event = world.published.event;
  const rename = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token: cast.owner.token,
    body: { data: { type: 'event', id: event, attributes: { name: 'Open Summit\r\nX-Injected: 1' } } },
  });
  t.equal(rename.status, 200, 'the event is renamed');
  const buyer = await seedUser(app);
  const attendees = [
    { name: 'Eve\r\nBcc: attacker@evil.test', email: 'eve@example.org' },
    { name: 'The Buyer', email: buyer.email },
  ];
  const ticketId = await create(
    app,
    cast.owner.token,
    'tickets',
    'ticket',
    ticketAttributes({ type: 'paid', price: 10 }),
    { event: rel('event', event) },
  );
  // Bought, placed by bank transfer, and marked paid by the organizer (sellTickets fails loudly otherwise).
  const { identifier } = await sellTickets(app, { buyer, organizerToken: cast.organizer.token, ticketId, attendees });

  const before = smtp.received.length;
  const res = await sendReceipt(app, buyer.token, identifier);
  t.equal(res.status, 200);
  await smtp.waitFor(before + 2);
  await new Promise((resolve) => setTimeout(resolve, 300)); // nothing more may arrive
  const mails = smtp.received.slice(before);
  t.equal(mails.length, 2, 'two messages: the buyer and Eve');
  t.same(
    mails.map((m) => m.envelope.to).sort(),
    [[buyer.email], ['eve@example.org']].sort(),
    'exactly the intended recipients',
  );
  for (const mail of mails) {
    assertCleanHeaders(t, mail);
    t.equal(mail.envelope.to.length, 1, 'one recipient per message');
  }
  const buyerMail = mails.find((m) => m.envelope.to[0] === buyer.email)!;
  const eveMail = mails.find((m) => m.envelope.to[0] === 'eve@example.org')!;
  t.equal(buyerMail.parsed.subject, `Your receipt for Open Summit X-Injected: 1 (order ${identifier})`);
  t.equal(eveMail.parsed.subject, `Your ticket for Open Summit X-Injected: 1 (order ${identifier})`);
  t.same(recipientsOf(eveMail), [{ address: 'eve@example.org', name: 'Eve Bcc: attacker@evil.test' }]);
  t.equal(eveMail.parsed.attachments[0]?.filename, `receipt-${identifier}.html`, 'the receipt is still attached');
  const rows =
    await app.sql`select recipient, subject from mails where subject like ${`%${identifier}%`} order by recipient`;
  t.equal(rows.length, 2, 'two mails recorded');
  for (const row of rows) t.notOk(/[\r\n]/.test(row.subject as string), 'recorded subject on one line');
});

t.test("a CR/LF in the settings' sender name cannot add headers either", async (t) => {
  const admin = await seedUser(app, { admin: true });
  const res = await call(app, {
    method: 'PATCH',
    url: '/v1/settings/1',
    token: admin.token,
    body: {
      data: {
        type: 'setting',
        id: '1',
        attributes: { 'email-from': 'events@open-event.test', 'email-from-name': 'Events\r\nBcc: attacker@evil.test' },
      },
    },
  });
  t.equal(res.status, 200);
  const before = smtp.received.length;
  await app.mailer.send({
    to: { name: 'Ada', address: 'ada@example.org' },
    subject: 'From the settings',
    action: 'test-mail',
    text: 'x',
  });
  const mail = (await smtp.waitFor(before + 1))[before]!;
  assertCleanHeaders(t, mail);
  t.same(mail.envelope, { from: 'events@open-event.test', to: ['ada@example.org'] });
  t.same(mail.parsed.from?.value, [{ address: 'events@open-event.test', name: 'Events Bcc: attacker@evil.test' }]);
});

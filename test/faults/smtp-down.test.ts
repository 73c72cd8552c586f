/**
 * Fault: the SMTP server is not running at all (nothing listens on its port: connection refused),
 * not merely refusing messages (test/mail/retry.test.ts covers a server that answers 451). A client
 * asks for mail through the API: the request succeeds, every mail is kept (pending, with its
 * message), and once a server listens on that port the retry job delivers each exactly once.
 */
import t from 'tap';
import { buildTestApp, until } from '../helpers/app.js';
import { create, eventAttributes, rel, sendReceipt } from '../helpers/events.js';
import { sellTickets } from '../helpers/orders.js';
import { freePort } from '../helpers/postgres.js';
import { startSmtp } from '../helpers/smtp.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';

t.test('SMTP down (connection refused): the mails are kept and sent once the server is up', async (t) => {
  const port = await freePort();
  const { app } = await buildTestApp(t, {
    ROLE: 'all',
    MAIL_RETRY_SECONDS: '1',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'Open Event <no-reply@open-event.test>',
  });
  const owner = await seedUser(app);
  const buyer = await seedUser(app);
  const event = await create(app, owner.token, 'events', 'event', eventAttributes('Mail Summit'));
  const attendees = [
    { name: 'Ada Lovelace', email: 'ada@example.org' },
    { name: 'Grace Hopper', email: 'grace@example.org' },
  ];
  const ticketId = await create(app, owner.token, 'tickets', 'ticket', ticketAttributes({ type: 'paid', price: 10 }), {
    event: rel('event', event),
  });
  // Placed by bank transfer and marked paid by the owner; the order's confirmation goes to the buyer by the same mail.
  const { identifier } = await sellTickets(app, { buyer, organizerToken: owner.token, ticketId, attendees });
  t.ok(identifier, 'the order is completed');

  const res = await sendReceipt(app, buyer.token, identifier);
  t.equal(res.status, 200, 'the request succeeds although no SMTP server runs');
  t.strictSame(res.body, { message: 'receipt sent to attendees' });
  const rows = () =>
    app.sql<{ recipient: string; status: string; last_error: string | null; has_raw: boolean }[]>`
      select recipient, status, last_error, raw is not null as has_raw from mails where subject like ${`%${identifier}%`} order by recipient`;
  const kept = await rows();
  t.strictSame(
    kept.map((r) => r.recipient),
    ['ada@example.org', buyer.email, 'grace@example.org'].sort(),
    'a mail per address is recorded',
  );
  for (const row of kept) {
    t.equal(row.status, 'pending', `${row.recipient}: pending`);
    t.match(row.last_error, /ECONNREFUSED/, `${row.recipient}: the refused connection is recorded`);
    t.equal(row.has_raw, true, `${row.recipient}: the message is kept for the retry`);
  }

  const peer = await startSmtp(t, { port });
  const sent = await until('every mail sent', async () => {
    const now = await rows();
    return now.every((r) => r.status === 'sent') ? now : undefined;
  });
  t.strictSame(
    sent.map((r) => [r.last_error, r.has_raw]),
    sent.map(() => [null, false]),
    'delivered: no error left, the raw message dropped',
  );
  // A moment for any duplicate delivery to show up.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  // The receipts name the order's identifier (the confirmations of placing and paying it, its invoice number).
  const receipts = peer.received.filter((m) => m.parsed.subject?.includes(identifier));
  t.strictSame(
    receipts.flatMap((m) => m.envelope.to).sort(),
    ['ada@example.org', buyer.email, 'grace@example.org'].sort(),
    'each receipt arrived exactly once',
  );
});

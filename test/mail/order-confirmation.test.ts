/**
 * The order confirmation mails (src/resources/orders/documents/confirmation.ts) through a real SMTP server: the
 * buyer's with every ticket and the invoice as PDF, each other holder address's with its own tickets, every QR code
 * read back from the attached PDFs; and the mail to the event's owner, organizers and coorganizers (organizer-mail.ts).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { createCast } from '../helpers/events.js';
import { printedEvent, setStatus } from '../helpers/order-documents.js';
import { readPdf } from '../helpers/pdf.js';
import { startSmtp, type ReceivedMail } from '../helpers/smtp.js';
import { deliverOrderConfirmation, sendOrderConfirmation } from '../../src/resources/orders/documents/confirmation.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url });
const cast = await createCast(app);
const printed = await printedEvent(app, cast);

/** The QR codes of a mail's PDF attachments, and the text of its invoice, if any. */
async function attached(mail: ReceivedMail) {
  const codes: (string | null)[] = [];
  let invoice: string | undefined;
  for (const a of mail.parsed.attachments) {
    const pages = await readPdf(a.content);
    if (a.filename?.startsWith('invoice-')) invoice = pages.map((p) => p.text).join(' ');
    else codes.push(...pages.map((p) => p.qr));
  }
  return { types: mail.parsed.attachments.map((a) => a.contentType), codes, invoice };
}

const mailsTo = (mails: ReceivedMail[], address: string) => mails.filter((m) => m.envelope.to.includes(address));
const isOrganizers = (m: ReceivedMail) => m.parsed.subject?.startsWith('New order for ') === true;
/** The event's staff: its owner, organizer and coorganizer (createEvent), one organizers' mail each. */
const STAFF = [cast.owner.email, cast.organizer.email, cast.coorganizer.email].sort();

t.test('placed: the buyer gets every ticket and the invoice, each other address its own tickets', async (t) => {
  const order = await printed.order([
    ['vip', 'Ada', 'ada@example.org'],
    ['free', 'Zoe', 'zoe@example.org'],
    ['free', 'Grace', 'ADA@example.org'],
  ]);
  const [ada, zoe, grace] = order.holders;
  // The buyer holds a ticket too: their one mail carries it.
  const own = await printed.order([['vip', 'Buyer', 'someone@example.org']]);
  await app.sql`update attendees set order_id = ${Number(order.order.id)}, email = ${order.buyer.email}
    where id = ${Number(own.holders[0]!.id)}`;
  await setStatus(app, order.order.id, 'placed');
  const before = smtp.received.length;
  await sendOrderConfirmation(app, Number(order.order.id));
  const received = (await smtp.waitFor(before + 6)).slice(before);
  const mails = received.filter((m) => !isOrganizers(m));
  t.equal(mails.length, 3, 'the buyer, ada@ (two tickets), zoe@');
  const organizers = received.filter(isOrganizers);
  t.same(organizers.flatMap((m) => m.envelope.to).sort(), STAFF, "the organizers' mail to each of the staff");

  const [buyerMail] = mailsTo(mails, order.buyer.email);
  t.match(
    buyerMail!.parsed.subject,
    /^See you at Open Summit Zürich on Wednesday, 1 May 2030, 11:00 \(Europe\/Berlin\) \(O\d+-\d+\)$/,
  );
  t.match(buyerMail!.parsed.text, `Order ${order.order.identifier}`);
  t.match(buyerMail!.parsed.text, 'Ada Tester: VIP');
  const buyer = await attached(buyerMail!);
  t.same(buyer.types, Array(5).fill('application/pdf'), 'four tickets and the invoice');
  t.same(buyer.codes, [ada!.identifier, zoe!.identifier, grace!.identifier, own.holders[0]!.identifier]);
  t.match(buyer.invoice, 'Total EUR');

  const [adaMail, ...moreAda] = mailsTo(mails, 'ada@example.org');
  t.equal(moreAda.length, 0, 'one mail per address, whatever its case');
  t.match(adaMail!.parsed.subject, /^Your tickets for Open Summit Zürich/);
  const toAda = await attached(adaMail!);
  t.same(toAda.types, ['application/pdf', 'application/pdf']);
  t.same(toAda.codes, [ada!.identifier, grace!.identifier], 'only the tickets of that address');
  t.equal(toAda.invoice, undefined, 'no invoice for a holder');

  const [zoeMail] = mailsTo(mails, 'zoe@example.org');
  t.same((await attached(zoeMail!)).codes, [zoe!.identifier]);
  const names = zoeMail!.parsed.attachments.map((a) => a.filename);
  t.match(names[0], /^ticket-.+-\d+\.pdf$/);

  const [toOwner] = mailsTo(organizers, cast.owner.email);
  const subject = toOwner!.parsed.subject ?? '';
  t.ok(
    subject.startsWith('New order for Open Summit Zürich on Wednesday, 1 May 2030, 11:00 (Europe/Berlin) by '),
    subject,
  );
  t.ok(subject.includes(`, ${order.buyer.email} (O`), "the buyer's address, then the invoice number");
  t.match(subject, new RegExp(`\\(O\\d+-${order.order.id}\\)$`));
  const text = toOwner!.parsed.text ?? '';
  t.match(text, 'You have a new order for your event Open Summit Zürich');
  t.match(text, `Order: ${order.order.identifier} (O`);
  t.match(text, `<${order.buyer.email}>`);
  t.match(text, 'Payment status: Placed');
  t.match(text, '2x VIP');
  t.match(text, '2x Community');
  t.match(text, 'Amount: EUR 95.20');
  t.match(text, 'Buyer AG');
  t.match(text, 'Tax ID: CHE-123.456.789');
  t.match(text, `/orders/${order.order.identifier}/view`);
  t.same(toOwner!.parsed.attachments, [], 'nothing attached');
  t.same(
    organizers.map((m) => m.parsed.text),
    organizers.map(() => text),
    'every organizer reads the same',
  );
  const recorded = await app.sql<{ recipient: string }[]>`select recipient from mails
    where action = 'ticket-purchased-organizer' and subject like ${`%(O%-${order.order.id})`} order by recipient`;
  t.same(
    recorded.map((r) => r.recipient),
    STAFF,
    'recorded as the mail statistics count them',
  );

  t.test('a job that runs again sends nothing twice; a later confirmation does', async (t) => {
    const sent = smtp.received.length;
    await deliverOrderConfirmation(
      app,
      { publicUrl: 'http://localhost' },
      {
        orderId: Number(order.order.id),
        requestedAt: new Date(Date.now() - 60_000).toISOString(),
      },
    );
    t.equal(smtp.received.length, sent, 'every address has its mail of this request');
    await sendOrderConfirmation(app, Number(order.order.id));
    t.equal((await smtp.waitFor(sent + 6)).length, sent + 6, 'a new request, new mails');
  });
});

t.test("an organizer's own order: the buyer's mail and the organizers' mail, each once", async (t) => {
  const own = await printed.order([['vip', 'Owner', 'owner-guest@example.org']]);
  await app.sql`update orders set user_id = ${Number(cast.owner.id)} where id = ${Number(own.order.id)}`;
  await setStatus(app, own.order.id, 'completed');
  const before = smtp.received.length;
  const requestedAt = new Date().toISOString();
  await sendOrderConfirmation(app, Number(own.order.id));
  const mails = (await smtp.waitFor(before + 5)).slice(before);
  const toOwner = mailsTo(mails, cast.owner.email);
  t.same(toOwner.map((m) => isOrganizers(m)).sort(), [false, true], "the owner's mail as buyer and as organizer");
  t.match(mailsTo(mails, cast.owner.email).find(isOrganizers)!.parsed.text, 'Payment status: Completed');
  const sent = smtp.received.length;
  await deliverOrderConfirmation(
    app,
    { publicUrl: 'http://localhost' },
    { orderId: Number(own.order.id), requestedAt },
  );
  t.equal(smtp.received.length, sent, 'a run again sends neither twice');
});

t.test('a free order: tickets, no invoice; an order no longer placed: nothing', async (t) => {
  const free = await printed.order([['free', 'Solo', 'solo@example.org']]);
  await app.sql`update orders set amount = 0 where id = ${Number(free.order.id)}`;
  await setStatus(app, free.order.id, 'completed');
  const before = smtp.received.length;
  await sendOrderConfirmation(app, Number(free.order.id));
  const mails = (await smtp.waitFor(before + 5)).slice(before);
  t.equal(mails.filter(isOrganizers).length, 3, 'the organizers hear of a free order too');
  t.match(mailsTo(mails.filter(isOrganizers), cast.owner.email)[0]!.parsed.text, 'Amount: EUR 0.00');
  const [buyerMail] = mailsTo(mails, free.buyer.email);
  const buyer = await attached(buyerMail!);
  t.same(buyer.codes, [free.holders[0]!.identifier]);
  t.equal(buyer.invoice, undefined, 'nothing to invoice');

  const cancelled = await printed.order([['vip', 'Late', 'late@example.org']]);
  await setStatus(app, cancelled.order.id, 'cancelled');
  const [{ n: recorded }] = await app.sql<{ n: number }[]>`select count(*)::int as n from mails`;
  await deliverOrderConfirmation(
    app,
    { publicUrl: 'http://localhost' },
    {
      orderId: Number(cancelled.order.id),
      requestedAt: new Date().toISOString(),
    },
  );
  const [{ n: after }] = await app.sql<{ n: number }[]>`select count(*)::int as n from mails`;
  t.equal(after, recorded, 'a cancelled order is confirmed to no one');
});

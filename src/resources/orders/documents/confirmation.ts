/**
 * The order confirmation mails, as the reference's send_email_to_attendees (app/api/helpers/mail.py): the buyer's,
 * with every ticket of the order as a PDF and, for an order that costs something, the invoice; and one to each other
 * ticket holder's address, with the tickets of that address only; and the organizers' (organizer-mail.ts). Sent by a
 * job, queued in the transaction that places or completes the order (or after it commits).
 */
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mails, settings } from '../../../../db/schema/index.js';
import type { Db } from '../../../../plugins/db.js';
import type { OutgoingMail } from '../../../../plugins/mailer.js';
import { roundToCents } from '../invoice-amounts.js';
import { invoiceNumber, invoicePdf } from './invoice-pdf.js';
import { type Holder, ISSUED, loadOrderDocument, type OrderDocument } from './load.js';
import { eventStaff, ORGANIZER, organizerMails } from './organizer-mail.js';
import { inZone, money } from './pdf.js';
import { ticketsPdf } from './ticket-pdf.js';

export const ORDER_CONFIRMATION_QUEUE = 'order-confirmation';
const BUYER = 'ticket-purchased';
const HOLDER = 'ticket-purchased-attendee';

export interface OrderConfirmationJob {
  orderId: number;
  /** When it was asked for: a run of the job again (pg-boss runs a job at least once) skips the mails sent since. */
  requestedAt: string;
}

export interface OrderConfirmationOptions {
  /** Where the web front end runs when the settings name no `frontend-url` (PUBLIC_URL). */
  publicUrl: string;
}

/**
 * Queues the confirmation mails of an order: in `db`'s transaction when given (the mails go exactly when it
 * commits), else on their own after the write that placed or completed the order has committed.
 */
export async function sendOrderConfirmation(app: FastifyInstance, orderId: number, db: Db = app.db): Promise<void> {
  const job: OrderConfirmationJob = { orderId, requestedAt: new Date().toISOString() };
  await app.sendJob(db, ORDER_CONFIRMATION_QUEUE, job);
}

const pdfAttachment = (filename: string, content: Buffer) => ({ filename, content, contentType: 'application/pdf' });

/** Each holder's ticket as a PDF of its own. */
async function ticketAttachments(data: OrderDocument, holders: Holder[]) {
  const attachments = [];
  for (const holder of holders) {
    const name = `ticket-${data.event.identifier}-${holder.id}.pdf`;
    attachments.push(pdfAttachment(name, await ticketsPdf(data, [holder])));
  }
  return attachments;
}

function summary(data: OrderDocument, holders: Holder[], link: string): string {
  const { event } = data;
  const tickets = holders.map((h) => `  - ${h.name}: ${h.ticketName}`).join('\n');
  return (
    `${event.name}\nFrom ${inZone(event.startsAt, event.timezone)}\nTo ${inZone(event.endsAt, event.timezone)}\n` +
    `${event.locationName ? `At ${event.locationName}\n` : ''}\nOrder ${data.order.identifier} ` +
    `(${invoiceNumber(data.order)})\nTickets:\n${tickets}\n\nThe order: ${link}\n`
  );
}

/** The mails of an issued order, the buyer's first; each holder address (other than the buyer's) once. */
export async function confirmationMails(data: OrderDocument, frontend: string): Promise<OutgoingMail[]> {
  const { event, order } = data;
  const number = invoiceNumber(order);
  const when = inZone(event.startsAt, event.timezone);
  const link = `${frontend}/orders/${order.identifier}/view`;
  const paid = roundToCents(order.amount) > 0;
  const buyer: OutgoingMail = {
    to: { name: data.buyer.name, address: data.buyer.email },
    subject: `See you at ${event.name} on ${when} (${number})`,
    action: BUYER,
    eventId: order.eventId,
    text:
      `Hello ${data.buyer.name},\n\nthank you for your order. Total: ${money(order.amount, event.currency)}.\n\n` +
      `${summary(data, data.holders, link)}\nEach ticket is attached as a PDF${paid ? ', with the invoice' : ''}: ` +
      'show its QR code at the entrance.\n',
    attachments: [
      ...(await ticketAttachments(data, data.holders)),
      ...(paid ? [pdfAttachment(`invoice-${order.identifier}.pdf`, await invoicePdf(data))] : []),
    ],
  };
  const byAddress = new Map<string, Holder[]>();
  for (const holder of data.holders) {
    const key = holder.email?.trim().toLowerCase();
    if (!key || key === data.buyer.email.toLowerCase()) continue;
    byAddress.set(key, [...(byAddress.get(key) ?? []), holder]);
  }
  const others: OutgoingMail[] = [];
  for (const holders of byAddress.values()) {
    const first = holders[0]!;
    others.push({
      to: { name: first.name, address: first.email!.trim() },
      subject: `Your tickets for ${event.name} on ${when} (${number})`,
      action: HOLDER,
      eventId: order.eventId,
      text:
        `Hello ${first.name},\n\n${data.buyer.name} ordered tickets for you.\n\n${summary(data, holders, link)}\n` +
        'Your tickets are attached as PDF: show the QR code at the entrance.\n',
      attachments: await ticketAttachments(data, holders),
    });
  }
  return [buyer, ...others];
}

/**
 * Runs one confirmation job: the mails of the order if it is still placed or completed (the buyer's, the holders',
 * the organizers'), each that no address has had of this order since the job was asked for.
 */
export async function deliverOrderConfirmation(
  app: FastifyInstance,
  options: OrderConfirmationOptions,
  job: OrderConfirmationJob,
) {
  const [data, [site]] = await Promise.all([
    loadOrderDocument(app.db, { orderId: job.orderId }),
    app.db.select({ frontendUrl: settings.frontendUrl }).from(settings).where(eq(settings.id, 1)),
  ]);
  if (!data || !ISSUED.includes(data.order.status)) return;
  const frontend = (site?.frontendUrl ?? options.publicUrl).replace(/\/+$/, '');
  const sent = await app.db
    .select({ action: mails.action, recipient: mails.recipient })
    .from(mails)
    .where(
      and(
        inArray(mails.action, [BUYER, HOLDER, ORGANIZER]),
        gte(mails.createdAt, new Date(job.requestedAt)),
        sql`position(${`(${invoiceNumber(data.order)})`} in ${mails.subject}) > 0`,
      ),
    );
  // By action too: an organizer who bought the order gets the buyer's mail and the organizers'.
  const key = (action: string, address: string) => `${action} ${address.toLowerCase()}`;
  const done = new Set(sent.map((m) => key(m.action, m.recipient)));
  const staff = await eventStaff(app.db, data.order.eventId);
  for (const mail of [...(await confirmationMails(data, frontend)), ...organizerMails(data, staff, frontend)]) {
    if (!done.has(key(mail.action, mail.to.address))) await app.mailer.send(mail);
  }
}

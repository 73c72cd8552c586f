/**
 * The mail that tells an event's staff about an order placed or completed, as the reference's
 * send_order_purchase_organizer_email (app/api/helpers/mail.py, called by on_order_completed in
 * app/api/helpers/order.py): to the event's owner, organizers and coorganizers, each live address once. The
 * reference sent one mail with the others in Bcc; each gets a mail of their own here, so each is recorded.
 */
import { and, inArray, isNull, or, sql } from 'drizzle-orm';
import { eventRoles, events, users } from '../../../../db/schema/index.js';
import type { Db } from '../../../../plugins/db.js';
import type { MailAddress, OutgoingMail } from '../../../../plugins/mailer.js';
import { invoiceNumber } from './invoice-pdf.js';
import type { OrderDocument } from './load.js';
import { inZone, money } from './pdf.js';

export const ORGANIZER = 'ticket-purchased-organizer';

/** The reference's roles that hear of every order (on_order_completed's organizer_set). */
const STAFF = ['owner', 'organizer', 'coorganizer'];

/** The payment modes as the reference's template names them. */
const MODES: Record<string, string> = { free: 'None', invoice: 'Purchase on Invoice' };
const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The live owner, organizers and coorganizers of the event, each address once. */
export async function eventStaff(db: Db, eventId: number): Promise<MailAddress[]> {
  const staff = sql`select ${eventRoles.userId} from ${eventRoles}
    where ${eventRoles.eventId} = ${eventId} and ${inArray(eventRoles.role, STAFF)}`;
  const found = await db
    .select({ email: users.email, name: users.name, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(
      and(
        isNull(users.deletedAt),
        or(
          sql`${users.id} in (${staff})`,
          sql`${users.id} = (select ${events.ownerId} from ${events} where ${events.id} = ${eventId})`,
        ),
      ),
    )
    .orderBy(users.id);
  const byAddress = new Map<string, MailAddress>();
  for (const user of found) {
    const name = user.name || [user.firstName, user.lastName].filter(Boolean).join(' ').trim() || user.email;
    if (!byAddress.has(user.email.toLowerCase()))
      byAddress.set(user.email.toLowerCase(), { name, address: user.email });
  }
  return [...byAddress.values()];
}

/** The order as the reference's template lists it: number, buyer, time, payment, tickets, amount, billing. */
function details(data: OrderDocument): string {
  const { order, event, buyer } = data;
  const counts = new Map<string, number>();
  for (const holder of data.holders) counts.set(holder.ticketName, (counts.get(holder.ticketName) ?? 0) + 1);
  const billing = [
    order.company,
    order.address,
    [order.zipcode, order.city].filter(Boolean).join(' '),
    order.state,
    order.country,
    order.taxBusinessInfo && `Tax ID: ${order.taxBusinessInfo}`,
  ].filter((line): line is string => Boolean(line?.trim()));
  return [
    `Order: ${order.identifier} (${invoiceNumber(order)})`,
    `Buyer: ${buyer.name} <${buyer.email}>`,
    `Purchased: ${inZone(order.completedAt ?? order.createdAt, event.timezone)}`,
    ...(order.paymentMode ? [`Payment mode: ${MODES[order.paymentMode] ?? capitalized(order.paymentMode)}`] : []),
    `Payment status: ${capitalized(order.status)}`,
    'Tickets:',
    ...[...counts].map(([ticket, count]) => `  ${count}x ${ticket}`),
    `Amount: ${money(order.amount, event.currency)}`,
    ...(billing.length ? ['Billing:', ...billing.map((line) => `  ${line}`)] : []),
  ].join('\n');
}

/** The organizers' mails of an issued order: one per address of `staff`. */
export function organizerMails(data: OrderDocument, staff: MailAddress[], frontend: string): OutgoingMail[] {
  const { event, order, buyer } = data;
  const when = inZone(event.startsAt, event.timezone);
  const text =
    `Congratulations!\n\nYou have a new order for your event ${event.name} starting ${when}.\n\n` +
    `${details(data)}\n\nThe order: ${frontend}/orders/${order.identifier}/view\n`;
  return staff.map((to) => ({
    to,
    subject: `New order for ${event.name} on ${when} by ${buyer.name}, ${buyer.email} (${invoiceNumber(order)})`,
    action: ORGANIZER,
    eventId: order.eventId,
    text,
  }));
}

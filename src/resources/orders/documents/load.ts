import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  attendees,
  discountCodes,
  events,
  orders,
  settings,
  taxes,
  tickets,
  users,
} from '../../../../db/schema/index.js';
import type { Db } from '../../../../plugins/db.js';
import { pricingOf } from '../reserve.js';
import type { AmountDiscount, AmountFee, AmountHolder, AmountTax } from '../invoice-amounts.js';

/** An order with everything its tickets and its invoice show. */
export interface OrderDocument {
  order: typeof orders.$inferSelect;
  buyer: { name: string; email: string };
  event: {
    name: string;
    identifier: string;
    startsAt: Date;
    endsAt: Date;
    timezone: string;
    locationName: string | null;
    online: boolean;
    currency: string;
    afterOrderMessage: string | null;
  };
  /** The seller's details: the event's tax record. */
  seller: typeof taxes.$inferSelect | null;
  tax: AmountTax | null;
  discount: AmountDiscount | null;
  fee: AmountFee | null;
  appName: string;
  holders: Holder[];
}

export interface Holder extends AmountHolder {
  id: number;
  identifier: string;
  name: string;
  email: string | null;
  userId: number | null;
}

/** Orders that have tickets and an invoice: those placed or completed. */
export const ISSUED = ['placed', 'completed'];

/** A live order of a live event, by identifier, by id or by one of its live ticket holders. */
type Named = { identifier: string } | { orderId: number } | { attendeeId: number };

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ').trim();

/**
 * The order a path names with its event, buyer, tax, discount code, fee and live ticket holders (in the order they
 * were added); undefined when there is no such live order.
 */
export async function loadOrderDocument(db: Db, named: Named): Promise<OrderDocument | undefined> {
  const which: SQL =
    'identifier' in named
      ? eq(orders.identifier, named.identifier)
      : 'orderId' in named
        ? eq(orders.id, named.orderId)
        : sql`${orders.id} = (select ${attendees.orderId} from ${attendees}
          where ${attendees.id} = ${named.attendeeId} and ${attendees.deletedAt} is null)`;
  const [row] = await db
    .select({
      order: orders,
      event: events,
      buyer: { email: users.email, name: users.name, firstName: users.firstName, lastName: users.lastName },
      seller: taxes,
      discount: { code: discountCodes.code, type: discountCodes.type, value: discountCodes.value },
      appName: sql<string>`(select ${settings.appName} from ${settings} where ${settings.id} = 1)`,
    })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(taxes, and(eq(taxes.eventId, events.id), isNull(taxes.deletedAt)))
    .leftJoin(discountCodes, eq(discountCodes.id, orders.discountCodeId))
    .where(and(which, isNull(orders.deletedAt), isNull(events.deletedAt)))
    .limit(1);
  if (!row) return undefined;
  const { order, event, buyer, seller } = row;
  const currency = event.paymentCurrency ?? 'USD';
  // The tax and fee as the order computation applies them, so that the invoice adds up to the stored amount.
  const { tax, fee } = await pricingOf(db, event.id);
  const holders = await db
    .select({
      id: attendees.id,
      identifier: attendees.identifier,
      firstname: attendees.firstname,
      lastname: attendees.lastname,
      email: attendees.email,
      userId: attendees.userId,
      price: attendees.price,
      isDiscountApplied: attendees.isDiscountApplied,
      ticketId: attendees.ticketId,
      ticketName: tickets.name,
      ticketType: tickets.type,
      isFeeAbsorbed: tickets.isFeeAbsorbed,
    })
    .from(attendees)
    .leftJoin(tickets, eq(tickets.id, attendees.ticketId))
    .where(and(eq(attendees.orderId, order.id), isNull(attendees.deletedAt)))
    .orderBy(asc(attendees.id));
  return {
    order,
    buyer: { email: buyer.email, name: buyer.name || fullName(buyer.firstName, buyer.lastName) || buyer.email },
    event: {
      name: event.name,
      identifier: event.identifier,
      startsAt: event.startsAt,
      endsAt: event.endsAt,
      timezone: event.timezone,
      locationName: event.locationName,
      online: event.online,
      currency,
      afterOrderMessage: event.afterOrderMessage,
    },
    seller,
    tax: tax ? { ...tax, name: tax.name ?? 'Tax' } : null,
    discount: row.discount?.code
      ? { code: row.discount.code, type: row.discount.type as AmountDiscount['type'], value: row.discount.value }
      : null,
    fee: fee ?? null,
    appName: row.appName ?? 'Open Event',
    holders: holders.map((h) => ({
      ...h,
      name: fullName(h.firstname, h.lastname) || h.email || 'Ticket holder',
      ticketId: h.ticketId ?? 0,
      ticketName: h.ticketName ?? 'Ticket',
      ticketType: h.ticketType ?? 'free',
      isFeeAbsorbed: h.isFeeAbsorbed ?? true,
    })),
  };
}

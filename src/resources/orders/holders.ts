/**
 * An order's ticket holders decide what it costs: when a holder is added to an open order, moved to another
 * ticket or removed, the order's amount is computed again from its holders (each at the price it was reserved at,
 * the discount code on the holders it lowered), with the event's fee and tax, in the same transaction. A holder
 * added to an order takes a ticket: the ticket is locked and what is left counted first, as create-order does.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { attendees, discountCodes, events, orders, tickets } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { conflict } from '../../jsonapi/index.js';
import { taken } from '../tickets/availability.js';
import { pricingOf } from './reserve.js';
import { orderAmounts } from './invoice-amounts.js';

/** Orders whose amount follows their holders; a placed or completed order keeps what the buyer agreed to. */
const OPEN = ['initializing', 'pending'];

/**
 * Locks the ticket a holder is about to take and refuses it when none is left (409), and answers the price of one
 * (a donation: its least amount).
 */
export async function takeTicket(db: Db, ticketId: number): Promise<number | null> {
  const [ticket] = await db
    .select({
      name: tickets.name,
      type: tickets.type,
      price: tickets.price,
      minPrice: tickets.minPrice,
      quantity: tickets.quantity,
      taken: taken(tickets.id),
    })
    .from(tickets)
    // Joined so that the statement names every column with its table (the count's subquery reads orders too).
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(eq(tickets.id, ticketId))
    .for('update', { of: tickets });
  if (!ticket) return null;
  if (ticket.quantity !== null && ticket.taken >= ticket.quantity)
    throw conflict(`Ticket "${ticket.name}" is sold out`, '/data/relationships/ticket');
  return ticket.type === 'free' ? 0 : ticket.type === 'donation' ? (ticket.minPrice ?? 0) : (ticket.price ?? 0);
}

/** Whether the live order is still open (its amount follows its holders). */
export async function isOpenOrder(db: Db, orderId: number): Promise<boolean> {
  const [order] = await db
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)));
  return !!order && OPEN.includes(order.status);
}

/** Computes the open order's amount again from its live holders (but `except`) and stores it. */
export async function recomputeOrder(db: Db, orderId: number, except?: number) {
  const [order] = await db
    .select({ eventId: orders.eventId, status: orders.status, discountCodeId: orders.discountCodeId })
    .from(orders)
    .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)))
    .for('update');
  if (!order || !OPEN.includes(order.status)) return;
  // Each holder at the price it was reserved at (a donation's amount too): the ticket's price may have changed since.
  const holders = await db
    .select({
      ticketId: tickets.id,
      ticketName: tickets.name,
      ticketType: tickets.type,
      isFeeAbsorbed: tickets.isFeeAbsorbed,
      price: sql<number>`coalesce(${attendees.price}, ${tickets.price}, 0)`.mapWith(Number),
      isDiscountApplied: attendees.isDiscountApplied,
    })
    .from(attendees)
    .innerJoin(tickets, eq(tickets.id, attendees.ticketId))
    .where(
      and(
        eq(attendees.orderId, orderId),
        isNull(attendees.deletedAt),
        except === undefined ? undefined : ne(attendees.id, except),
      ),
    )
    .orderBy(attendees.id);
  const [discount] = order.discountCodeId
    ? await db
        .select({ code: discountCodes.code, type: discountCodes.type, value: discountCodes.value })
        .from(discountCodes)
        .where(eq(discountCodes.id, order.discountCodeId))
    : [];
  const { tax, fee } = await pricingOf(db, order.eventId);
  const amount = orderAmounts(holders, {
    discount: discount ? { ...discount, type: discount.type as 'amount' | 'percent' } : null,
    tax: tax ? { ...tax, name: tax.name ?? '' } : null,
    fee: fee ?? null,
  });
  // Free is the mode of an order of nothing to pay: a paid holder makes the buyer choose how to pay, as create-order.
  await db
    .update(orders)
    .set({
      amount: amount.total,
      paymentMode: amount.total === 0 ? 'free' : sql`nullif(${orders.paymentMode}, 'free')`,
    })
    .where(eq(orders.id, orderId));
}

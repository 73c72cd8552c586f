/**
 * Reserving ticket lines (the checkout's create-order and the organizers' on-site orders): the tickets and codes are
 * read (locked in the caller's transaction when reserving), each line checked against its ticket, and the amounts
 * computed from the records by amounts.ts.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type attendees, events, taxes, tickets, ticketFees } from '../../../db/schema/index.js';
import type { Db } from '../../../plugins/db.js';
import { conflict, unprocessable, type Ctx } from '../../jsonapi/index.js';
import { holdsRole, roleIn } from '../events/access.js';
import { taken } from '../tickets/availability.js';
import { type OrderAmount, type PricedTicket, type Pricing, priceOrder } from './amounts.js';
import { type CheckoutInput, codeOf, type Line, linesOf, refuseAmount } from './checkout-input.js';
import { accessCodeFor, discountCodeFor } from './codes.js';

/**
 * The event's tax (when the event has tax enabled and its tax a rate) and the platform's service fee for the event's
 * currency and country (the reference's get_fee: both must match).
 */
export async function pricingOf(db: Db, eventId: number): Promise<Omit<Pricing, 'discount'>> {
  const [event] = await db
    .select({ currency: events.paymentCurrency, country: events.paymentCountry, taxEnabled: events.isTaxEnabled })
    .from(events)
    .where(eq(events.id, eventId));
  const [tax] = event?.taxEnabled
    ? await db
        .select({ name: taxes.name, rate: taxes.rate, included: taxes.isTaxIncludedInPrice })
        .from(taxes)
        .where(and(eq(taxes.eventId, eventId), isNull(taxes.deletedAt)))
    : [];
  const [fee] =
    event?.currency && event.country
      ? await db
          .select({ serviceFee: ticketFees.serviceFee, maximumFee: ticketFees.maximumFee })
          .from(ticketFees)
          .where(and(eq(ticketFees.currency, event.currency), eq(ticketFees.country, event.country)))
      : [];
  return {
    ...(tax && tax.rate !== null ? { tax: { name: tax.name, rate: tax.rate, included: tax.included } } : {}),
    ...(fee ? { fee } : {}),
  };
}

interface Loaded {
  eventId: number;
  organizer: boolean;
  rows: Map<number, PricedTicket & Record<string, unknown>>;
  pricing: Pricing;
  accessCode?: Awaited<ReturnType<typeof accessCodeFor>>;
}

/**
 * The tickets the lines name (locked for the transaction when `lock`), the event's tax and the platform's fee, and
 * the codes: 422 for a ticket that does not exist for the caller (deleted, of a draft the caller has no role in) or
 * of another event than the others.
 */
async function load(ctx: Ctx, db: Db, lines: Line[], input: CheckoutInput, lock: boolean): Promise<Loaded> {
  const query = db
    .select({
      id: tickets.id,
      eventId: tickets.eventId,
      name: tickets.name,
      type: tickets.type,
      price: tickets.price,
      minPrice: tickets.minPrice,
      maxPrice: tickets.maxPrice,
      quantity: tickets.quantity,
      minOrder: tickets.minOrder,
      maxOrder: tickets.maxOrder,
      isFeeAbsorbed: tickets.isFeeAbsorbed,
      salesStartsAt: tickets.salesStartsAt,
      salesEndsAt: tickets.salesEndsAt,
      onSale: sql<boolean>`${tickets.salesStartsAt} <= now() and now() <= ${tickets.salesEndsAt}`,
    })
    .from(tickets)
    .where(
      and(
        inArray(
          tickets.id,
          lines.map((l) => l.id),
        ),
        isNull(tickets.deletedAt),
      ),
    )
    .orderBy(asc(tickets.id));
  const found = await (lock ? query.for('update') : query);
  const rows = new Map(found.map((r) => [r.id, r]));
  const missing = (line: Line) => unprocessable(`Ticket ${line.id} not found`, `/tickets/${line.index}/id`);
  const first = rows.get(lines[0]!.id);
  if (!first) throw missing(lines[0]!);
  const eventId = first.eventId;
  for (const line of lines) {
    const row = rows.get(line.id);
    if (!row) throw missing(line);
    if (row.eventId !== eventId)
      throw unprocessable('All tickets of an order must be of the same event', `/tickets/${line.index}/id`);
  }
  // A draft's tickets exist only for its team; roleIn answers 404 for an event the caller may not see.
  await roleIn(ctx, eventId).catch(() => {
    throw missing(lines[0]!);
  });
  const organizer = await holdsRole(ctx, eventId, 'coorganizer');
  const { tax, fee } = await pricingOf(db, eventId);
  const discountNamed = codeOf(input['discount-code'], input.discount_code);
  const accessNamed = codeOf(input['access-code'], input.access_code);
  const discount = discountNamed
    ? await discountCodeFor(
        db,
        eventId,
        discountNamed,
        lines.map((l) => l.id),
        lock,
      )
    : undefined;
  const accessCode = accessNamed ? await accessCodeFor(db, eventId, accessNamed, lock) : undefined;
  return {
    eventId,
    organizer,
    rows,
    pricing: { ...(tax ? { tax } : {}), ...(fee ? { fee } : {}), ...(discount ? { discount } : {}) },
    ...(accessCode ? { accessCode } : {}),
  };
}

/** What the lines cost, read without locks (calculate-amount). */
export async function calculateAmount(ctx: Ctx, input: CheckoutInput): Promise<OrderAmount> {
  refuseAmount(input);
  const lines = linesOf(input);
  const loaded = await load(ctx, ctx.db, lines, input, false);
  return priceOrder(lines, loaded.rows, loaded.pricing);
}

/** Lines reserved for an order: its event, what it costs, its codes, and its ticket holders once it exists. */
export interface Reservation {
  eventId: number;
  amount: OrderAmount;
  discountCodeId: number | null;
  marketerId: number | null;
  accessCodeId: number | null;
  holders(orderId: number): (typeof attendees.$inferInsert)[];
}

/**
 * Reserves the lines in the caller's transaction (`ctx.db`): the tickets and codes are locked, each line is checked
 * against the ticket's sale period (organizers excepted), order limits and what is left, and the amounts are
 * computed. Answers what the order is to hold.
 */
export async function reserveLines(ctx: Ctx, input: CheckoutInput): Promise<Reservation> {
  refuseAmount(input);
  const lines = linesOf(input);
  if (!lines.some((l) => l.quantity > 0)) throw unprocessable('The order has no tickets', '/tickets');
  const tx = ctx.db;
  const loaded = await load(ctx, tx, lines, input, true);
  const { rows, organizer, eventId } = loaded;
  const ordered = lines.filter((l) => l.quantity > 0);
  // Joined so that the statement names every column with its table (the count's subquery reads orders too).
  const left = await tx
    .select({ id: tickets.id, taken: taken(tickets.id) })
    .from(tickets)
    .innerJoin(events, eq(events.id, tickets.eventId))
    .where(
      inArray(
        tickets.id,
        ordered.map((l) => l.id),
      ),
    );
  const takenOf = new Map(left.map((r) => [r.id, r.taken]));
  for (const line of ordered) checkLine(rows.get(line.id)!, line, organizer, takenOf.get(line.id) ?? 0);
  const discount = loaded.pricing.discount;
  if (discount) {
    const units = ordered.filter((l) => discount.ticketIds.has(l.id)).reduce((n, l) => n + l.quantity, 0);
    if (units < discount.minQuantity || (discount.maxQuantity !== null && units > discount.maxQuantity))
      throw unprocessable(
        `The discount code ${discount.code} applies to orders of ${discount.minQuantity} to ${discount.maxQuantity ?? 'any number'} of its tickets`,
        '/discount-code',
      );
  }
  const amount = priceOrder(ordered, rows, loaded.pricing);
  const access = loaded.accessCode;
  let accessLeft = access ? (access.remaining ?? Number.MAX_SAFE_INTEGER) : 0;
  if (access) {
    const wanted = ordered.filter((l) => access.ticketIds.has(l.id)).reduce((n, l) => n + l.quantity, 0);
    if (wanted > accessLeft)
      throw unprocessable(
        `The access code ${access.code} opens ${accessLeft} more ticket${accessLeft === 1 ? '' : 's'}`,
        '/access-code',
      );
  }
  const discounted = discount && amount.discount > 0 ? discount : undefined;
  return {
    eventId,
    amount,
    discountCodeId: discounted?.id ?? null,
    marketerId: discounted?.marketerId ?? null,
    accessCodeId: access?.id ?? null,
    holders: (orderId) =>
      ordered.flatMap((line, i) => {
        const priced = amount.tickets[i]!;
        return Array.from({ length: line.quantity }, (_, unit) => {
          const opened = access?.ticketIds.has(line.id) && accessLeft > 0;
          if (opened) accessLeft--;
          return {
            eventId,
            orderId,
            ticketId: line.id,
            price: priced.price,
            isDiscountApplied: unit < priced.discounted_quantity,
            isAccessCodeApplied: Boolean(opened),
          };
        });
      }),
  };
}

/** Refuses a line the ticket does not allow: off sale (organizers excepted), beyond its order limits or what is left. */
function checkLine(t: PricedTicket & Record<string, unknown>, line: Line, organizer: boolean, sold: number) {
  const at = `/tickets/${line.index}`;
  if (!organizer && !t.onSale)
    throw unprocessable(
      `Ticket "${t.name}" is on sale from ${(t.salesStartsAt as Date).toISOString()} to ${(t.salesEndsAt as Date).toISOString()}`,
      `${at}/id`,
    );
  const min = (t.minOrder as number | null) ?? 1;
  const max = t.maxOrder as number | null;
  if (line.quantity < min || (max !== null && line.quantity > max))
    throw unprocessable(`Ticket "${t.name}" is sold ${min} to ${max ?? 'any number'} at a time`, `${at}/quantity`);
  const quantity = t.quantity as number | null;
  if (quantity === null) return;
  const available = Math.max(0, quantity - sold);
  if (line.quantity > available)
    throw conflict(
      available === 0
        ? `Ticket "${t.name}" is sold out`
        : `Only ${available} of ticket "${t.name}" ${available === 1 ? 'is' : 'are'} left`,
      `${at}/quantity`,
    );
}

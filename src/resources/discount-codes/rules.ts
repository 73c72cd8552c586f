/** The rules of a discount code on its value and its tickets (the reference's DiscountCodeSchemaTicket validators). */
import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { discountCodes, discountCodesTickets, events, tickets } from '../../../db/schema/index.js';
import { integerId, unprocessable, type Ctx, type Row, type WriteInput } from '../../jsonapi/index.js';
import { after } from '../code-rules.js';

/** A percent lies between 0 and 100 (an amount's floor, 0, is its schema's). */
export function checkValue(values: Record<string, unknown>, current?: Row) {
  const value = Number(after(values, current, 'value'));
  if (after(values, current, 'type') === 'percent' && value > 100)
    throw unprocessable('A discount percent must be between 0 and 100', '/data/attributes/value');
}

/** The ids of the live tickets a stored code lowers. */
export async function storedTickets(ctx: Ctx, codeId: number): Promise<number[]> {
  const rows = await ctx.db
    .select({ id: discountCodesTickets.ticketId })
    .from(discountCodesTickets)
    .innerJoin(tickets, eq(tickets.id, discountCodesTickets.ticketId))
    .where(and(eq(discountCodesTickets.discountCodeId, codeId), isNull(tickets.deletedAt)));
  return rows.map((r) => r.id);
}

/**
 * The tickets of a ticket code: of the code's event, not free, and for an amount off, not cheaper than the amount.
 * Tickets that do not exist are left to the engine's 404.
 */
export async function checkTickets(
  ctx: Ctx,
  code: { eventId: unknown; type: unknown; value: unknown },
  ids: unknown[],
) {
  const wanted = ids
    .map((id) => (typeof id === 'number' ? id : integerId(id)))
    .filter((id): id is number => id !== undefined);
  if (wanted.length === 0) return;
  const rows = await ctx.db
    .select({ id: tickets.id, eventId: tickets.eventId, type: tickets.type, price: tickets.price })
    .from(tickets)
    .where(and(inArray(tickets.id, wanted), isNull(tickets.deletedAt)));
  const at = '/data/relationships/tickets';
  for (const ticket of rows) {
    if (ticket.eventId !== code.eventId)
      throw unprocessable(`Ticket ${ticket.id} is not a ticket of the discount code's event`, at);
    const price = Number(ticket.price ?? 0);
    if (ticket.type === 'free' || !(price > 0))
      throw unprocessable(`Ticket ${ticket.id} is free: a discount code cannot apply to it`, at);
    if (code.type === 'amount' && Number(code.value) > price)
      throw unprocessable(
        `The discount amount is more than the price of ticket ${ticket.id} (${price})`,
        '/data/attributes/value',
      );
  }
}

/** The events an event code names must exist and carry no other code (the reference's rule). */
export async function checkEvents(ctx: Ctx, input: WriteInput, codeId?: number) {
  const ids = (Array.isArray(input.relationships.events) ? input.relationships.events : [])
    .map((id) => integerId(id))
    .filter((id): id is number => id !== undefined);
  if (ids.length === 0) return;
  const [taken] = await ctx.db
    .select({ id: events.id })
    .from(events)
    .where(
      and(
        inArray(events.id, ids),
        isNotNull(events.discountCodeId),
        sql`${events.discountCodeId} in (select ${discountCodes.id} from ${discountCodes} where ${discountCodes.deletedAt} is null)`,
        codeId === undefined ? undefined : ne(events.discountCodeId, codeId),
      ),
    )
    .limit(1);
  if (taken) throw unprocessable(`Event ${taken.id} already has a discount code`, '/data/relationships/events');
}

/** Sales for the event invoices' tests: ticket fees, and completed orders of an event at given instants. */
import type { FastifyInstance } from 'fastify';
import { previousMonth } from '../../src/resources/event-invoices/issue.js';
import { create } from '../helpers/events.js';

/** The month just ended and the one before it (`YYYY-MM`), and an instant in the middle of each. */
export const LAST_MONTH = previousMonth();
export const MONTH_BEFORE = previousMonth(new Date(`${LAST_MONTH}-15T12:00:00Z`));
export const inMonth = (month: string, day = 15) => `${month}-${String(day).padStart(2, '0')}T12:00:00Z`;

/** A ticket fee, made by an administrator through the API. */
export const makeFee = (app: FastifyInstance, adminToken: string, attributes: Record<string, unknown>) =>
  create(app, adminToken, 'ticket-fees', 'ticket-fee', attributes);

/** Sets the event's payment currency and country (what decides its fee). */
export async function sellsIn(app: FastifyInstance, eventId: string, currency: string, country: string | null) {
  await app.sql`update events set payment_currency = ${currency}, payment_country = ${country} where id = ${Number(eventId)}`;
}

/** An order of the event by `buyer`, with its amount and status, completed at `completedAt` (when given). */
export async function sale(
  app: FastifyInstance,
  eventId: string,
  buyer: string,
  amount: number,
  completedAt: string | null,
  status = 'completed',
): Promise<number> {
  const [row] = await app.sql<{ id: number }[]>`
    insert into orders (identifier, amount, status, event_id, user_id, completed_at, payment_mode)
    values (gen_random_uuid()::text, ${amount}, ${status}, ${Number(eventId)}, ${Number(buyer)}, ${completedAt}, 'bank')
    returning id`;
  return row!.id;
}

/** The matrix's event invoice (issue 43): one of the published event, billed to its owner, and how its writes are called. */
import type { FastifyInstance } from 'fastify';
import { previousMonth } from '../../src/resources/event-invoices/issue.js';
import type { Recipe } from './matrix.js';
import { document, update } from './matrix-writes.js';

/** A due invoice of `eventId` for a long-past month, billed to `ownerId` (the event's owner). */
export async function invoiceIds(
  app: FastifyInstance,
  eventId: string,
  ownerId: string,
): Promise<Record<string, string>> {
  const [row] = await app.sql<{ id: number }[]>`
    insert into event_invoices (identifier, amount, user_id, event_id, month, issued_at)
    values ('200002U-000001', 12.5, ${Number(ownerId)}, ${Number(eventId)}, '2000-01', '2000-02-01T00:00:00Z')
    returning id`;
  return { 'event-invoices': String(row!.id) };
}

/** The writes of the invoices: an update that keeps it due (so the payment routes meet a due invoice), a month's run. */
export function invoiceRecipes(ids: Record<string, string>): Record<string, Recipe> {
  const id = ids['event-invoices']!;
  const payment = (type: string) => () => ({ document: { data: { type, attributes: { paypal_payer_id: 'P1' } } } });
  return {
    'POST /v1/event-invoices': () => document('event-invoice', { status: 'due' }),
    'PATCH /v1/event-invoices/{id}': () => update('event-invoice', id, { status: 'due', 'payment-mode': null }),
    'DELETE /v1/event-invoices/{id}': () => ({}),
    'POST /v1/event-invoices/monthly-run': () => document('event-invoice-run', { month: previousMonth() }),
    'POST /v1/event-invoices/{identifier}/charge': payment('charge'),
    'POST /v1/event-invoices/{identifier}/create-paypal-payment': payment('paypal-payment'),
  };
}

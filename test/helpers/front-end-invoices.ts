/**
 * The front-end world's event invoices (issue 43): two of its event, billed to its owner, as a month's run leaves them
 * (src/resources/event-invoices/issue.ts), with their PDFs made by the service: one due (the review page) and one
 * an administrator marked paid (the paid page).
 */
import type { FastifyInstance } from 'fastify';
import { makeMissingPdfs } from '../../src/resources/event-invoices/issue.js';

export interface FrontEndInvoices {
  due: string;
  paid: string;
}

export async function seedInvoices(app: FastifyInstance, eventId: string, ownerId: string): Promise<FrontEndInvoices> {
  const rows = await app.sql<{ identifier: string; month: string }[]>`
    insert into event_invoices (identifier, amount, user_id, event_id, month, issued_at, status, completed_at, paid_via, payment_mode)
    values
      ('200002U-000001', 12.5, ${Number(ownerId)}, ${Number(eventId)}, '2000-01', '2000-02-01T00:00:00Z', 'due', null, null, null),
      ('200003U-000002', 20, ${Number(ownerId)}, ${Number(eventId)}, '2000-02', '2000-03-01T00:00:00Z', 'paid',
        '2000-03-10T09:00:00Z', 'transfer', 'bank transfer')
    returning identifier, month`;
  for (const { month } of rows) await makeMissingPdfs(app, month);
  return { due: rows[0]!.identifier, paid: rows[1]!.identifier };
}

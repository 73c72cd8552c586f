/** The administrators' list of event invoices (the reference's app/api/admin_sales/invoices.py). */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { eventInvoices } from '../../../db/schema/index.js';
import { DateTime, Nullable, Text, defineResource } from '../../jsonapi/index.js';
import { INVOICE_STATUSES } from '../event-invoices/index.js';
import { choice } from '../attributes.js';
import { reportPolicy } from '../statistics/figures.js';

export const adminSalesInvoicesResource = defineResource({
  type: 'admin-sales-invoice',
  path: 'admin/sales/invoices',
  self: 'admin/sales/invoices',
  routes: 'list',
  name: 'AdminSalesInvoice',
  tag: 'Admin sales',
  description:
    'Every event invoice in brief, for administrators and those the sales panel is open to (401 without a login, 403 for anyone else): its number, status, ' +
    "amount and dates, the event's name and to whom it was sent. The id is the invoice's.",
  table: eventInvoices,
  softDelete: 'deletedAt',
  attributes: {
    identifier: { column: 'identifier', schema: Text(32), readOnly: true },
    status: { column: 'status', schema: choice(INVOICE_STATUSES, 'the invoice status'), readOnly: true },
    amount: { column: 'amount', schema: Type.Number({ minimum: 0, description: 'the fee billed' }), readOnly: true },
    'created-at': { column: 'createdAt', schema: DateTime(), readOnly: true },
    'completed-at': { column: 'completedAt', schema: Nullable(DateTime()), readOnly: true },
    'event-name': {
      select: (t) => sql`(select e.name from events e where e.id = ${t.eventId})`,
      schema: Nullable(Text(255, { description: "the event's name" })),
      readOnly: true,
    },
    'sent-to': {
      select: (t) =>
        sql`(select trim(concat_ws(' ', u.first_name, u.last_name)) || ' <' || u.email || '>' from users u
          where u.id = ${t.userId})`,
      schema: Nullable(Text(600, { description: 'the name and address of the user billed: `Name <email>`' })),
      readOnly: true,
    },
  },
  policy: reportPolicy(undefined, 'sales'),
});

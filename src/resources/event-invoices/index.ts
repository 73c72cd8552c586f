import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { eventInvoices } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { requirePanel, seesPanel } from '../../auth/panels.js';
import {
  DateTime,
  INT4_MAX,
  Nullable,
  Text,
  Url,
  defineResource,
  forbidden,
  type AttributeSpec,
  type Columns,
  type Ctx,
} from '../../jsonapi/index.js';
import { choice } from '../attributes.js';
import { DUE_DATE_DAYS } from './issue.js';

export const INVOICE_STATUSES = ['due', 'paid', 'refunding', 'refunded', 'failed', 'resolved'] as const;
/** How an administrator records the payment of an invoice that arrived outside this service. */
export const OFFLINE_PAID_VIA = ['transfer', 'cheque', 'onsite', 'offline'] as const;

const server = (column: string, schema: AttributeSpec['schema']): AttributeSpec => ({ column, schema, readOnly: true });
const NONE = 'always null: no card or PayPal payment is taken on this server';

/**
 * The invoices a caller may see: administrators (and those the sales panel is open to) all, others those billed to them and those of the events they own or
 * organize (the owner's row of event_roles follows the event's owner). Columns qualified by hand: a one-table read
 * leaves drizzle's unqualified.
 */
function visible(ctx: Ctx, t: Columns) {
  if (seesPanel(ctx.caller, 'sales')) return undefined;
  if (!ctx.caller) return sql`false`;
  const id = ctx.caller.id;
  return sql`(${t.userId} = ${id} or ${t.eventId} in (select r.event_id from event_roles r
    where r.user_id = ${id} and r.role in ('owner', 'organizer')))`;
}

const byServer = () => {
  throw forbidden(
    'Event invoices are issued by the server each month (administrators may run a month: /v1/event-invoices/monthly-run)',
  );
};

export const eventInvoiceResource = defineResource({
  type: 'event-invoice',
  path: 'event-invoices',
  name: 'EventInvoice',
  tag: 'Event invoices',
  description:
    "The monthly invoice of the platform's ticket fee on an event's sales: issued by the server on the 1st of each " +
    "month for the month just ended (the percent of the ticket fee of the event's currency and country, else the " +
    "global one, of its completed orders, at most the maximum fee; none below 2), billed to the event's owner, with " +
    'its PDF. The owner and organizers of the event see its invoices, administrators and the sales panel all (others 404); only ' +
    'administrators change one, marking it paid when the payment arrives (offline: no payment provider is ' +
    'configured here). Every /v1/event-invoices/{id} path also takes the identifier.',
  table: eventInvoices,
  alternateKey: 'identifier',
  softDelete: 'deletedAt',
  attributes: {
    identifier: server('identifier', Text(32, { description: 'the invoice number, `YYYYMMU-000001`' })),
    amount: server(
      'amount',
      Type.Number({ minimum: 0, maximum: 9_999_999_999.99, description: 'the fee billed, computed by the server' }),
    ),
    month: server('month', Text(7, { description: 'the month whose sales it bills, `YYYY-MM` (UTC)' })),
    status: {
      column: 'status',
      schema: choice(
        INVOICE_STATUSES,
        'due (issued), paid, refunding, refunded, failed or resolved; administrators set it (paid: completed-at is now)',
      ),
    },
    'created-at': server('createdAt', DateTime()),
    'issued-at': server('issuedAt', DateTime({ description: 'the first instant after the month it bills' })),
    'due-at': {
      select: (t) => sql`${t.issuedAt} + ${`${DUE_DATE_DAYS} days`}::interval`,
      schema: DateTime({ description: `when it is due: ${DUE_DATE_DAYS} days after issued-at` }),
      readOnly: true,
    },
    'completed-at': server('completedAt', Nullable(DateTime({ description: 'when it was marked paid' }))),
    'paid-via': {
      column: 'paidVia',
      schema: Type.Union([...OFFLINE_PAID_VIA.map((v) => Type.Literal(v)), Type.Null()], {
        description: 'how the payment arrived (offline when marked paid without one); administrators set it',
      }),
    },
    'payment-mode': {
      column: 'paymentMode',
      schema: Nullable(Text(32, { description: 'the payment method in words; offline when marked paid without one' })),
    },
    'transaction-id': {
      column: 'transactionId',
      schema: Nullable(
        Text(255, { description: "the payment's reference (a bank transfer's), as administrators note it" }),
      ),
    },
    brand: server('brand', Nullable(Text(32, { description: NONE }))),
    'exp-month': server('expMonth', Nullable(Type.Integer({ minimum: 0, maximum: 12, description: NONE }))),
    'exp-year': server('expYear', Nullable(Type.Integer({ minimum: 0, maximum: INT4_MAX, description: NONE }))),
    last4: server('last4', Nullable(Text(4, { description: NONE }))),
    'stripe-token': server('stripeToken', Nullable(Text(255, { description: NONE }))),
    'paypal-token': server('paypalToken', Nullable(Text(255, { description: NONE }))),
    'invoice-pdf-url': server('invoicePdfUrl', Nullable(Url({ description: 'the PDF, made when it is issued' }))),
  },
  relationships: {
    user: { kind: 'toOne', type: 'user', column: 'userId', readOnly: true, description: 'whom it bills: the owner' },
    event: { kind: 'toOne', type: 'event', column: 'eventId', readOnly: true, description: 'whose sales it bills' },
  },
  policy: {
    scope: visible,
    existsFor: visible,
    list: requirePanel('sales'),
    listRelated: loggedIn,
    read: (ctx) => void loggedIn(ctx),
    create: byServer,
    update(ctx) {
      if (!isStaff(loggedIn(ctx)))
        throw forbidden('Only administrators change an event invoice: its amount and status are decided by the server');
    },
    delete() {
      throw forbidden('Event invoices are kept: an administrator sets the status (resolved, refunded) instead');
    },
  },
  hooks: {
    beforeUpdate(_ctx, row, values) {
      const to = values.status as string | undefined;
      if (to === undefined || to === row.status) return;
      if (to === 'paid') {
        values.completedAt = new Date();
        values.paidVia ??= row.paidVia ?? 'offline';
        values.paymentMode ??= row.paymentMode ?? 'offline';
      } else if (to === 'due') {
        values.completedAt = null;
        values.paidVia = null;
      }
    },
  },
  unique: {
    event_invoices_identifier_unique: { pointer: '/data/attributes/identifier', detail: 'Another invoice has it' },
  },
});

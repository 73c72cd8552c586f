import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ORDER_STATUSES, orders, orderTickets, PAYMENT_MODES, type Attendee } from '../../../db/schema/index.js';
import { DateTime, Email, Nullable, Text, Url, defineResource, type AttributeSpec } from '../../jsonapi/index.js';
import { choice, createdAt, deletedAt, eventOf, flexibleBoolean, optionalText } from '../attributes.js';
import { sendOrderConfirmation } from './documents/confirmation.js';
import { ticketsPdfUrl } from './documents/urls.js';
import { releaseTickets } from './expiry.js';
import { holdOnsite, isOnsite, onSiteTicketsAttribute, onsiteParameters, reserveOnsite } from './onsite.js';
import { orderPolicy } from './policy.js';
import { orderActivity } from '../activity-lines.js';

const AttendeeSchema = Type.Object(
  {
    name: Type.String({ maxLength: 255, pattern: '\\S', description: 'name on the ticket (not blank)' }),
    email: Email({ description: 'where the attendee receives the receipt' }),
  },
  { additionalProperties: false },
);

/** What only a payment provider's answer fills in: this service takes no payments, so they stay null. */
const paymentDetail = (column: string, description: string): AttributeSpec => ({
  column,
  schema: Nullable(Text(32, { description: `${description}; set by the server from the payment` })),
  readOnly: true,
});

export const orderResource = defineResource({
  type: 'order',
  path: 'orders',
  name: 'Order',
  tag: 'Orders',
  description:
    'A ticket order for an event and its attendees. The buyer (the caller who creates it) sees their own ' +
    'orders, the organizers and coorganizers of the event see its orders, administrators see all. Every ' +
    '/v1/orders/{id} path also takes the order identifier.',
  table: orders,
  activity: orderActivity,
  alternateKey: 'identifier',
  softDelete: 'deletedAt',
  attributes: {
    identifier: {
      column: 'identifier',
      schema: Type.String({ description: 'unique, generated; names the order in paths and receipts' }),
      readOnly: true,
    },
    amount: {
      column: 'amount',
      schema: Type.Number({
        minimum: 0,
        maximum: 9_999_999_999.99,
        default: 0,
        description:
          'what the order costs: computed by the server from its ticket holders, discount code, fees and tax (read-only)',
      }),
      readOnly: true,
    },
    status: {
      column: 'status',
      schema: choice(
        ORDER_STATUSES,
        'initializing (default), pending, placed, completed, cancelled or expired; set by organizers only',
      ),
    },
    'cancel-note': optionalText(
      'cancelNote',
      10_000,
      "the organizers' message to the buyer when they cancel the order; set by organizers only",
    ),
    'payment-mode': {
      column: 'paymentMode',
      // One flat union of the methods and null: a nested union would not be sortable or filterable.
      schema: Type.Union([...PAYMENT_MODES.map((mode) => Type.Literal(mode)), Type.Null()], {
        description:
          'how the order is paid: free for an order of nothing to pay, else an offline method the event accepts ' +
          '(bank, cheque, invoice, onsite); null while the buyer of a paid order has not chosen',
      }),
    },
    attendees: {
      column: 'attendees',
      schema: Type.Array(AttendeeSchema, {
        maxItems: 500,
        description: 'the ticket holders; each receives the receipt',
      }),
      write: (value) => ({
        attendees: (value as Attendee[]).map((a) => ({ name: a.name.trim(), email: a.email.trim() })),
      }),
    },
    company: optionalText('company', 255, 'billing: company'),
    'tax-business-info': optionalText('taxBusinessInfo', 255, 'billing: tax or VAT number'),
    address: optionalText('address', 1024, 'billing: street address'),
    city: optionalText('city', 255, 'billing: city'),
    state: optionalText('state', 255, 'billing: state or region'),
    country: optionalText('country', 255, 'billing: country'),
    zipcode: optionalText('zipcode', 32, 'billing: postal code'),
    'is-billing-enabled': flexibleBoolean('isBillingEnabled', 'the buyer gives billing details (default false)'),
    'exp-month': paymentDetail('expMonth', 'expiry month of the card paid with'),
    'exp-year': paymentDetail('expYear', 'expiry year of the card paid with'),
    brand: paymentDetail('brand', 'brand of the card paid with'),
    last4: paymentDetail('last4', 'last four digits of the card paid with'),
    'paid-via': paymentDetail('paidVia', 'the payment method the provider reports'),
    'order-notes': optionalText(
      'orderNotes',
      10_000,
      "the organizers' notes on the order, comma-separated; written by organizers only",
    ),
    'transaction-id': {
      column: 'transactionId',
      schema: Nullable(Text(255, { description: "the payment provider's id of the payment; set by the server" })),
      readOnly: true,
    },
    'discount-code-id': {
      column: 'discountCodeId',
      schema: Nullable(
        Type.Integer({
          minimum: 1,
          description: 'the id of the discount code applied (as discount-code); set by the server',
        }),
      ),
      readOnly: true,
    },
    'tickets-pdf-url': {
      select: ticketsPdfUrl,
      schema: Nullable(
        Url({
          description:
            'where the tickets are downloaded as PDF (GET /v1/orders/{identifier}/tickets-pdf) once the order is ' +
            'placed or completed; null before',
        }),
      ),
      readOnly: true,
    },
    'completed-at': {
      column: 'completedAt',
      schema: Nullable(DateTime({ description: 'when the order became completed' })),
      readOnly: true,
    },
    'created-at': createdAt,
    'deleted-at': deletedAt,
    'on-site-tickets': onSiteTicketsAttribute,
  },
  relationships: {
    event: eventOf,
    user: {
      kind: 'toOne',
      type: 'user',
      column: 'userId',
      readOnly: true,
      callerOnCreate: true,
      description: 'the buyer: the caller who creates the order (a create may name the caller)',
    },
    marketer: {
      kind: 'toOne',
      type: 'user',
      column: 'marketerId',
      readOnly: true,
      description:
        'the marketer (maker) of the discount code that lowered the order, if any; set by the server; the ' +
        "administrators' sales by marketer sum these",
    },
    'discount-code': {
      kind: 'toOne',
      type: 'discount-code',
      column: 'discountCodeId',
      readOnly: true,
      description: 'the discount code applied to the order, if any; set by the server when it computes the order',
    },
    'access-code': {
      kind: 'toOne',
      type: 'access-code',
      column: 'accessCodeId',
      readOnly: true,
      description: "the access code that showed the order's hidden tickets, if any; set by the server",
    },
    'event-invoice': {
      kind: 'toOne',
      type: 'event-invoice',
      column: 'eventInvoiceId',
      readOnly: true,
      description:
        "the monthly invoice of the event's ticket fees that billed the order, once it is issued (set by the server)",
    },
    attendees: {
      kind: 'toMany',
      type: 'attendee',
      foreignKey: 'orderId',
      readOnly: true,
      emptyIgnored: true,
      description: 'the ticket holders (attendee records) of the order; a ticket holder names its order',
    },
    tickets: {
      kind: 'toMany',
      type: 'ticket',
      through: { table: orderTickets, from: 'orderId', to: 'ticketId' },
      readOnly: true,
      description: "the tickets the order's ticket holders hold, once each",
    },
  },
  policy: orderPolicy,
  createParameters: onsiteParameters,
  hooks: {
    async beforeCreate(ctx, values, input) {
      values.identifier = randomUUID();
      values.userId = ctx.caller!.id;
      if (isOnsite(ctx)) await reserveOnsite(ctx, values, input);
    },
    afterCreate: holdOnsite,
    async beforeUpdate(ctx, row, values) {
      const to = values.status;
      if (to === undefined || to === row.status) return;
      if (to === 'completed') values.completedAt = new Date();
      if (to === 'cancelled') await releaseTickets(ctx.db, row.id as number);
      if (to === 'completed' || to === 'placed')
        await sendOrderConfirmation(ctx.request.server, row.id as number, ctx.db);
    },
  },
  updateFailures: {
    410: "The order expired (the settings' order expiry time passed): its tickets are on sale again",
  },
  unique: { orders_identifier_unique: { pointer: '/data/attributes/identifier', detail: 'The identifier is taken' } },
});

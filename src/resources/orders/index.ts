import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { ORDER_STATUSES, orders, orderTickets, PAYMENT_MODES, type Attendee } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/resource.js';
import { DateTime, Email, Nullable } from '../../jsonapi/types.js';
import { choice, createdAt, deletedAt, eventOf } from '../attributes.js';
import { orderPolicy } from './policy.js';

const AttendeeSchema = Type.Object(
  {
    name: Type.String({ maxLength: 255, pattern: '\\S', description: 'name on the ticket (not blank)' }),
    email: Email({ description: 'where the attendee receives the receipt' }),
  },
  { additionalProperties: false },
);

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
      schema: Type.Number({ minimum: 0, maximum: 9_999_999_999.99, description: 'total, rounded to cents' }),
    },
    status: {
      column: 'status',
      schema: choice(ORDER_STATUSES, 'initializing (default), pending, placed, completed, cancelled or expired; set by organizers only'),
    },
    'payment-mode': { column: 'paymentMode', schema: choice(PAYMENT_MODES, 'how the order is paid (default free)') },
    attendees: {
      column: 'attendees',
      schema: Type.Array(AttendeeSchema, { maxItems: 500, description: 'the ticket holders; each receives the receipt' }),
      write: (value) => ({
        attendees: (value as Attendee[]).map((a) => ({ name: a.name.trim(), email: a.email.trim() })),
      }),
    },
    'completed-at': {
      column: 'completedAt',
      schema: Nullable(DateTime({ description: 'when the order became completed' })),
      readOnly: true,
    },
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    user: { kind: 'toOne', type: 'user', column: 'userId', readOnly: true, description: 'the buyer; the caller who created the order' },
    attendees: {
      kind: 'toMany', type: 'attendee', foreignKey: 'orderId', readOnly: true,
      description: 'the ticket holders (attendee records) of the order; a ticket holder names its order',
    },
    tickets: {
      kind: 'toMany', type: 'ticket', through: { table: orderTickets, from: 'orderId', to: 'ticketId' }, readOnly: true,
      description: "the tickets the order's ticket holders hold, once each",
    },
  },
  policy: orderPolicy,
  hooks: {
    beforeCreate(ctx, values) {
      values.identifier = randomUUID();
      values.userId = ctx.caller!.id;
      if (values.status === 'completed') values.completedAt = new Date();
    },
    beforeUpdate(_ctx, row, values) {
      if (values.status === 'completed' && row.status !== 'completed') values.completedAt = new Date();
    },
  },
  unique: { orders_identifier_unique: { pointer: '/data/attributes/identifier', detail: 'The identifier is taken' } },
});

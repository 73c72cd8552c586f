import { Type } from '@sinclair/typebox';
import { and, not, or } from 'drizzle-orm';
import {
  accessCodesTickets,
  discountCodesTickets,
  orderTickets,
  TICKET_TYPES,
  ticketTagging,
  tickets,
} from '../../../db/schema/index.js';
import { isStaff } from '../../auth/caller.js';
import {
  DateTime,
  Nullable,
  defineResource,
  type AttributeSpec,
  type Columns,
  type Ctx,
  type ToManySpec,
} from '../../jsonapi/index.js';
import {
  choice,
  deletedAt,
  eventOf,
  flexibleBoolean,
  optionalInteger,
  optionalText,
  requiredText,
} from '../attributes.js';
import { inManagedEvent, inVisibleEvent, requireRole } from '../events/access.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { unlockedTickets } from '../access-codes/policy.js';
import { checkTicket } from './rules.js';

const amount = (column: string, description: string): AttributeSpec => ({
  column,
  schema: Nullable(Type.Number({ minimum: 0, maximum: 9_999_999_999.99, description })),
});
const count = (column: string, description: string) => optionalInteger(column, description, 0);

/**
 * Tickets that exist for the caller: those of visible events, hidden ones only for the event's organizers and, in the
 * request that presents an access code by its text, the hidden tickets that code shows.
 */
function ticketVisible(ctx: Ctx, t: Columns) {
  const event = inVisibleEvent(ctx, t.eventId!);
  if (isStaff(ctx.caller)) return event;
  return and(event, or(not(t.isHidden!), inManagedEvent(ctx.caller, t.eventId!), unlockedTickets(ctx, t)));
}

const records = eventRecordPolicy();

/** A read-only list of the ticket's records through a link table, for the event's organizers and coorganizers only. */
const forTheTeam = (
  type: string,
  table: NonNullable<ToManySpec['through']>['table'],
  to: string,
  description: string,
): ToManySpec => ({
  kind: 'toMany',
  type,
  through: { table, from: 'ticketId', to },
  readOnly: true,
  description: `${description}; the event's organizers and coorganizers only`,
  guard: (ctx, row) => requireRole(ctx, row.eventId as number, 'coorganizer'),
});

export const ticketResource = defineResource({
  type: 'ticket',
  path: 'tickets',
  name: 'Ticket',
  tag: 'Tickets',
  description:
    'A kind of ticket an event sells. Readable where the event is; hidden tickets exist only for the ' +
    "event's organizers, coorganizers and administrators (404 for everyone else). Written by the event's " +
    'organizers and coorganizers. max-order must not be below min-order, quantity must be positive and ' +
    'not below min-order or max-order, a paid ticket needs a price, a donation min-price not above ' +
    'max-price, and sales end after they start: checked on create and on update against the stored values.',
  table: tickets,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    type: { column: 'type', schema: choice(TICKET_TYPES, 'free (default), paid or donation') },
    description: optionalText('description', 100_000),
    price: amount('price', 'price of a paid ticket; greater than 0 when type is paid'),
    quantity: count('quantity', 'how many tickets are for sale; greater than 0'),
    'min-order': count('minOrder', 'fewest tickets of this kind per order'),
    'max-order': count('maxOrder', 'most tickets of this kind per order; not below min-order'),
    'min-price': amount('minPrice', 'lowest donation'),
    'max-price': amount('maxPrice', 'highest donation; not below min-price'),
    position: optionalInteger('position', 'display order', 0),
    'is-description-visible': flexibleBoolean(
      'isDescriptionVisible',
      'whether buyers see the description (default true)',
    ),
    'is-hidden': flexibleBoolean('isHidden', "hidden tickets exist only for the event's organizers (default false)"),
    'is-fee-absorbed': flexibleBoolean('isFeeAbsorbed', 'whether the organizer pays the service fee (default false)'),
    'sales-starts-at': { column: 'salesStartsAt', schema: DateTime(), required: true },
    'sales-ends-at': {
      column: 'salesEndsAt',
      schema: DateTime({ description: 'after sales-starts-at' }),
      required: true,
    },
    'form-id': optionalText('formId', 255, 'the custom form of the ticket holders'),
    'badge-id': optionalText('badgeId', 255, 'the badge design of the ticket'),
    'is-checkin-restricted': flexibleBoolean(
      'isCheckinRestricted',
      'whether holders may check in only on the days the ticket is for (default false)',
    ),
    'auto-checkin-enabled': flexibleBoolean(
      'autoCheckinEnabled',
      'whether holders are checked in when their ticket is scanned (default false)',
    ),
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    'ticket-tags': {
      kind: 'toMany',
      type: 'ticket-tag',
      through: { table: ticketTagging, from: 'ticketId', to: 'ticketTagId' },
      within: 'event',
      description: "the event's labels on this ticket",
    },
    attendees: {
      kind: 'toMany',
      type: 'attendee',
      foreignKey: 'ticketId',
      readOnly: true,
      description: 'the holders of this ticket (as far as the caller may see them)',
    },
    orders: forTheTeam('order', orderTickets, 'orderId', 'the orders holding this ticket'),
    'discount-codes': forTheTeam(
      'discount-code',
      discountCodesTickets,
      'discountCodeId',
      'the discount codes that lower this ticket (set on the code)',
    ),
    'access-codes': forTheTeam(
      'access-code',
      accessCodesTickets,
      'accessCodeId',
      'the access codes that show this ticket (set on the code)',
    ),
    'order-statistics': {
      kind: 'toOne',
      type: 'order-statistics-ticket',
      foreignKey: 'id',
      readOnly: true,
      description: "the ticket's holders, orders and sales by status; the event's organizers and coorganizers only",
      guard: (ctx, row) => requireRole(ctx, row.eventId as number, 'coorganizer'),
    },
  },
  policy: { ...records, scope: ticketVisible, existsFor: ticketVisible },
  hooks: {
    beforeCreate: (_ctx, values) => checkTicket(values),
    beforeUpdate: (_ctx, row, values) => checkTicket(values, row),
  },
});

import { sql } from 'drizzle-orm';
import { attendees, events, orders, tickets } from '../../../db/schema/index.js';
import { defineResource, type Columns, type Ctx } from '../../jsonapi/index.js';
import { inManagedEvent } from '../events/access.js';
import { computedPolicy, eventIdentifier, countOf, figureMembers, figureSchema, sumOf } from './figures.js';

/** The live orders of the event `t`. */
const ofEvent = (t: Columns) => sql`${orders.eventId} = ${t.id} and ${orders.deletedAt} is null`;

/**
 * The order figures of an event's dashboard and tickets page (the reference's OrderStatisticsEventSchema):
 * its live orders, their ticket holders and their amounts, by order status, computed in the statement that reads them.
 */
export const orderStatisticsEventResource = defineResource({
  type: 'order-statistics-event',
  path: 'order-statistics-event',
  self: 'events/{id}/order-statistics',
  routes: 'none',
  name: 'OrderStatisticsEvent',
  tag: 'Event statistics',
  description:
    "An event's orders, tickets sold and sales by order status; its id is the event's. Only the event's owner, " +
    'organizers and coorganizers and administrators read them (`/v1/events/{id}/order-statistics`, or ' +
    '`include=order-statistics` on events, which leaves them out for anyone else).',
  table: events,
  softDelete: 'deletedAt',
  attributes: {
    identifier: eventIdentifier,
    orders: {
      select: (t) =>
        sql`(select json_build_object(${figureMembers(orders.status, countOf)}) from ${orders} where ${ofEvent(t)})`,
      schema: figureSchema('live orders'),
      readOnly: true,
    },
    tickets: {
      select: (t) =>
        sql`(select json_build_object(${figureMembers(orders.status, countOf)}, 'max', (select coalesce(sum(${tickets.quantity}), 0)
          from ${tickets} where ${tickets.eventId} = ${t.id} and ${tickets.deletedAt} is null))
          from ${attendees} join ${orders} on ${orders.id} = ${attendees.orderId}
          where ${ofEvent(t)} and ${attendees.deletedAt} is null)`,
      schema: figureSchema('tickets held in live orders (their live ticket holders)', {
        max: 'tickets for sale: the quantities of the live tickets, summed',
      }),
      readOnly: true,
    },
    sales: {
      select: (t) =>
        sql`(select json_build_object(${figureMembers(orders.status, sumOf(orders.amount))}) from ${orders} where ${ofEvent(t)})`,
      schema: figureSchema('amounts of live orders'),
      readOnly: true,
    },
  },
  policy: computedPolicy((ctx: Ctx, t) => inManagedEvent(ctx.caller, t.id!)),
});

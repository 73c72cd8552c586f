import { sql } from 'drizzle-orm';
import { attendees, orders, tickets } from '../../../db/schema/index.js';
import { defineResource, type Columns, type Ctx } from '../../jsonapi/index.js';
import { inManagedEvent } from '../events/access.js';
import { computedPolicy, countOf, figureMembers, figureSchema } from './figures.js';

/** The live holders of the ticket `t` in live orders, joined to their orders. */
const holders = (t: Columns) =>
  sql`from ${attendees} join ${orders} on ${orders.id} = ${attendees.orderId} and ${orders.deletedAt} is null
    where ${attendees.ticketId} = ${t.id} and ${attendees.deletedAt} is null`;

/**
 * The order figures of one ticket (the reference's OrderStatisticsTicketSchema): its holders, the orders they
 * are in and what they sold, by order status, computed in the statement that reads them.
 */
export const orderStatisticsTicketResource = defineResource({
  type: 'order-statistics-ticket',
  path: 'order-statistics-ticket',
  self: 'tickets/{id}/order-statistics',
  routes: 'none',
  name: 'OrderStatisticsTicket',
  tag: 'Event statistics',
  description:
    "A ticket's holders, orders and sales by order status; its id is the ticket's. Only the owner, organizers and " +
    "coorganizers of the ticket's event and administrators read them (`/v1/tickets/{id}/order-statistics`, or " +
    '`include=order-statistics` on tickets, which leaves them out for anyone else).',
  table: tickets,
  softDelete: 'deletedAt',
  attributes: {
    tickets: {
      select: (t) => sql`(select json_build_object(${figureMembers(orders.status, countOf)}) ${holders(t)})`,
      schema: figureSchema('live holders of the ticket in live orders'),
      readOnly: true,
    },
    orders: {
      select: (t) =>
        sql`(select json_build_object(${figureMembers(orders.status, (only) => sql`count(distinct ${orders.id}) filter (where ${only})`)}) ${holders(t)})`,
      schema: figureSchema('live orders holding the ticket'),
      readOnly: true,
    },
    // Each holder paid the ticket's price (the reference: the price less a discount code's value; discount
    // codes come with issue #41). The price multiplies the count: an aggregate of the outer row alone would be
    // the outer query's.
    sales: {
      select: (t) =>
        sql`(select json_build_object(${figureMembers(orders.status, (only) => sql`coalesce(${t.price}, 0) * ${countOf(only)}`)}) ${holders(t)})`,
      schema: figureSchema("the ticket's price times its holders"),
      readOnly: true,
    },
  },
  policy: computedPolicy((ctx: Ctx, t) => inManagedEvent(ctx.caller, t.eventId!)),
});

/** The sales figures of the administrators' reports, in SQL: live orders, their amounts and their ticket holders. */
import { Type } from '@sinclair/typebox';
import { sql, type SQL } from 'drizzle-orm';
import { attendees, orders } from '../../../db/schema/index.js';
import { constant, type Columns } from '../../jsonapi/index.js';

/** The order statuses the reports sum up, as the reference's do. */
export const SALE_STATUSES = ['placed', 'completed', 'pending'] as const;
export type SaleStatus = (typeof SALE_STATUSES)[number];

/** The amounts of the live orders meeting `condition` (on `orders`) in `status`, summed. */
export const salesOf = (condition: SQL, status: SaleStatus) =>
  sql`(select coalesce(sum(${orders.amount}), 0) from ${orders}
    where ${condition} and ${orders.deletedAt} is null and ${orders.status} = ${constant(status)})`;

/** The live ticket holders of the live orders meeting `condition` (on `orders`) in `status`, counted. */
export const ticketsOf = (condition: SQL, status: SaleStatus) =>
  sql`(select count(*)::int from ${attendees} join ${orders} on ${orders.id} = ${attendees.orderId}
    where ${condition} and ${orders.deletedAt} is null and ${orders.status} = ${constant(status)}
      and ${attendees.deletedAt} is null)`;

/** The reference's `sales` member: per status, the amounts and the tickets of the live orders meeting `condition`. */
export const salesSummary = (condition: SQL) =>
  sql`json_build_object(${sql.join(
    SALE_STATUSES.map(
      (status) =>
        sql`${constant(status)}, json_build_object('sales_total', ${salesOf(condition, status)}, 'ticket_count', ${ticketsOf(condition, status)})`,
    ),
    sql`, `,
  )})`;

const figure = Type.Object(
  {
    sales_total: Type.Number({ minimum: 0, description: 'the amounts of the orders, summed' }),
    ticket_count: Type.Integer({ minimum: 0, description: 'their ticket holders' }),
  },
  { additionalProperties: false },
);

/** The schema of `salesSummary`. */
export const SalesSummary = Type.Object(
  Object.fromEntries(SALE_STATUSES.map((status) => [status, figure])) as Record<SaleStatus, typeof figure>,
  { additionalProperties: false, description: 'live orders by status: their amounts and ticket holders' },
);

/** The condition on `orders` naming the orders of the event `t`. */
export const ordersOfEvent = (t: Columns) => sql`${orders.eventId} = ${t.id}`;

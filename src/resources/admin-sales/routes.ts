/**
 * The administrators' sales reports that are no table's records: by location (events grouped by their
 * location name), by marketer (the makers of the discount codes that lowered orders), and discounted sales (each
 * event, discount code and marketer of such orders). The other reports are resources (index.ts).
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { discountCodes, events, orders, users } from '../../../db/schema/index.js';
import { requirePanel } from '../../auth/panels.js';
import { Nullable, computedListRoute, type ComputedList } from '../../jsonapi/index.js';
import { SalesSummary, salesSummary } from './figures.js';

const report = (
  path: string,
  type: string,
  name: string,
  summary: string,
  description: string,
): Omit<ComputedList, 'attributes' | 'rows'> => ({
  path: `admin/sales/${path}`,
  type,
  name,
  tag: 'Admin sales',
  summary,
  description: `Administrators and those the sales panel is open to (401 without a login, 403 for anyone else). ${description}`,
  check: requirePanel('sales'),
});

const reports: ComputedList[] = [
  {
    ...report(
      'by-location',
      'admin-sales-by-location',
      'AdminSalesByLocation',
      'Sales by location',
      'Each location name of live events (its id), with the amounts and ticket holders of the live placed, ' +
        'completed and pending orders of the events there, by name.',
    ),
    attributes: {
      'location-name': Type.String({ description: 'the location name the events share' }),
      sales: SalesSummary,
    },
    async rows(app) {
      const found = await app.db.execute<{ name: string; sales: Record<string, unknown> }>(sql`
        select places.name, ${salesSummary(sql`${orders.eventId} in (select ${events.id} from ${events}
          where ${events.deletedAt} is null and ${events.locationName} = places.name)`)} as sales
        from (select distinct ${events.locationName} as name from ${events}
          where ${events.deletedAt} is null and ${events.locationName} is not null) places
        order by places.name`);
      return found.map(({ name, sales }) => ({ id: name, attributes: { 'location-name': name, sales } }));
    },
  },
  {
    ...report(
      'by-marketer',
      'admin-sales-by-marketer',
      'AdminSalesByMarketer',
      'Sales by marketer',
      "Each marketer (an order's marketer is the maker of the discount code that lowered it) with the amounts and " +
        "ticket holders of their live placed, completed and pending orders of live events. The id is the user's. " +
        "The reference summed the orders of the event whose id was the marketer's id; these are the marketer's orders.",
    ),
    attributes: {
      fullname: Nullable(Type.String({ description: "the marketer's first and last name" })),
      email: Type.String({ description: "the marketer's e-mail address" }),
      sales: SalesSummary,
    },
    async rows(app) {
      const ofMarketer = sql`${orders.marketerId} = ${users.id} and ${orders.eventId} in (select ${events.id}
        from ${events} where ${events.deletedAt} is null)`;
      const found = await app.db.execute<{ id: number; fullname: string | null; email: string; sales: object }>(sql`
        select ${users.id} as id, nullif(concat_ws(' ', ${users.firstName}, ${users.lastName}), '') as fullname,
          ${users.email} as email, ${salesSummary(ofMarketer)} as sales
        from ${users}
        where ${users.deletedAt} is null
          and exists (select 1 from ${orders} where ${ofMarketer} and ${orders.deletedAt} is null)
        order by ${users.id}`);
      return found.map(({ id, fullname, email, sales }) => ({
        id: String(id),
        attributes: { fullname, email, sales },
      }));
    },
  },
  {
    ...report(
      'discounted',
      'admin-sales-discounted',
      'AdminSalesDiscounted',
      'Discounted sales',
      'Each live event, discount code and marketer of live orders that a discount code lowered (the marketer is ' +
        "the code's maker), with the amounts and ticket holders of those orders that are placed, completed or " +
        "pending; by event, code and marketer. The id is the event's, the code's and the marketer's ids joined " +
        'by dashes. A deleted code still lists the sales it made. The reference listed such a row once per order ' +
        'and summed its amounts once per ticket line; this lists each once, summing each order once.',
    ),
    attributes: {
      code: Type.String({ description: 'the discount code' }),
      email: Type.String({ description: "the marketer's e-mail address" }),
      'event-name': Type.String(),
      'payment-currency': Nullable(Type.String()),
      sales: SalesSummary,
    },
    async rows(app) {
      const found = await app.db.execute<{
        id: string;
        code: string;
        email: string;
        name: string;
        currency: string | null;
        sales: object;
      }>(sql`
        select concat_ws('-', sold.event_id, sold.code_id, sold.marketer_id) as id, ${discountCodes.code} as code,
          ${users.email} as email, ${events.name} as name, ${events.paymentCurrency} as currency,
          ${salesSummary(sql`${orders.eventId} = sold.event_id and ${orders.discountCodeId} = sold.code_id
            and ${orders.marketerId} = sold.marketer_id`)} as sales
        from (select distinct ${orders.eventId} as event_id, ${orders.discountCodeId} as code_id,
            ${orders.marketerId} as marketer_id
          from ${orders} where ${orders.deletedAt} is null and ${orders.discountCodeId} is not null
            and ${orders.marketerId} is not null) sold
        join ${events} on ${events.id} = sold.event_id and ${events.deletedAt} is null
        join ${discountCodes} on ${discountCodes.id} = sold.code_id
        join ${users} on ${users.id} = sold.marketer_id and ${users.deletedAt} is null
        order by sold.event_id, sold.code_id, sold.marketer_id`);
      return found.map(({ id, code, email, name, currency, sales }) => ({
        id,
        attributes: { code, email, 'event-name': name, 'payment-currency': currency, sales },
      }));
    },
  },
];

/** `GET /v1/admin/sales/{by-location,by-marketer,discounted}`: every record at once, for administrators. */
export default async function adminSalesRoutes(app: FastifyInstance) {
  for (const list of reports) app.get(...computedListRoute(app, list));
}

/**
 * The administrators' sales reports that are no table's records: by location (events grouped by their
 * location name), and the two that follow orders' marketers and discount codes, which orders here do not name
 * until issue #41 adds them (their lists stay empty until then). The other reports are resources (index.ts).
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events, orders } from '../../../db/schema/index.js';
import { requireStaff } from '../../auth/caller.js';
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
  description: `Administrators only (401 without a login, 403 for anyone else). ${description}`,
  check: requireStaff,
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
      'Each marketer whose orders sold, with their sums by status. Orders name no marketer until issue #41 adds ' +
        'marketers with discount codes: the list is empty.',
    ),
    attributes: {
      fullname: Nullable(Type.String({ description: "the marketer's name" })),
      email: Type.String({ description: "the marketer's e-mail address" }),
      sales: SalesSummary,
    },
    rows: async () => [],
  },
  {
    ...report(
      'discounted',
      'admin-sales-discounted',
      'AdminSalesDiscounted',
      'Discounted sales',
      'Each event, discount code and marketer of discounted orders, with their sums by status. Discount codes ' +
        'come with issue #41: the list is empty.',
    ),
    attributes: {
      code: Type.String({ description: 'the discount code' }),
      email: Type.String({ description: "the marketer's e-mail address" }),
      'event-name': Type.String(),
      'payment-currency': Nullable(Type.String()),
      sales: SalesSummary,
    },
    rows: async () => [],
  },
];

/** `GET /v1/admin/sales/{by-location,by-marketer,discounted}`: every record at once, for administrators. */
export default async function adminSalesRoutes(app: FastifyInstance) {
  for (const list of reports) app.get(...computedListRoute(app, list));
}

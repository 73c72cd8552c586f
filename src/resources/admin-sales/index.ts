/**
 * The administrators' sales reports that are records of a table (the reference's app/api/admin_sales): by event,
 * by organizer, fees and revenue by event, and the event invoices in brief. The others are in routes.ts.
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { eventInvoices, eventRoles, events, orders, users } from '../../../db/schema/index.js';
import {
  DateTime,
  INT4_MAX,
  Nullable,
  Text,
  defineResource,
  type AttributeSpec,
  type Columns,
} from '../../jsonapi/index.js';
import { choice, createdAt, deletedAt } from '../attributes.js';
import { INVOICE_STATUSES } from '../event-invoices/index.js';
import { reportPolicy } from '../statistics/figures.js';
import { ordersOfEvent, SALE_STATUSES, SalesSummary, salesOf, salesSummary, ticketsOf } from './figures.js';

const column = (key: string, schema: AttributeSpec['schema']): AttributeSpec => ({
  column: key,
  schema,
  readOnly: true,
});

/** `<status>-order-sales` and `<status>-order-tickets` of each status the report sums up. */
const figures: Record<string, AttributeSpec> = Object.fromEntries(
  SALE_STATUSES.flatMap((status) => [
    [
      `${status}-order-sales`,
      {
        select: (t) => salesOf(ordersOfEvent(t), status),
        schema: Type.Number({ minimum: 0, description: `the amounts of the live ${status} orders, summed` }),
        readOnly: true,
      },
    ],
    [
      `${status}-order-tickets`,
      {
        select: (t) => ticketsOf(ordersOfEvent(t), status),
        schema: Type.Integer({ minimum: 0, description: `the ticket holders of the live ${status} orders` }),
        readOnly: true,
      },
    ],
  ]),
);

/**
 * The administrators' sales by event (the reference's AdminSalesByEventsSchema, the front end's Sales
 * overview): every live event with the sums of its orders by status, computed in the statement that reads
 * them. Pages, filter and sort as every list (on the event's own members; the figures are not sortable).
 */
export const adminSalesByEventsResource = defineResource({
  type: 'admin-sales-by-events',
  path: 'admin/sales/by-events',
  self: 'admin/sales/by-events',
  routes: 'list',
  name: 'AdminSalesByEvents',
  tag: 'Admin sales',
  description:
    'Sales by event, for administrators and those the sales panel is open to (401 without a login, 403 for anyone else): each event with the amounts ' +
    "and ticket holders of its live placed, completed and pending orders. The id is the event's.",
  table: events,
  softDelete: 'deletedAt',
  attributes: {
    identifier: column('identifier', Text(16)),
    name: column('name', Text(255)),
    'created-at': createdAt,
    'deleted-at': deletedAt,
    'starts-at': column('startsAt', DateTime()),
    'ends-at': column('endsAt', DateTime()),
    'payment-currency': column('paymentCurrency', Nullable(Text(3))),
    'payment-country': column('paymentCountry', Nullable(Text(255))),
    ...figures,
    type: {
      select: (t) =>
        sql`case when ${t.online} then (case when ${t.locationName} is null then 'Online' else 'Hybrid' end)
          when ${t.locationName} is not null then 'Venue' else 'To be announced' end`,
      schema: Type.Union(
        ['Online', 'Hybrid', 'Venue', 'To be announced'].map((v) => Type.Literal(v)),
        {
          description: 'online, with a venue, both (Hybrid), or neither yet',
        },
      ),
      readOnly: true,
    },
    owner: {
      select: (t) => sql`(select ${users.email} from ${users} where ${users.id} = ${t.ownerId})`,
      schema: Type.String({ description: "the owner's e-mail address" }),
      readOnly: true,
    },
    'owner-id': column('ownerId', Type.Integer({ minimum: 1, maximum: INT4_MAX, description: "the owner's id" })),
    // The same figures as the reference's older schema gave them (its API Blueprint; the front end's model reads both).
    sales: { select: (t) => salesSummary(ordersOfEvent(t)), schema: SalesSummary, readOnly: true },
  },
  policy: reportPolicy(undefined, 'sales'),
});

/** The live events the user `t` owns or organizes (the owner's row of event_roles follows `events.owner_id`). */
const organized = (t: Columns) =>
  sql`(select ${eventRoles.eventId} from ${eventRoles} join ${events} on ${events.id} = ${eventRoles.eventId}
    where ${eventRoles.userId} = ${t.id} and ${eventRoles.role} in ('owner', 'organizer') and ${events.deletedAt} is null)`;

/**
 * The administrators' sales by organizer (the reference's AdminSalesByOrganizersSchema): every user who owns or
 * organizes a live event, with the sums of those events' orders by status. The reference summed the orders of
 * the event whose id was the user's id; these are the user's events.
 */
export const adminSalesByOrganizersResource = defineResource({
  type: 'admin-sales-by-organizers',
  path: 'admin/sales/by-organizers',
  self: 'admin/sales/by-organizers',
  routes: 'list',
  name: 'AdminSalesByOrganizers',
  tag: 'Admin sales',
  description:
    'Sales by organizer, for administrators and those the sales panel is open to (401 without a login, 403 for anyone else): each user who owns or ' +
    "organizes a live event, with the amounts and ticket holders of those events' live placed, completed and " +
    "pending orders. The id is the user's.",
  table: users,
  softDelete: 'deletedAt',
  attributes: {
    'first-name': { column: 'firstName', schema: Nullable(Text(255)), readOnly: true },
    'last-name': { column: 'lastName', schema: Nullable(Text(255)), readOnly: true },
    email: { column: 'email', schema: Text(254), readOnly: true },
    sales: {
      select: (t) => salesSummary(sql`${orders.eventId} in ${organized(t)}`),
      schema: SalesSummary,
      readOnly: true,
    },
  },
  policy: reportPolicy((t) => sql`exists ${organized(t)}`, 'sales'),
});

/**
 * The administrators' fees and revenue by event (the reference's AdminSalesFeesSchema, the front end's Revenue
 * page). The service fee of an event comes from the ticket fees of its currency and country, which issue #41
 * adds: until then every event's fee is 0, and its revenue is the whole amount of its completed orders.
 */
export const adminSalesFeesResource = defineResource({
  type: 'admin-sales-fees',
  path: 'admin/sales/fees',
  self: 'admin/sales/fees',
  routes: 'list',
  name: 'AdminSalesFees',
  tag: 'Admin sales',
  description:
    'Service fees and revenue by event, for administrators and those the sales panel is open to (401 without a login, 403 for anyone else): each live ' +
    "event's fee and what its live completed orders brought. The id is the event's.",
  table: events,
  softDelete: 'deletedAt',
  attributes: {
    name: { column: 'name', schema: Text(255), readOnly: true },
    'payment-currency': { column: 'paymentCurrency', schema: Nullable(Text(3)), readOnly: true },
    'fee-percentage': {
      select: () => sql`0`,
      schema: Type.Number({
        minimum: 0,
        maximum: 100,
        description: 'the service fee in percent (0: no ticket fees yet)',
      }),
      readOnly: true,
    },
    'maximum-fee': {
      select: () => sql`0`,
      schema: Type.Number({ minimum: 0, description: 'the most the fee takes of an order (0: no ticket fees yet)' }),
      readOnly: true,
    },
    revenue: {
      select: (t) => salesOf(ordersOfEvent(t), 'completed'),
      schema: Type.Number({ minimum: 0, description: 'the amounts of the live completed orders, less the fee' }),
      readOnly: true,
    },
    'ticket-count': {
      select: (t) => ticketsOf(ordersOfEvent(t), 'completed'),
      schema: Type.Integer({ minimum: 0, description: 'the ticket holders of the live completed orders' }),
      readOnly: true,
    },
    'event-date': { column: 'startsAt', schema: DateTime({ description: 'when the event starts' }), readOnly: true },
  },
  policy: reportPolicy(undefined, 'sales'),
});

/** The administrators' list of event invoices (the reference's app/api/admin_sales/invoices.py). */
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

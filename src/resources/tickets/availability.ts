import { Type } from '@sinclair/typebox';
import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { attendees, orders, settings, tickets } from '../../../db/schema/index.js';
import { API_PREFIX, compatibilityParameters, errorResponses, type Columns } from '../../jsonapi/index.js';
import { eventIdNamed } from '../events/access.js';
import { ticketResource } from './index.js';

const TicketAvailability = Type.Array(
  Type.Object(
    {
      id: Type.Integer({ description: 'the ticket id (a number, as the front end compares it)' }),
      name: Type.String(),
      quantity: Type.Integer({ description: 'how many tickets are for sale' }),
      available: Type.Integer({
        minimum: 0,
        description: 'how many of them are neither sold nor held by an open order',
      }),
    },
    { additionalProperties: false },
  ),
  {
    $id: 'TicketAvailability',
    description: 'the tickets with a quantity that the caller may see, by id',
  },
);

/** Minutes an order stays open when the settings name none (their default). */
export const DEFAULT_EXPIRY_MINUTES = 15;

/**
 * The holders that take a ticket of the sale, as the reference counts them
 * (app/api/attendees.py, get_sold_and_reserved_tickets_count): live holders of live orders that are
 * placed or completed, or still open: initializing for the settings' order expiry time, pending for 30
 * minutes more (the time a payment may take).
 */
export const taken = (ticketId: typeof tickets.id) => {
  const expiry = sql`coalesce((select ${settings.orderExpiryTime} from ${settings} where ${settings.id} = 1), ${sql.raw(String(DEFAULT_EXPIRY_MINUTES))})`;
  return sql<number>`(select count(*)::int from ${attendees} join ${orders} on ${orders.id} = ${attendees.orderId}
    where ${attendees.ticketId} = ${ticketId} and ${attendees.deletedAt} is null and ${orders.deletedAt} is null and (
      ${orders.status} in ('placed', 'completed')
      or (${orders.status} = 'initializing' and ${orders.createdAt} + make_interval(mins => ${expiry}) > now())
      or (${orders.status} = 'pending' and ${orders.createdAt} + make_interval(mins => 30 + ${expiry}) > now())))`;
};

/**
 * `GET /v1/events/{id}/tickets/availability`: how many of each ticket are left, which the front end's
 * ticket list (app/components/public/ticket-list.js, loadTicketAvailability) shows and caps an order at.
 */
export default async function ticketAvailabilityRoute(app: FastifyInstance) {
  app.addSchema(TicketAvailability);
  app.get(
    `${API_PREFIX}/events/:id/tickets/availability`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: ['Tickets'],
        operationId: 'getEventTicketAvailability',
        summary: "Availability of an event's tickets",
        description:
          'For each ticket of the event that the caller may see (hidden ones: its organizers) and that has a quantity, ' +
          'how many are left: the quantity less the tickets of placed and completed orders and of orders still open ' +
          '(initializing: for the order expiry time of the settings; pending: 30 minutes more), never below 0. A ticket ' +
          'without a quantity is not limited and not listed. The event is named by id or identifier; a draft answers 404 ' +
          'to those without a role in it.',
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 64, description: 'id or identifier of the event' }),
        }),
        querystring: Type.Object(compatibilityParameters, { additionalProperties: false }),
        response: {
          200: Type.Ref(TicketAvailability, { description: 'The tickets left' }),
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request) => {
      const ctx = { caller: request.caller, db: app.db, request };
      const eventId = await eventIdNamed(ctx, (request.params as { id: string }).id);
      const rows = await app.db
        .select({
          id: tickets.id,
          name: tickets.name,
          quantity: tickets.quantity,
          available: sql<number>`greatest(0, ${tickets.quantity} - ${taken(tickets.id)})`,
        })
        .from(tickets)
        .where(
          and(
            eq(tickets.eventId, eventId),
            isNull(tickets.deletedAt),
            isNotNull(tickets.quantity),
            ticketResource.policy.scope(ctx, tickets as unknown as Columns),
          ),
        )
        .orderBy(asc(tickets.id));
      return rows;
    },
  );
}

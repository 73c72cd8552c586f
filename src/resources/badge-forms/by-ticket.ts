import { Type } from '@sinclair/typebox';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badgeFieldForms, badgeForms, tickets } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { API_PREFIX, compatibilityParameters, errorResponses, integerId, notFound } from '../../jsonapi/index.js';
import { requireDoor } from '../events/door-policy.js';

const TicketBadgeFields = Type.Array(
  Type.Object(
    {
      id: Type.Integer({ description: 'the badge field form' }),
      field_identifier: Type.Union([Type.String(), Type.Null()], { description: 'the attendee field printed (or QR)' }),
      custom_field: Type.Union([Type.String(), Type.Null()], { description: 'its name' }),
    },
    { additionalProperties: false },
  ),
  { $id: 'TicketBadgeFields', description: "the fields printed on the ticket's badge, by id" },
);

/**
 * `GET /v1/tickets/{ticket_id}/badge-forms` (the reference's app/api/custom/tickets.py, "Get Badge Form By Ticket"):
 * what the badge of a ticket's holders prints, as plain JSON. The reference read every field on the ticket's badge id,
 * whatever its event, for any logged-in caller; here the ticket's event's door staff read the fields of its own live
 * badge forms, and anyone else finds no ticket (404).
 */
export default async function badgeFieldsOfTicketRoute(app: FastifyInstance) {
  app.addSchema(TicketBadgeFields);
  app.get(
    `${API_PREFIX}/tickets/:ticket_id/badge-forms`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: ['Badge forms'],
        operationId: 'getTicketBadgeFields',
        summary: "The fields of a ticket's badge",
        description:
          "The badge field forms of the ticket's badge (its `badge-id`) in the event's live badge forms, by id: each its " +
          "id, field identifier and custom field. For the owner, organizers, coorganizers and registrars of the ticket's " +
          'event and administrators; anyone else finds no ticket (404). A ticket without a badge has none ([]).',
        params: Type.Object({
          ticket_id: Type.String({ minLength: 1, maxLength: 64, description: 'id of the ticket' }),
        }),
        querystring: Type.Object(compatibilityParameters, { additionalProperties: false }),
        response: {
          200: Type.Ref(TicketBadgeFields, { description: "The fields of the ticket's badge" }),
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request) => {
      const ctx = { caller: request.caller, db: app.db, request };
      loggedIn(ctx);
      const named = (request.params as { ticket_id: string }).ticket_id;
      const missing = `Ticket "${named}" not found`;
      const id = integerId(named);
      if (id === undefined) throw notFound(missing);
      const [ticket] = await app.db
        .select({ eventId: tickets.eventId, badgeId: tickets.badgeId })
        .from(tickets)
        .where(and(eq(tickets.id, id), isNull(tickets.deletedAt)));
      if (!ticket) throw notFound(missing);
      await requireDoor(ctx, ticket.eventId, missing);
      if (!ticket.badgeId) return [];
      const f = badgeFieldForms;
      return app.db
        .select({ id: f.id, field_identifier: f.fieldIdentifier, custom_field: f.customField })
        .from(f)
        .innerJoin(badgeForms, and(eq(badgeForms.id, f.badgeFormId), isNull(badgeForms.deletedAt)))
        .where(and(eq(f.eventId, ticket.eventId), eq(f.badgeId, ticket.badgeId), isNull(f.deletedAt)))
        .orderBy(asc(f.id));
    },
  );
}

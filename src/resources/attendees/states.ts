import { Type } from '@sinclair/typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { attendees } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import {
  API_PREFIX,
  compatibilityParameters,
  errorResponses,
  INT4_MAX,
  JsonApiError,
  notFound,
  type Columns,
  type Ctx,
  type Row,
} from '../../jsonapi/index.js';
import { eventIdNamed } from '../events/access.js';
import { attendeePolicy } from './policy.js';

const id = (description: string) => Type.Integer({ minimum: 1, maximum: INT4_MAX, description });

const AttendeeState = Type.Object(
  {
    is_registered: Type.Boolean({ description: 'whether the ticket holder registered at the event' }),
    register_times: Type.Union([Type.String(), Type.Null()], {
      description: 'when, as the attendee record keeps it (comma-separated times), or null',
    }),
  },
  { $id: 'AttendeeState', additionalProperties: false },
);

/**
 * `GET /v1/states?event_id=&attendee_id=`: whether a ticket holder registered, for the check-in apps
 * (the reference's app/api/custom/attendees.py, check_attendee_state). The reference answered any
 * logged-in user about any attendee; here only those who may read the attendee record get an answer.
 */
export default async function attendeeStateRoute(app: FastifyInstance) {
  app.addSchema(AttendeeState);
  app.get(
    `${API_PREFIX}/states`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: ['Attendees'],
        operationId: 'getAttendeeState',
        summary: "A ticket holder's registration",
        description:
          'Whether the attendee registered at the event, and when (`is-registered` and `register-times` of the attendee). ' +
          'For those who may read the attendee: its event’s organizers and coorganizers, its buyer, its holder and ' +
          'administrators (403 for others, 401 without a login). 404 when the event or the attendee does not exist for ' +
          'the caller; 422 when the attendee is not of that event.',
        querystring: Type.Object(
          {
            event_id: id('id of the event'),
            attendee_id: id('id of the attendee'),
            ...compatibilityParameters,
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Ref(AttendeeState, { description: 'The registration' }),
          ...errorResponses([400, 401, 403, 404, 422]),
        },
      },
    },
    async (request) => {
      const ctx = { caller: request.caller, db: app.db, request };
      loggedIn(ctx);
      const query = request.query as { event_id: number; attendee_id: number };
      const eventId = await eventIdNamed(ctx, String(query.event_id));
      const [row] = await app.db
        .select({
          id: attendees.id,
          eventId: attendees.eventId,
          orderId: attendees.orderId,
          userId: attendees.userId,
          isRegistered: attendees.isRegistered,
          registerTimes: attendees.registerTimes,
        })
        .from(attendees)
        .where(and(eq(attendees.id, query.attendee_id), attendeeLive(ctx)))
        .limit(1);
      if (!row) throw notFound('Attendee not found');
      await attendeePolicy.read(ctx, row as Row);
      if (row.eventId !== eventId)
        throw new JsonApiError(422, 'Validation error', 'The attendee is not of this event', {
          parameter: 'attendee_id',
        });
      return { is_registered: row.isRegistered, register_times: row.registerTimes };
    },
  );
}

/** Attendees that exist for the caller: live, in an event it sees (the resource's `existsFor`). */
const attendeeLive = (ctx: Ctx) =>
  and(isNull(attendees.deletedAt), attendeePolicy.existsFor!(ctx, attendees as unknown as Columns));

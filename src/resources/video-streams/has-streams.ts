import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  microlocations,
  orders,
  sessions,
  speakers,
  speakersSessions,
  users,
  videoStreams,
} from '../../../db/schema/index.js';
import { API_PREFIX, compatibilityParameters, errorResponses } from '../../jsonapi/index.js';
import { eventIdNamed, holdsRole } from '../events/access.js';

const HasStreams = Type.Object(
  {
    exists: Type.Boolean({ description: 'the event has its own video stream or a stream linked to one of its rooms' }),
    can_access: Type.Boolean({
      description:
        'the caller may join its streams: an organizer, coorganizer or administrator, a speaker of an accepted or confirmed ' +
        'session of the event (by account or verified address), or the buyer of a placed or completed order of the event',
    }),
  },
  { $id: 'HasStreams', additionalProperties: false },
);

/** Whether the user may join the event's streams as a speaker or a ticket buyer (the reference's rule). */
function joinsAsGuest(eventId: number, userId: number) {
  return sql<boolean>`exists (
      select 1 from ${speakers}
      join ${speakersSessions} on ${speakersSessions.speakerId} = ${speakers.id}
      join ${sessions} on ${sessions.id} = ${speakersSessions.sessionId}
      where ${speakers.eventId} = ${eventId} and ${speakers.deletedAt} is null
        and ${sessions.deletedAt} is null and ${sessions.state} in ('accepted', 'confirmed')
        and (${speakers.userId} = ${userId}
          or lower(${speakers.email}) = (
            select lower(${users.email}) from ${users} where ${users.id} = ${userId} and ${users.isVerified})))
    or exists (
      select 1 from ${orders}
      where ${orders.eventId} = ${eventId} and ${orders.userId} = ${userId} and ${orders.deletedAt} is null
        and ${orders.status} in ('placed', 'completed'))`;
}

/**
 * `GET /v1/events/{id}/has-streams`: what the Open Event front end asks before it offers the "join"
 * button (app/services/event.ts:16-26, app/controllers/public.js:202-205): plain JSON, not JSON:API.
 */
export default async function hasStreamsRoute(app: FastifyInstance) {
  app.addSchema(HasStreams);
  app.get(
    `${API_PREFIX}/events/:id/has-streams`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: ['Video streams'],
        operationId: 'getEventHasStreams',
        summary: 'Does the event stream, and may the caller join?',
        description:
          "Whether the event has a video stream (its own or one of its rooms'), and whether the caller may join. Anyone who " +
          'may see the event may ask (anonymous callers may never join); a draft answers 404 to those without a role in it. ' +
          'The event is named by id or identifier.',
        params: Type.Object({
          id: Type.String({ minLength: 1, maxLength: 64, description: 'id or identifier of the event' }),
        }),
        querystring: Type.Object(compatibilityParameters, { additionalProperties: false }),
        response: {
          200: Type.Ref(HasStreams, { description: 'Whether it streams and the caller may join' }),
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request) => {
      const ctx = { caller: request.caller, db: app.db, request };
      const eventId = await eventIdNamed(ctx, (request.params as { id: string }).id);
      const caller = request.caller;
      const guest = caller ? joinsAsGuest(eventId, caller.id) : sql<boolean>`false`;
      const [row] = await app.db.execute<{ exists: boolean; guest: boolean }>(sql`select
        exists (select 1 from ${videoStreams} where ${videoStreams.eventId} = ${eventId}
          or ${videoStreams.id} in (select ${microlocations.videoStreamId} from ${microlocations}
            where ${microlocations.eventId} = ${eventId} and ${microlocations.deletedAt} is null)) as exists,
        ${guest} as guest`);
      const manages = caller ? await holdsRole(ctx, eventId, 'coorganizer') : false;
      return { exists: row!.exists, can_access: manages || row!.guest };
    },
  );
}

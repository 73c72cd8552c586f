/**
 * The schedule in the formats conference tools read: `GET /v1/events/{id}/schedule.{xml,json,ics,xcal}` and
 * `GET /v1/sessions/{id}/session.ics`. Public for a published public event; a draft or private event only for
 * its team and administrators (404 to anyone else, as a draft's other paths).
 */
import { Type } from '@sinclair/typebox';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { events, sessions } from '../../db/schema/index.js';
import { isStaff } from '../auth/caller.js';
import { publicUrlOf } from '../config.js';
import type { Face, FaceOptions } from '../face.js';
import { API_PREFIX, compatibilityParameters, errorResponses, notFound, pascal } from '../jsonapi/index.js';
import { eventIdNamed, roleIn } from '../resources/events/access.js';
import { FORMATS, ScheduleDocuments, type Format, type Rendered } from './documents.js';
import { ICAL_TYPE } from './ical.js';
import { loadSchedule } from './model.js';

const TAG = 'Schedule';
/** Renderings a process keeps (bytes of text). */
const KEPT_BYTES = 32 * 2 ** 20;

const NoQuery = Type.Object(compatibilityParameters, { additionalProperties: false });
const EventParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'id or identifier of the event' }),
});
const SessionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[0-9]+$', description: 'id of the session' }),
});

const ACCESS =
  'Public for a published public event; a draft or private event only for its team and administrators (404 for ' +
  'anyone else). Sessions that are accepted or confirmed and have a start and an end, in the event’s time zone.';
const CONDITIONAL =
  ' A strong `ETag` and `Last-Modified`: `If-None-Match` or `If-Modified-Since` answers 304 while nothing changed.';

function send(
  reply: FastifyReply,
  { rendered, open }: { rendered: Rendered; open: boolean },
  type: string,
  file: string,
) {
  reply
    .header('etag', rendered.etag)
    .header('last-modified', rendered.modified.toUTCString())
    // Calendar programs poll: they may keep it a minute, then ask again with the validators. Shared caches may
    // keep only what everyone may read: a draft's or a private event's schedule is the caller's alone.
    .header('cache-control', `${open ? 'public' : 'private'}, max-age=60`)
    .header('content-disposition', `inline; filename="${file}"`);
  // The conditional plugin answers 304 to either validator.
  return reply.type(type).send(rendered.body);
}

async function scheduleRoutes(app: FastifyInstance, { config }: FaceOptions) {
  const publicUrl = publicUrlOf(config);
  const documents = new ScheduleDocuments(app.db, KEPT_BYTES);

  /**
   * The schedule of the event, if the caller may read it (404 otherwise), and whether everyone may (`open`: a
   * published public event).
   */
  async function scheduleFor(request: FastifyRequest, eventId: number, missing = 'Event not found') {
    const ctx = { caller: request.caller, db: app.db, request };
    const role = await roleIn(ctx, eventId, missing);
    const [event] = await app.db
      .select({ privacy: events.privacy, state: events.state })
      .from(events)
      .where(and(eq(events.id, eventId), isNull(events.deletedAt)));
    if (!event || (event.privacy === 'private' && !role && !isStaff(request.caller))) throw notFound(missing);
    const schedule = await loadSchedule(app.db, eventId, publicUrl);
    if (!schedule) throw notFound(missing);
    return { schedule, open: event.privacy === 'public' && event.state === 'published' };
  }

  for (const [format, { type, title, file }] of Object.entries(FORMATS) as [Format, (typeof FORMATS)[Format]][]) {
    app.get(
      `${API_PREFIX}/events/:id/${file}`,
      {
        onRequest: (request) => app.authenticate(request),
        schema: {
          tags: [TAG],
          operationId: `getEventSchedule${pascal(format)}`,
          summary: `The event's schedule as ${title}`,
          description: `${ACCESS}${CONDITIONAL}`,
          params: EventParams,
          querystring: NoQuery,
          response: {
            200: {
              description: `The schedule (${type})`,
              content: {
                [type.split(';')[0]!]: {
                  schema:
                    format === 'json'
                      ? { type: 'object', description: 'c3voc schedule JSON (https://c3voc.de/schedule/schema.json)' }
                      : { type: 'string' },
                },
              },
            },
            304: { description: 'Not Modified: the ETag or the date the client sent is still current' },
            ...errorResponses([400, 401, 404]),
          },
        },
      },
      async (request, reply) => {
        const ctx = { caller: request.caller, db: app.db, request };
        const eventId = await eventIdNamed(ctx, (request.params as { id: string }).id);
        const { schedule, open } = await scheduleFor(request, eventId);
        const url = `${publicUrl}${API_PREFIX}/events/${schedule.event.identifier}/${file}`;
        return send(reply, { rendered: await documents.document(schedule, format, url), open }, type, file);
      },
    );
  }

  app.get(
    `${API_PREFIX}/sessions/:id/session.ics`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: [TAG],
        operationId: 'getSessionIcal',
        summary: 'One session as iCalendar',
        description: `The VEVENT of a session of the schedule (404 for one that is not in it). ${ACCESS}${CONDITIONAL}`,
        params: SessionParams,
        querystring: NoQuery,
        response: {
          200: {
            description: 'The session (text/calendar)',
            content: { 'text/calendar': { schema: { type: 'string' } } },
          },
          304: { description: 'Not Modified: the ETag or the date the client sent is still current' },
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request, reply) => {
      const id = Number((request.params as { id: string }).id);
      const [session] = Number.isSafeInteger(id)
        ? await app.db
            .select({ eventId: sessions.eventId })
            .from(sessions)
            .where(and(eq(sessions.id, id), isNull(sessions.deletedAt)))
        : [];
      if (!session) throw notFound('Session not found');
      const { schedule, open } = await scheduleFor(request, session.eventId, 'Session not found');
      if (!schedule.sessions.some((s) => s.id === id)) throw notFound('Session not found');
      const url = `${publicUrl}${API_PREFIX}/sessions/${id}/session.ics`;
      const rendered = await documents.document(schedule, 'ics', url, id);
      return send(reply, { rendered, open }, ICAL_TYPE, `session-${id}.ics`);
    },
  );
}

export const scheduleFace: Face = {
  tags: [
    {
      name: TAG,
      description:
        'The schedule for conference apps, video pipelines and calendars: frab/Pentabarf XML, schedule JSON, iCalendar, xCal.',
    },
  ],
  routes: scheduleRoutes,
};

import { Type } from '@sinclair/typebox';
import { and, asc, eq, inArray, isNotNull, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import { events, sessions } from '../../../db/schema/index.js';
import { API_PREFIX, compatibilityParameters, errorResponses, type Columns } from '../../jsonapi/index.js';
import { eventIdNamed } from '../events/access.js';
import { SESSION_MAILS, SessionMails } from './mails.js';
import { sessionPolicy } from './policy.js';
import { ORGANIZER_MOVES, PUBLIC_STATES, SESSION_STATES, SPEAKER_MOVES, type SessionState } from './states.js';

const TAG = 'Sessions';

/** `{state: {target: true}}` for one party's moves: the shape the Open Event front end reads. */
const movesMap = (moves: Record<SessionState, SessionState[]>) =>
  Object.fromEntries(SESSION_STATES.map((from) => [from, Object.fromEntries(moves[from].map((to) => [to, true]))]));

const Moves = Type.Object(
  Object.fromEntries(
    SESSION_STATES.map((from) => [
      from,
      Type.Object(Object.fromEntries(SESSION_STATES.map((to) => [to, Type.Optional(Type.Literal(true))])), {
        additionalProperties: false,
      }),
    ]),
  ),
  { additionalProperties: false, description: 'for each state, the states it may move to (each `true`)' },
);
const SessionStates = Type.Object(
  { organizer: Moves, speaker: Moves },
  {
    $id: 'SessionStates',
    additionalProperties: false,
    description: 'the session state moves organizers and speakers may make',
  },
);
/** Neither route takes a query parameter of its own; the front end's compatibility ones are accepted, others refused. */
const NoQuery = Type.Object(compatibilityParameters, { additionalProperties: false });
const SessionLanguages = Type.Array(Type.String(), {
  $id: 'SessionLanguages',
  description: 'the distinct languages, sorted',
});
const SessionDates = Type.Array(Type.String({ format: 'date' }), {
  $id: 'SessionDates',
  description: "the distinct days (YYYY-MM-DD, in the event's time zone), in order",
});
const EventParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'id or identifier of the event' }),
});

/**
 * `GET /v1/sessions/states`, the transition table as data, `GET /v1/sessions/mails`, the state mails,
 * `GET /v1/events/{id}/sessions/languages`, the languages of the sessions a caller may see, and
 * `GET /v1/events/{id}/sessions/dates`, the days of the scheduled public sessions: JSON the front end's
 * loader reads, not JSON:API.
 */
export default async function sessionRoutes(app: FastifyInstance) {
  app.addSchema(SessionStates);
  app.addSchema(SessionLanguages);
  app.addSchema(SessionDates);
  app.addSchema(SessionMails);
  app.get(
    `${API_PREFIX}/sessions/states`,
    {
      schema: {
        tags: [TAG],
        operationId: 'getSessionStates',
        summary: 'Session state moves',
        description:
          'The moves of the transition table (see the session resource) as `{organizer: {from: {to: true}}, speaker: ...}`, ' +
          'the shape the Open Event front end reads to offer its buttons. Public: it is no secret.',
        security: [],
        querystring: NoQuery,
        response: {
          200: Type.Ref(SessionStates, { description: 'The moves' }),
          ...errorResponses([400], {}, { database: false }),
        },
      },
    },
    async () => ({ organizer: movesMap(ORGANIZER_MOVES), speaker: movesMap(SPEAKER_MOVES) }),
  );

  app.get(
    `${API_PREFIX}/sessions/mails`,
    {
      schema: {
        tags: [TAG],
        operationId: 'getSessionMails',
        summary: 'Session state mails',
        description:
          "The subject and message of the mail of each session state, as the reference words them, with the reference's " +
          '`{placeholders}` (the Open Event front end offers them for organizers to edit before notifying speakers). Public: ' +
          'templates, no data.',
        security: [],
        querystring: NoQuery,
        response: {
          200: Type.Ref(SessionMails, { description: 'The mails by state' }),
          ...errorResponses([400], {}, { database: false }),
        },
      },
    },
    async () => SESSION_MAILS,
  );

  app.get(
    `${API_PREFIX}/events/:id/sessions/dates`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: [TAG],
        operationId: 'getEventSessionDates',
        summary: "Days of an event's scheduled sessions",
        description:
          'The distinct days on which accepted or confirmed sessions of the event start, sorted: what the public ' +
          "sessions page of the Open Event front end offers as days. Days are those of the event's time zone, in which the " +
          'page filters a day (the reference used UTC). The event is named by id or identifier; a draft answers 404 to ' +
          'those without a role in it.',
        params: EventParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(SessionDates, { description: 'The days' }),
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request) => {
      const ctx = { caller: request.caller, db: app.db, request };
      const eventId = await eventIdNamed(ctx, (request.params as { id: string }).id);
      const rows = await app.db
        .selectDistinct({ startsAt: sessions.startsAt, zone: events.timezone })
        .from(sessions)
        .innerJoin(events, eq(events.id, sessions.eventId))
        .where(
          and(
            eq(sessions.eventId, eventId),
            isNull(sessions.deletedAt),
            isNotNull(sessions.startsAt),
            inArray(sessions.state, PUBLIC_STATES),
          ),
        );
      const days = rows.map((r) => DateTime.fromJSDate(r.startsAt!, { zone: r.zone }).toISODate()!);
      return [...new Set(days)].sort();
    },
  );

  app.get(
    `${API_PREFIX}/events/:id/sessions/languages`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: [TAG],
        operationId: 'getEventSessionLanguages',
        summary: "Languages of an event's sessions",
        description:
          'The distinct languages of the sessions of the event that the caller may see (for the schedule filter of the ' +
          'Open Event front end), sorted. The event is named by id or identifier; a draft answers 404 to those without a role in it.',
        params: EventParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(SessionLanguages, { description: 'The languages' }),
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request) => {
      const ctx = { caller: request.caller, db: app.db, request };
      const eventId = await eventIdNamed(ctx, (request.params as { id: string }).id);
      const rows = await app.db
        .selectDistinct({ language: sessions.language })
        .from(sessions)
        .where(
          and(
            eq(sessions.eventId, eventId),
            isNull(sessions.deletedAt),
            isNotNull(sessions.language),
            ne(sessions.language, ''),
            sessionPolicy.scope(ctx, sessions as unknown as Columns),
          ),
        )
        .orderBy(asc(sessions.language));
      return rows.map((r) => r.language!);
    },
  );
}

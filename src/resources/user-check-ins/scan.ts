import { Type, type Static } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../../plugins/db.js';
import { sendNow } from '../../jsonapi/read.js';
import { attendees, STATION_TYPES, userCheckIns } from '../../../db/schema/index.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import {
  API_PREFIX,
  DateTime,
  errorResponses,
  hasNul,
  INT4_MAX,
  integerId,
  notFound,
  Nullable,
  unprocessable,
} from '../../jsonapi/index.js';
import { choice } from '../attributes.js';
import { doorStation, MESSAGES, passDoor, type DoorStation, type Holder } from './rules.js';

const ScanRequest = Type.Object(
  {
    identifier: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "the ticket's identifier: what the QR code of the ticket PDF holds (the attendee's `identifier`)",
    }),
    session: Type.Optional(
      Type.Union(
        [Type.Integer({ minimum: 1, maximum: INT4_MAX }), Type.String({ pattern: '^[1-9][0-9]{0,9}$' }), Type.Null()],
        { description: "the session's id: required at daily, check in and check out stations, none at a registration" },
      ),
    ),
  },
  { $id: 'ScanRequest', additionalProperties: false },
);

const text = (description: string) => Nullable(Type.String({ description }));
const flag = (description: string) => Type.Boolean({ description });

const ScanAnswer = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String({ description: "what happened, as the reference's user check-in words it" }),
    station: Type.Object(
      {
        id: Type.String(),
        'station-name': Type.String(),
        'station-type': choice(STATION_TYPES, 'registration, daily, check in or check out'),
      },
      { additionalProperties: false },
    ),
    'user-check-in': Type.Object(
      {
        id: Type.String({ description: 'the check-in made (GET /v1/user-check-in/{id})' }),
        session: Nullable(Type.String({ description: "the session's id" })),
        'session-name': text("the session's type"),
        'track-name': text("the session's track"),
        'speaker-name': text("the session's speakers, comma separated"),
        'created-at': DateTime(),
        'check-in-out-at': Nullable(
          DateTime({ description: 'when the holder passed a check in or check out station' }),
        ),
      },
      { additionalProperties: false },
    ),
    attendee: Type.Object(
      {
        id: Type.String(),
        identifier: Type.String(),
        firstname: text("the holder's first name"),
        lastname: text("the holder's last name"),
        email: text("the holder's address"),
        ticket: Nullable(
          Type.Object(
            { id: Type.String(), name: Type.String() },
            { additionalProperties: false, description: 'the ticket held' },
          ),
        ),
        'is-registered': flag('registered at the event'),
        'register-times': text('registration times, comma-separated'),
        'is-checked-in': flag('checked in'),
        'checkin-times': text('check-in times, comma-separated'),
        'is-checked-out': flag('checked out'),
        'checkout-times': text('check-out times, comma-separated'),
      },
      { additionalProperties: false, description: 'the ticket holder as the door sees it after the scan' },
    ),
  },
  { $id: 'ScanAnswer', additionalProperties: false },
);

type Scan = Static<typeof ScanRequest>;

/** The check-in made, as the scan wrote it. */
interface Made {
  id: number;
  sessionId: number | null;
  sessionName?: string | null;
  trackName?: string | null;
  speakerName?: string | null;
  createdAt?: unknown;
  checkInOutAt?: unknown;
}

/** The scan's answer: what happened, where, and to whom. */
function scanAnswer(station: DoorStation, holder: Holder, made: Made) {
  return {
    success: true as const,
    message: MESSAGES[station.type],
    station: { id: String(station.id), 'station-name': station.name, 'station-type': station.type },
    'user-check-in': {
      id: String(made.id),
      session: made.sessionId === null ? null : String(made.sessionId),
      'session-name': made.sessionName ?? null,
      'track-name': made.trackName ?? null,
      'speaker-name': made.speakerName ?? null,
      'created-at': (made.createdAt as Date).toISOString(),
      'check-in-out-at': (made.checkInOutAt as Date | undefined)?.toISOString() ?? null,
    },
    attendee: {
      id: String(holder.id),
      identifier: holder.identifier,
      firstname: holder.firstname,
      lastname: holder.lastname,
      email: holder.email,
      ticket: holder.ticketId === null ? null : { id: String(holder.ticketId), name: holder.ticketName ?? '' },
      'is-registered': holder.isRegistered,
      'register-times': holder.registerTimes,
      'is-checked-in': holder.isCheckedIn,
      'checkin-times': holder.checkinTimes,
      'is-checked-out': holder.isCheckedOut,
      'checkout-times': holder.checkoutTimes,
    },
  };
}

/**
 * Scans a ticket at a station: the check-in made, or the refusal. The station and the caller's right are read before
 * the transaction; in it, the holder's lock with what the rules read (one round trip), then one statement that
 * writes the holder, inserts the check-in and notifies the read cache's fence (plugins/read-cache.ts), the commit
 * right behind it: each statement costs this service's process more than PostgreSQL takes to run it.
 */
async function scan(app: FastifyInstance, request: FastifyRequest, stationId: number, body: Scan) {
  const caller = loggedIn(request);
  const station = await doorStation({ caller, db: app.db, request, unwritten: true }, stationId);
  const identifier = body.identifier.trim();
  if (hasNul(identifier)) throw unknownTicket();
  const which = and(eq(attendees.identifier, identifier), eq(attendees.eventId, station.eventId))!;
  const sessionId = body.session === undefined || body.session === null ? null : Number(body.session);
  const fence = request.server.readCache?.transactionFence(request);
  let committed = false;
  try {
    const { made, answer } = await app.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      const passed = await passDoor({ caller, db, request }, station, which, sessionId, {
        holder: '/identifier',
        session: '/session',
      });
      if (!passed) throw unknownTicket();
      const values = { ticketHolderId: passed.holder.id, stationId, sessionId, eventId: station.eventId };
      const notify = fence ? sql`pg_notify(${fence.channel}, ${fence.token})` : sql`null`;
      const insert = tx
        .insert(userCheckIns)
        .values({ ...values, ...passed.values })
        .returning({ id: userCheckIns.id, fenced: sql`${notify}` })
        .getSQL();
      // Not awaited here: the commit goes right behind it (should it fail, the commit rolls back).
      const made = sendNow(db, passed.mark ? sql`with marked as (${passed.mark}) ${insert}` : insert);
      made.catch(() => {});
      return { made, answer: (id: number) => scanAnswer(station, passed.holder, { id, sessionId, ...passed.values }) };
    });
    const [row] = (await made) as { id: number }[];
    committed = true;
    return answer(row!.id);
  } finally {
    fence?.ended(committed);
  }
}

const unknownTicket = () => unprocessable("No ticket of the station's event has this identifier", '/identifier');

/**
 * `POST /v1/stations/{station_id}/scan`: the door's one request. The check-in app sends what the QR code of a ticket
 * holds; the answer says whose ticket it is and what happened, or why it does not pass.
 */
export default async function scanRoute(app: FastifyInstance) {
  app.addSchema(ScanRequest);
  app.addSchema(ScanAnswer);
  app.post(
    `${API_PREFIX}/stations/:station_id/scan`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: ['User check in'],
        operationId: 'scanTicket',
        summary: 'Scan a ticket at a station',
        description:
          "Registers the ticket's holder, or checks it daily, in or out, at the station, as a user check-in made " +
          "with POST /v1/user-check-in would, naming the holder by the identifier its ticket's QR code holds. The " +
          "ticket must be of the station's event, of a completed or placed order, and not deleted (422 naming " +
          '`/identifier`); the session is required but at a registration station, of the event, and at a check in or ' +
          "check out station held in the station's room (422 naming `/session`). A second registration the same day " +
          "(in the event's time zone), a second daily check at the station for the session, a second check in to a " +
          'session without a check out between, or a check out without a check in answer 409 with the time and the ' +
          "station of the pass in the way; of two simultaneous scans of one ticket, one passes. For the event's " +
          'owner, organizers, coorganizers and registrars and administrators; anyone else gets 404 (401 without a login).',
        consumes: ['application/json', 'application/vnd.api+json'],
        params: Type.Object({ station_id: Type.String({ maxLength: 32, description: "the station's id" }) }),
        body: Type.Ref(ScanRequest),
        response: {
          201: Type.Ref(ScanAnswer, { description: 'The holder passed: the check-in made' }),
          ...errorResponses([400, 401, 404, 409, 413, 415, 422], {
            404: 'No station of an event whose door the caller runs has this id',
            409: 'The holder already passed this point today (the detail says when and where), or checks out unchecked in',
            422: 'The ticket is not valid here, or the session is missing or not of the station',
          }),
        },
      },
    },
    async (request, reply) => {
      const stationId = integerId((request.params as { station_id: string }).station_id);
      if (stationId === undefined) throw notFound('Station not found');
      const result = await scan(app, request, stationId, request.body as Scan);
      reply.code(201).header('location', `${API_PREFIX}/user-check-in/${result['user-check-in'].id}`);
      return result;
    },
  );
}

import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { attendees, stations, userCheckIns } from '../../../db/schema/index.js';
import { DateTime, defineResource, methodNotAllowed, notFound, Nullable, Text, type Ctx } from '../../jsonapi/index.js';
import { createdAt, deletedAt } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';
import { doorStation, MESSAGES, passDoor } from './rules.js';

const serverText = (column: string, description: string) => ({
  column,
  schema: Nullable(Text(2048, { description })),
  readOnly: true,
});

/** The reference's answer to each kind of station, by the station's type. */
const MESSAGE = sql.raw(
  `case station_type ${Object.entries(MESSAGES)
    .map(([type, text]) => `when '${type}' then '${text}'`)
    .join(' ')} end`,
);

/** The rules of the door (rules.ts), on the holder locked for this check-in. */
async function checkIn(ctx: Ctx, values: Record<string, unknown>) {
  const named = values.stationId as number;
  const station = await doorStation(ctx, named, `Related station "${named}" not found`);
  const sessionId = (values.sessionId as number | null | undefined) ?? null;
  const passed = await passDoor(ctx, station, eq(attendees.id, values.ticketHolderId as number), sessionId, {
    holder: '/data/relationships/ticket-holder',
    session: '/data/relationships/session',
  });
  if (!passed) throw notFound(`Related attendee "${String(values.ticketHolderId)}" not found`);
  if (passed.mark) await ctx.db.execute(passed.mark);
  Object.assign(values, passed.values);
}

export const userCheckInResource = defineResource({
  type: 'user_check_in',
  typeAliases: ['user-check-in'],
  path: 'user-check-in',
  name: 'UserCheckIn',
  tag: 'User check in',
  description:
    'A ticket holder registered, or checked in or out, at a station of its event; the session (required but at a ' +
    "registration station) is of that event and, at a door, in the station's room. The ticket must be valid (its " +
    "order completed or placed, the ticket not deleted: 422). A day at the door (in the event's time zone) allows " +
    'one registration (at any registration station), one daily check per station and session, and in a ' +
    "session's room check in and check out in turn, starting with a check in: any other pass answers 409 with the " +
    "time of the pass in the way. A registration sets the holder's is-registered and adds to its register-times; " +
    'a check in or out sets is-checked-in and is-checked-out and adds to checkin-times or checkout-times. Made, read ' +
    "and deleted by the event's owner, organizers, coorganizers and registrars (others find nothing); never changed. " +
    "POST /v1/stations/{station_id}/scan makes one from the ticket's identifier.",
  table: userCheckIns,
  softDelete: 'deletedAt',
  attributes: {
    success: {
      schema: Type.Boolean({ description: 'always true (the reference answers it)' }),
      readOnly: true,
      select: () => sql`true`,
    },
    message: {
      schema: Nullable(Type.String({ description: 'what happened, as the reference words it for the station type' })),
      readOnly: true,
      select: (t) => sql`(select ${MESSAGE} from ${stations} where ${stations.id} = ${t.stationId})`,
    },
    'track-name': serverText('trackName', "the session's track when checked in"),
    'session-name': serverText('sessionName', "the session's type when checked in (as the reference names it)"),
    'speaker-name': serverText('speakerName', "the session's speakers when checked in, comma separated"),
    'check-in-out-at': {
      column: 'checkInOutAt',
      schema: Nullable(DateTime({ description: 'when the holder passed a check in or check out station' })),
      readOnly: true,
    },
    'created-at': createdAt,
    'updated-at': { column: 'updatedAt', schema: Nullable(DateTime()), readOnly: true },
    'deleted-at': deletedAt,
  },
  relationships: {
    event: { kind: 'toOne', type: 'event', column: 'eventId', readOnly: true, description: "the station's event" },
    station: {
      kind: 'toOne',
      type: 'station',
      column: 'stationId',
      required: true,
      immutable: true,
      within: 'event',
      description: 'where the holder was registered or checked',
    },
    'ticket-holder': {
      kind: 'toOne',
      type: 'attendee',
      column: 'ticketHolderId',
      required: true,
      immutable: true,
      within: 'event',
      // The reference's check-in clients send `ticket_holder` (marshmallow read the field's own name too).
      bodyAliases: ['ticket_holder'],
      description:
        "the ticket holder, of the station's event (a body may name it `ticket_holder`, as the reference's clients do)",
    },
    session: {
      kind: 'toOne',
      type: 'session',
      column: 'sessionId',
      immutable: true,
      within: 'event',
      description: "the session, of the station's event (required but at a registration station)",
    },
  },
  policy: {
    ...doorPolicy({ name: 'station', type: 'station', table: stations }),
    update() {
      throw methodNotAllowed(['GET', 'DELETE']);
    },
  },
  createFailures: {
    409: 'The holder already passed this point today (the detail says when and where), or checks out unchecked in',
  },
  updateFailures: { 405: 'A check-in is never changed (the reference has no such method): delete it and check again' },
  hooks: { beforeCreate: checkIn },
});

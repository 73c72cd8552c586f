import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { stations, userCheckIns } from '../../../db/schema/index.js';
import { DateTime, defineResource, methodNotAllowed, Nullable, Text } from '../../jsonapi/index.js';
import { createdAt, deletedAt } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';
import { checkInDetails } from './details.js';

const serverText = (column: string, description: string) => ({
  column,
  schema: Nullable(Text(2048, { description })),
  readOnly: true,
});

/** The reference's answer to each kind of station (UserCheckInSchema.get_check_in_out_status). */
const MESSAGE = sql.raw(`case station_type
  when 'check in' then 'Attendee check in successful.'
  when 'check out' then 'Attendee check out successful.'
  when 'registration' then 'Ticket register successful.'
  when 'daily' then 'Attendee daily check successful.' end`);

export const userCheckInResource = defineResource({
  type: 'user_check_in',
  typeAliases: ['user-check-in'],
  path: 'user-check-in',
  name: 'UserCheckIn',
  tag: 'User check in',
  description:
    'A ticket holder registered, or checked in or out, at a station of its event; the session (required but at a ' +
    "registration station) is of that event and, at a door, in the station's room. Made, read and deleted by the " +
    "event's owner, organizers, coorganizers and registrars (others find nothing); never changed.",
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
      description: "the ticket holder, of the station's event",
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
  updateFailures: { 405: 'A check-in is never changed (the reference has no such method): delete it and check again' },
  hooks: { beforeCreate: checkInDetails },
});

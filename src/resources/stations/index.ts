import { and, eq, isNull, sql } from 'drizzle-orm';
import { STATION_TYPES, stations, stationStorePaxs, userCheckIns } from '../../../db/schema/index.js';
import { conflict, defineResource, unprocessable, type Ctx, type Row } from '../../jsonapi/index.js';
import { choice, createdAt, deletedAt, eventOf, requiredText } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';

/** A door (`check in`, `check out`) is the door of a room: the reference refuses one without its microlocation. */
function doorHasRoom(values: Record<string, unknown>, row?: Row) {
  const type = 'stationType' in values ? values.stationType : row?.stationType;
  const room = 'microlocationId' in values ? values.microlocationId : row?.microlocationId;
  if ((type === 'check in' || type === 'check out') && (room === null || room === undefined))
    throw unprocessable(`A ${type} station needs its microlocation`, '/data/relationships/microlocation');
}

/**
 * A station is deleted with its head counts (the reference cascades both tables), but never while check-ins name
 * it: they are the event's attendance history, which the reference's cascade erased. 409 says so.
 */
async function deleteStation(ctx: Ctx, row: Row) {
  const [held] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(userCheckIns)
    .where(and(eq(userCheckIns.stationId, row.id as number), isNull(userCheckIns.deletedAt)));
  if (held!.count > 0)
    throw conflict(
      `The station holds ${held!.count} check-in${held!.count === 1 ? '' : 's'}, the attendance history of its ` +
        'event: delete them first to delete the station',
    );
  await ctx.db
    .update(stationStorePaxs)
    .set({ deletedAt: new Date() })
    .where(and(eq(stationStorePaxs.stationId, row.id as number), isNull(stationStorePaxs.deletedAt)));
}

export const stationResource = defineResource({
  type: 'station',
  path: 'stations',
  createAliases: ['station'],
  name: 'Station',
  tag: 'Stations',
  description:
    "A desk or door where the event's registrars register ticket holders or check them in and out: readable and " +
    "written by the event's owner, organizers, coorganizers and registrars (others find nothing). A check in or " +
    'check out station is at a microlocation of its event. Deleting a station deletes its head counts (station store ' +
    'paxs) with it; a station that check-ins name is kept (409), so that the attendance history stays whole.',
  table: stations,
  softDelete: 'deletedAt',
  attributes: {
    'station-name': requiredText('stationName', 255),
    'station-type': {
      column: 'stationType',
      schema: choice(STATION_TYPES, 'registration, daily, check in or check out'),
      required: true,
    },
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    microlocation: {
      kind: 'toOne',
      type: 'microlocation',
      column: 'microlocationId',
      within: 'event',
      description: 'the room whose door it is (required for check in and check out), of the same event',
    },
    'station-store-paxs': {
      kind: 'toMany',
      type: 'station-store-pax',
      foreignKey: 'stationId',
      description: 'the head counts taken at the station, per session',
      narrowed: [
        {
          path: 'sessions/:session_id/station-store-paxs',
          param: 'session_id',
          column: 'sessionId',
          operation: 'BySession',
          summary: "List a station's head counts of one session",
          description: 'the id of the session counted',
        },
      ],
    },
    'user-check-ins': {
      kind: 'toMany',
      type: 'user_check_in',
      foreignKey: 'stationId',
      description: 'the registrations and check-ins made at the station',
    },
  },
  policy: doorPolicy(),
  hooks: {
    beforeCreate: (_ctx, values) => doorHasRoom(values),
    beforeUpdate: (_ctx, row, values) => doorHasRoom(values, row),
    beforeDelete: deleteStation,
  },
  deleteFailures: { 409: 'Check-ins name the station: they are the attendance history, kept whole' },
});

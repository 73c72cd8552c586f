import { STATION_TYPES, stations } from '../../../db/schema/index.js';
import { defineResource, unprocessable, type Row } from '../../jsonapi/index.js';
import { choice, createdAt, deletedAt, eventOf, requiredText } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';

/** A door (`check in`, `check out`) is the door of a room: the reference refuses one without its microlocation. */
function doorHasRoom(values: Record<string, unknown>, row?: Row) {
  const type = 'stationType' in values ? values.stationType : row?.stationType;
  const room = 'microlocationId' in values ? values.microlocationId : row?.microlocationId;
  if ((type === 'check in' || type === 'check out') && (room === null || room === undefined))
    throw unprocessable(`A ${type} station needs its microlocation`, '/data/relationships/microlocation');
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
    'check out station is at a microlocation of its event.',
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
  },
});

import { Type } from '@sinclair/typebox';
import { stations, stationStorePaxs } from '../../../db/schema/index.js';
import { DateTime, defineResource, INT4_MAX } from '../../jsonapi/index.js';
import { createdAt, deletedAt, flexibleNumber } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';

export const stationStorePaxResource = defineResource({
  type: 'station-store-pax',
  path: 'station-store-paxs',
  name: 'StationStorePax',
  tag: 'Station store paxs',
  description:
    "How many people a station counted at a session (the reference's station store pax). The station and the " +
    'session are of one event, whose owner, organizers, coorganizers and registrars read and write the count.',
  table: stationStorePaxs,
  softDelete: 'deletedAt',
  attributes: {
    'current-pax': flexibleNumber({
      column: 'currentPax',
      schema: Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'people counted' }),
      required: true,
    }),
    'created-at': createdAt,
    'modified-at': { column: 'modifiedAt', schema: DateTime(), readOnly: true },
    'deleted-at': deletedAt,
  },
  relationships: {
    event: {
      kind: 'toOne',
      type: 'event',
      column: 'eventId',
      readOnly: true,
      description: "the station's event, set by the server",
    },
    station: {
      kind: 'toOne',
      type: 'station',
      column: 'stationId',
      required: true,
      within: 'event',
      description: 'the station that counted',
    },
    session: {
      kind: 'toOne',
      type: 'session',
      column: 'sessionId',
      required: true,
      within: 'event',
      description: "the session counted, of the station's event",
    },
  },
  policy: doorPolicy({ name: 'station', type: 'station', table: stations }),
  hooks: {
    beforeUpdate(_ctx, _row, values) {
      values.modifiedAt = new Date();
    },
  },
});

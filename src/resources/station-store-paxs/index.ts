import { Type } from '@sinclair/typebox';
import { stations, stationStorePaxs } from '../../../db/schema/index.js';
import { DateTime, defineResource, INT4_MAX, unprocessable, type WriteInput } from '../../jsonapi/index.js';
import { createdAt, deletedAt, flexibleNumber } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';

const POINTER = '/data/attributes/current-pax';

/** The count sent in both spellings must be one count. */
function oneCount(input: WriteInput) {
  const { 'current-pax': dashed, current_pax: snake } = input.attributes;
  if (dashed !== undefined && snake !== undefined && Number(dashed) !== Number(snake))
    throw unprocessable('current-pax and current_pax are one member: send one of them', POINTER);
}

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
      schema: Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'people counted (required on create)' }),
    }),
    // The reference's marshmallow also took a member by its field name, and its blueprint's example sends this one.
    current_pax: {
      ...flexibleNumber({
        column: 'currentPax',
        schema: Type.Integer({
          minimum: 0,
          maximum: INT4_MAX,
          description: "current-pax as the reference's API Blueprint spells it; never both with different values",
        }),
      }),
      writeOnly: true,
    },
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
    beforeCreate(_ctx, values, input) {
      oneCount(input);
      if (values.currentPax === undefined)
        throw unprocessable('current-pax is required: how many people the station counted', POINTER);
    },
    beforeUpdate(_ctx, _row, values, input) {
      oneCount(input);
      values.modifiedAt = new Date();
    },
  },
});

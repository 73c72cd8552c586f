import { Type } from '@sinclair/typebox';
import { sessionTypes } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { deletedAt, eventOf, position, requiredText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';

export const sessionTypeResource = defineResource({
  type: 'session-type',
  path: 'session-types',
  name: 'SessionType',
  tag: 'Session types',
  description: 'A kind of session (talk, workshop...) with its usual length.',
  table: sessionTypes,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    length: {
      column: 'length',
      schema: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, e.g. 00:30' }),
      required: true,
    },
    position,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    sessions: { kind: 'toMany', type: 'session', foreignKey: 'sessionTypeId', description: 'sessions of this type' },
  },
  policy: eventRecordPolicy(),
});

import { Type } from '@sinclair/typebox';
import { microlocations } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/resource.js';
import { Nullable } from '../../jsonapi/types.js';
import { deletedAt, eventOf, optionalInteger, optionalText, requiredText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';

export const microlocationResource = defineResource({
  type: 'microlocation',
  path: 'microlocations',
  name: 'Microlocation',
  tag: 'Microlocations',
  description: 'A room or place of an event where sessions happen.',
  table: microlocations,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    latitude: { column: 'latitude', schema: Nullable(Type.Number({ minimum: -90, maximum: 90 })) },
    longitude: { column: 'longitude', schema: Nullable(Type.Number({ minimum: -180, maximum: 180 })) },
    floor: optionalInteger('floor', 'floor number'),
    room: optionalText('room', 255),
    position: { column: 'position', schema: Type.Integer({ minimum: 0, maximum: 2147483647, description: 'display order' }) },
    'hidden-in-scheduler': { column: 'hiddenInScheduler', schema: Type.Boolean() },
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    sessions: { kind: 'toMany', type: 'session', foreignKey: 'microlocationId', description: 'sessions held here' },
  },
  policy: eventRecordPolicy(),
});

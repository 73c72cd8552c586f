import { Type } from '@sinclair/typebox';
import { microlocations, microlocationUserCheckIns } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import {
  coordinates,
  deletedAt,
  eventOf,
  flexibleNumber,
  optionalInteger,
  optionalText,
  position,
  requiredText,
} from '../attributes.js';
import { requireDoor } from '../events/door-policy.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { checkRoomStream } from '../video-streams/index.js';

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
    ...coordinates,
    floor: flexibleNumber(optionalInteger('floor', 'floor number')),
    room: optionalText('room', 255),
    position,
    'hidden-in-scheduler': { column: 'hiddenInScheduler', schema: Type.Boolean() },
    'is-chat-enabled': {
      column: 'isChatEnabled',
      schema: Type.Boolean({ description: 'the room has a chat (default false)' }),
    },
    'is-global-event-room': {
      column: 'isGlobalEventRoom',
      schema: Type.Boolean({ description: "the room is the event's main room for everyone (default false)" }),
    },
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    sessions: { kind: 'toMany', type: 'session', foreignKey: 'microlocationId', description: 'sessions held here' },
    stations: {
      kind: 'toMany',
      type: 'station',
      foreignKey: 'microlocationId',
      description: "the registration desks and doors of the room; its event's door staff only",
      guard: (ctx, row) => requireDoor(ctx, row.eventId as number, 'Microlocation not found'),
    },
    'user-check-in': {
      kind: 'toMany',
      type: 'user_check_in',
      through: { table: microlocationUserCheckIns, from: 'microlocationId', to: 'userCheckInId' },
      readOnly: true,
      description: "the registrations and check-ins at the room's stations; its event's door staff only",
      guard: (ctx, row) => requireDoor(ctx, row.eventId as number, 'Microlocation not found'),
    },
    'video-stream': {
      kind: 'toOne',
      type: 'video-stream',
      column: 'videoStreamId',
      description: 'the online room streaming this room, of the same event',
    },
  },
  policy: eventRecordPolicy({ service: 'microlocation' }),
  hooks: {
    beforeCreate: (ctx, values) => checkRoomStream(ctx, values),
    beforeUpdate: (ctx, row, values) => checkRoomStream(ctx, values, row),
  },
});

import { eventTypes } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { deletedAt } from '../attributes.js';
import { nameAndSlug } from '../event-topics/index.js';
import { staffWritten } from '../staff-written.js';

export const eventTypeResource = defineResource({
  type: 'event-type',
  path: 'event-types',
  name: 'EventType',
  tag: 'Event types',
  description: 'A kind of event (conference, meetup, ...). Everyone reads the types; administrators write them.',
  table: eventTypes,
  softDelete: 'deletedAt',
  attributes: {
    ...nameAndSlug,
    'deleted-at': deletedAt,
  },
  relationships: {
    events: {
      kind: 'toMany',
      type: 'event',
      foreignKey: 'eventTypeId',
      description: 'events of the type that the caller may see',
    },
  },
  policy: staffWritten,
});

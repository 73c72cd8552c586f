import { eventTypes } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/resource.js';
import { Text } from '../../jsonapi/types.js';
import { deletedAt, requiredText } from '../attributes.js';
import { slugOf } from '../event-topics/index.js';
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
    name: { ...requiredText('name', 255), write: (v) => ({ name: v, slug: slugOf(v as string) }) },
    slug: { column: 'slug', schema: Text(255, { description: 'derived from the name' }), readOnly: true },
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

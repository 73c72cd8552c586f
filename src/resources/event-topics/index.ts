import { eventTopics } from '../../../db/schema/index.js';
import { Text, defineResource, type AttributeSpec } from '../../jsonapi/index.js';
import { deletedAt, optionalUrl, requiredText } from '../attributes.js';
import { staffWritten } from '../staff-written.js';

/** `Science & Technology` -> `science-technology`. */
export const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 255) || 'topic';

/** The name of an administrators' list entry (topic, sub-topic, type) and the slug derived from it. */
export const nameAndSlug: Record<'name' | 'slug', AttributeSpec> = {
  name: { ...requiredText('name', 255), write: (v) => ({ name: v, slug: slugOf(v as string) }) },
  slug: { column: 'slug', schema: Text(255, { description: 'derived from the name' }), readOnly: true },
};

export const eventTopicResource = defineResource({
  type: 'event-topic',
  path: 'event-topics',
  name: 'EventTopic',
  tag: 'Event topics',
  description: 'A topic events are filed under. Everyone reads topics; administrators write them.',
  table: eventTopics,
  softDelete: 'deletedAt',
  attributes: {
    ...nameAndSlug,
    'system-image-url': optionalUrl('systemImageUrl'),
    'deleted-at': deletedAt,
  },
  relationships: {
    events: {
      kind: 'toMany',
      type: 'event',
      foreignKey: 'eventTopicId',
      description: 'events of the topic that the caller may see',
    },
    'event-sub-topics': {
      kind: 'toMany',
      type: 'event-sub-topic',
      foreignKey: 'eventTopicId',
      inverse: 'event-topic',
      description: 'the sub-topics of the topic',
    },
  },
  policy: staffWritten,
});

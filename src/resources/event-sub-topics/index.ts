import { eventSubTopics } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { deletedAt } from '../attributes.js';
import { nameAndSlug } from '../event-topics/index.js';
import { staffWritten } from '../staff-written.js';

export const eventSubTopicResource = defineResource({
  type: 'event-sub-topic',
  path: 'event-sub-topics',
  name: 'EventSubTopic',
  tag: 'Event sub-topics',
  description:
    'A sub-topic of an event topic (Science & Technology: Robotics). Everyone reads them; administrators write them, ' +
    'each under its topic.',
  table: eventSubTopics,
  softDelete: 'deletedAt',
  attributes: {
    ...nameAndSlug,
    'deleted-at': deletedAt,
  },
  relationships: {
    'event-topic': {
      kind: 'toOne',
      type: 'event-topic',
      column: 'eventTopicId',
      required: true,
      description: 'the topic the sub-topic belongs to',
    },
    events: {
      kind: 'toMany',
      type: 'event',
      foreignKey: 'eventSubTopicId',
      description: 'events of the sub-topic that the caller may see',
    },
    'custom-placeholder': {
      kind: 'toOne',
      type: 'custom-placeholder',
      foreignKey: 'eventSubTopicId',
      readOnly: true,
      description: "the sub-topic's placeholder image, if any (set on the placeholder)",
    },
  },
  policy: staffWritten,
});

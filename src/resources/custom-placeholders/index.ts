import { customPlaceholders } from '../../../db/schema/index.js';
import { defineResource, Url } from '../../jsonapi/index.js';
import { withImageVariants } from '../../images/variants.js';
import { derivedUrl, optionalText, requiredText } from '../attributes.js';
import { staffWritten } from '../staff-written.js';

/**
 * The image an event of a sub-topic shows when it has none of its own (open-event-server
 * app/api/custom_placeholders.py): administrators set one per sub-topic, everyone reads them. Its
 * large, thumbnail and icon variants are made by the image job at the event image sizes.
 */
export const customPlaceholderResource = defineResource({
  type: 'custom-placeholder',
  path: 'custom-placeholders',
  name: 'CustomPlaceholder',
  tag: 'Custom placeholders',
  description:
    'The placeholder image of an event sub-topic, with its variants. Everyone reads them; administrators write them. ' +
    'A sub-topic has at most one (a second is 409).',
  table: customPlaceholders,
  attributes: {
    name: requiredText('name', 255, 'what the image shows'),
    'original-image-url': {
      column: 'originalImageUrl',
      schema: Url({ description: 'the image as uploaded; its variants are made from it' }),
      required: true,
    },
    'large-image-url': derivedUrl('largeImageUrl', 'large variant (the event image sizes)'),
    'thumbnail-image-url': derivedUrl('thumbnailImageUrl', 'thumbnail variant (the event image sizes)'),
    'icon-image-url': derivedUrl('iconImageUrl', 'icon variant (the event image sizes)'),
    copyright: optionalText('copyright', 2000, "the image's copyright"),
    origin: optionalText('origin', 2000, 'where the image comes from'),
  },
  relationships: {
    'event-sub-topic': {
      kind: 'toOne',
      type: 'event-sub-topic',
      column: 'eventSubTopicId',
      description: 'the sub-topic whose events show it',
    },
  },
  policy: staffWritten,
  hooks: withImageVariants('placeholder'),
  unique: {
    custom_placeholders_sub_topic_idx: {
      pointer: '/data/relationships/event-sub-topic',
      detail: 'The sub-topic already has a custom placeholder',
    },
  },
});

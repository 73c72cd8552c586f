import { socialLinks } from '../../../db/schema/index.js';
import { Url, defineResource } from '../../jsonapi/index.js';
import { deletedAt, eventOf, optionalText, requiredText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';

export const socialLinkResource = defineResource({
  type: 'social-link',
  path: 'social-links',
  name: 'SocialLink',
  tag: 'Social links',
  description: 'A link to the event on another site.',
  table: socialLinks,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    link: { column: 'link', schema: Url(), required: true },
    identifier: optionalText('identifier', 255),
    'deleted-at': deletedAt,
  },
  relationships: { event: eventOf },
  policy: eventRecordPolicy(),
});

import { sponsors } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import {
  deletedAt,
  eventOf,
  flexibleNumber,
  optionalInteger,
  optionalText,
  optionalUrl,
  requiredText,
} from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';

export const sponsorResource = defineResource({
  type: 'sponsor',
  path: 'sponsors',
  name: 'Sponsor',
  tag: 'Sponsors',
  description: 'A sponsor of an event.',
  table: sponsors,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    description: optionalText('description', 100_000),
    url: optionalUrl('url'),
    level: flexibleNumber(optionalInteger('level', 'sponsorship level; lower is more prominent', 0)),
    'logo-url': optionalUrl('logoUrl'),
    type: optionalText('type', 255),
    'deleted-at': deletedAt,
  },
  relationships: { event: eventOf },
  policy: eventRecordPolicy({ service: 'sponsor' }),
});

import { Type } from '@sinclair/typebox';
import { eventCopyrights } from '../../../db/schema/index.js';
import { Nullable, defineResource, unprocessable } from '../../jsonapi/index.js';
import { deletedAt, eventOf, optionalText, optionalUrl, requiredText } from '../attributes.js';
import { eventRecordPolicy } from '../events/record-policy.js';

/** The schema's bound is static; the current year is checked at write time. */
function checkYear(values: Record<string, unknown>) {
  const year = values.year;
  if (typeof year === 'number' && year > new Date().getUTCFullYear())
    throw unprocessable('year must be between 1900 and the current year', '/data/attributes/year');
}

export const eventCopyrightResource = defineResource({
  type: 'event-copyright',
  path: 'event-copyrights',
  aliases: ['event-copyright'],
  name: 'EventCopyright',
  tag: 'Event copyright',
  description: 'The copyright of an event: at most one per event (a second one is 409).',
  table: eventCopyrights,
  softDelete: 'deletedAt',
  attributes: {
    holder: optionalText('holder', 255),
    'holder-url': optionalUrl('holderUrl'),
    licence: requiredText('licence', 255),
    'licence-url': optionalUrl('licenceUrl'),
    year: {
      column: 'year',
      schema: Nullable(Type.Integer({ minimum: 1900, maximum: 9999, description: '1900 to the current year' })),
    },
    'logo-url': optionalUrl('logoUrl'),
    'deleted-at': deletedAt,
  },
  relationships: { event: eventOf },
  policy: eventRecordPolicy(),
  hooks: {
    beforeCreate: (_ctx, values) => checkYear(values),
    beforeUpdate: (_ctx, _row, values) => checkYear(values),
  },
  unique: {
    event_copyrights_event_id_key: {
      pointer: '/data/relationships/event',
      detail: 'The event already has a copyright',
    },
  },
});

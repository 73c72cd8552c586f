import { and, eq, isNull } from 'drizzle-orm';
import { badgeFieldForms, badgeForms } from '../../../db/schema/index.js';
import { defineResource } from '../../jsonapi/index.js';
import { createdAt, deletedAt, eventOf, optionalText, optionalUrl, requiredText } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';

export const badgeFormResource = defineResource({
  type: 'badge-form',
  path: 'badge-forms',
  name: 'BadgeForm',
  tag: 'Badge forms',
  description:
    "The layout of an event's badges: size, colour, background image and orientation; its fields are badge " +
    "field forms. Readable and written by the event's owner, organizers, coorganizers and registrars (others find " +
    'nothing).',
  table: badgeForms,
  softDelete: 'deletedAt',
  attributes: {
    'badge-id': requiredText('badgeId', 255, 'the badge this layout is of, as the front end names it'),
    'badge-size': optionalText('badgeSize', 255),
    'badge-color': optionalText('badgeColor', 255),
    'badge-image-url': optionalUrl('badgeImageUrl', 'the background image'),
    'badge-orientation': optionalText('badgeOrientation', 255, 'Portrait or Landscape'),
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    'badge-field-forms': {
      kind: 'toMany',
      type: 'badge-field-form',
      foreignKey: 'badgeFormId',
      description: 'the fields printed on the badge',
    },
  },
  policy: doorPolicy(),
  hooks: {
    // The reference deletes a badge form's fields with it.
    async beforeDelete(ctx, row) {
      await ctx.db
        .update(badgeFieldForms)
        .set({ deletedAt: new Date() })
        .where(and(eq(badgeFieldForms.badgeFormId, row.id as number), isNull(badgeFieldForms.deletedAt)));
    },
  },
});

import { Type, type TSchema } from '@sinclair/typebox';
import { and, eq, isNull } from 'drizzle-orm';
import { badgeFieldForms, badgeForms } from '../../../db/schema/index.js';
import { defineResource, Text, type AttributeSpec } from '../../jsonapi/index.js';
import { createdAt, deletedAt, eventOf, optionalText, optionalUrl, requiredText } from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';
import { badgeFieldsAttribute, MAX_QR_FIELDS, writeBadgeFields } from './fields.js';

/**
 * A member the front end's badge-form model sends (app/models/badge-form.js) that the reference's schema does not
 * have, so that its marshmallow dropped it: accepted, never stored or returned.
 */
const frontEndOnly = (schema: TSchema, what: string): AttributeSpec => ({
  schema: Type.Union([schema, Type.Null()], {
    description: `ignored, as the reference ignores it: ${what} (the front end's badge editor sends it)`,
  }),
  writeOnly: true,
  write: () => ({}),
});

export const badgeFormResource = defineResource({
  type: 'badge-form',
  path: 'badge-forms',
  name: 'BadgeForm',
  tag: 'Badge forms',
  description:
    "The layout of an event's badges: size, colour, background image and orientation, and the fields printed on it " +
    '(`badge-fields`, each a badge field form, written within the form as the front end does). Readable and written ' +
    "by the event's owner, organizers, coorganizers and registrars (others find nothing). Deleting a form deletes " +
    'its fields.',
  table: badgeForms,
  softDelete: 'deletedAt',
  attributes: {
    'badge-id': requiredText('badgeId', 255, 'the badge this layout is of, as the front end names it'),
    'badge-size': optionalText('badgeSize', 255),
    'badge-color': optionalText('badgeColor', 255),
    'badge-image-url': optionalUrl('badgeImageUrl', 'the background image'),
    'badge-orientation': optionalText('badgeOrientation', 255, 'Portrait or Landscape'),
    'badge-fields': badgeFieldsAttribute,
    'is-showing-sample-data': frontEndOnly(Type.Boolean(), 'whether the editor previews sample data'),
    'badge-qrfields': frontEndOnly(Type.Array(Text(255), { maxItems: MAX_QR_FIELDS }), "the editor's QR fields"),
    'selected-image': frontEndOnly(Text(1024 * 1024), 'the background image the editor shows (a data: URL)'),
    'image-url': frontEndOnly(Text(2048), 'the address of the background image the editor uploaded'),
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
      narrowed: [
        {
          path: 'badge-field-forms/:badge_id',
          param: 'badge_id',
          column: 'badgeId',
          operation: 'ByBadge',
          summary: "List a badge form's fields on one badge",
          description: 'the badge the fields are on',
        },
      ],
    },
  },
  policy: doorPolicy(),
  hooks: {
    async afterCreate(ctx, row, input) {
      const form = { id: row.id as number, badgeId: row.badgeId as string, eventId: row.eventId as number };
      await writeBadgeFields(ctx, form, input.attributes['badge-fields'], true);
    },
    async beforeUpdate(ctx, row, values, input) {
      const badgeId = (values.badgeId as string | undefined) ?? (row.badgeId as string);
      const form = {
        id: row.id as number,
        badgeId,
        eventId: row.eventId as number,
        formerBadgeId: row.badgeId as string,
      };
      await writeBadgeFields(ctx, form, input.attributes['badge-fields'], false);
    },
    // The reference deletes a badge form's fields with it.
    async beforeDelete(ctx, row) {
      await ctx.db
        .update(badgeFieldForms)
        .set({ deletedAt: new Date() })
        .where(and(eq(badgeFieldForms.badgeFormId, row.id as number), isNull(badgeFieldForms.deletedAt)));
    },
  },
});

import { Type } from '@sinclair/typebox';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { badgeFieldForms, badgeForms } from '../../../db/schema/index.js';
import { defineResource, Nullable, Text, unprocessable, type Ctx } from '../../jsonapi/index.js';
import { createdAt, deletedAt, flexibleBoolean, flexibleNumber, optionalText, requiredText } from '../attributes.js';
import { FONT_SIZE, FontWeight, MARGIN, MAX_BADGE_FIELDS, MAX_QR_FIELDS, ROTATION } from '../badge-forms/fields.js';
import { doorPolicy } from '../events/door-policy.js';

/** An integer of a field within `bounds` (a badge is at most 152.4 mm long), or null. */
const bounded = (column: string, bounds: { minimum: number; maximum: number }, description: string) =>
  flexibleNumber({ column, schema: Nullable(Type.Integer({ ...bounds, description })) });
const margin = (column: string) => bounded(column, MARGIN, 'in millimetres');

/** A form holds at most MAX_BADGE_FIELDS live fields, however they are added (here or within the form): 422. */
async function roomOnForm(ctx: Ctx, formId: unknown) {
  // The form's row is the lock every addition of a field takes (a form's own write locks it too): two at once
  // cannot both take the last place.
  await ctx.db
    .select({ id: badgeForms.id })
    .from(badgeForms)
    .where(eq(badgeForms.id, formId as number))
    .for('update');
  const [held] = await ctx.db
    .select({ count: sql<number>`count(*)::int` })
    .from(badgeFieldForms)
    .where(and(eq(badgeFieldForms.badgeFormId, formId as number), isNull(badgeFieldForms.deletedAt)));
  if (held!.count >= MAX_BADGE_FIELDS)
    throw unprocessable(
      `The badge form holds ${held!.count} fields, the most a form holds (${MAX_BADGE_FIELDS})`,
      '/data/relationships/badge-form',
    );
}

export const badgeFieldFormResource = defineResource({
  type: 'badge-field-form',
  typeAliases: ['badge_field_form'],
  path: 'badge-field-forms',
  name: 'BadgeFieldForm',
  tag: 'Badge field forms',
  description:
    'One field printed on a badge: what it shows (a field of the ticket holder, or custom text), its font, ' +
    "colour, rotation, alignment and margins. Of a badge form, whose event's owner, organizers, coorganizers and " +
    'registrars read and write it.',
  table: badgeFieldForms,
  softDelete: 'deletedAt',
  attributes: {
    'badge-id': requiredText('badgeId', 255, 'the badge the field is on, as its badge form names it'),
    'field-identifier': optionalText('fieldIdentifier', 255),
    'custom-field': optionalText('customField', 255),
    'sample-text': optionalText('sampleText', 2048),
    'font-size': bounded('fontSize', FONT_SIZE, 'in points'),
    'font-name': optionalText('fontName', 255),
    'font-weight': { column: 'fontWeight', schema: Nullable(Type.Array(FontWeight, { maxItems: 16 })) },
    'font-color': optionalText('fontColor', 255),
    'text-rotation': bounded('textRotation', ROTATION, 'in degrees'),
    'text-alignment': optionalText('textAlignment', 255),
    'text-type': optionalText('textType', 255),
    'is-deleted': flexibleBoolean('isDeleted', 'the front end marks a field it removed (default false)'),
    'margin-top': margin('marginTop'),
    'margin-bottom': margin('marginBottom'),
    'margin-left': margin('marginLeft'),
    'margin-right': margin('marginRight'),
    'qr-custom-field': {
      column: 'qrCustomField',
      schema: Nullable(Type.Array(Text(255), { maxItems: MAX_QR_FIELDS, description: 'the fields the QR code holds' })),
    },
    'is-field-expanded': flexibleBoolean('isFieldExpanded', 'the editor shows the field open (default false)'),
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: {
      kind: 'toOne',
      type: 'event',
      column: 'eventId',
      readOnly: true,
      description: "the badge form's event, set by the server",
    },
    'badge-form': {
      kind: 'toOne',
      type: 'badge-form',
      column: 'badgeFormId',
      required: true,
      within: 'event',
      description: 'the badge the field is printed on',
    },
  },
  policy: doorPolicy({ name: 'badge-form', type: 'badge form', table: badgeForms }),
  hooks: {
    beforeCreate: (ctx, values) => roomOnForm(ctx, values.badgeFormId),
    async beforeUpdate(ctx, row, values) {
      if (values.badgeFormId !== undefined && values.badgeFormId !== row.badgeFormId)
        await roomOnForm(ctx, values.badgeFormId);
    },
  },
});

import { Type } from '@sinclair/typebox';
import { badgeFieldForms, badgeForms } from '../../../db/schema/index.js';
import { defineResource, Nullable, Text } from '../../jsonapi/index.js';
import {
  createdAt,
  deletedAt,
  flexibleBoolean,
  flexibleNumber,
  optionalInteger,
  optionalText,
  requiredText,
} from '../attributes.js';
import { doorPolicy } from '../events/door-policy.js';

const margin = (column: string) => flexibleNumber(optionalInteger(column, 'in millimetres'));

/** One of the reference's FontWeight entries: which weight, style and decoration a field is printed in. */
const FontWeight = Type.Object(
  {
    name: Type.Optional(Text(255)),
    font_weight: Type.Optional(Text(255)),
    font_style: Type.Optional(Text(255)),
    text_decoration: Type.Optional(Text(255)),
  },
  { additionalProperties: false },
);

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
    'font-size': flexibleNumber(optionalInteger('fontSize', 'in points', 0)),
    'font-name': optionalText('fontName', 255),
    'font-weight': { column: 'fontWeight', schema: Nullable(Type.Array(FontWeight, { maxItems: 16 })) },
    'font-color': optionalText('fontColor', 255),
    'text-rotation': flexibleNumber(optionalInteger('textRotation', 'in degrees')),
    'text-alignment': optionalText('textAlignment', 255),
    'text-type': optionalText('textType', 255),
    'is-deleted': flexibleBoolean('isDeleted', 'the front end marks a field it removed (default false)'),
    'margin-top': margin('marginTop'),
    'margin-bottom': margin('marginBottom'),
    'margin-left': margin('marginLeft'),
    'margin-right': margin('marginRight'),
    'qr-custom-field': {
      column: 'qrCustomField',
      schema: Nullable(Type.Array(Text(255), { maxItems: 64, description: 'the fields the QR code holds' })),
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
});

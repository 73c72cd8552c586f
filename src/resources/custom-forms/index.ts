import { customForms } from '../../../db/schema/index.js';
import { Nullable, defineResource } from '../../jsonapi/index.js';
import {
  choice,
  eventOf,
  flexibleBoolean,
  optionalInteger,
  optionalText,
  position,
  requiredText,
} from '../attributes.js';
import { translations } from '../form-values.js';
import { checkBounds } from './bounds.js';
import { eventRecordPolicy } from '../events/record-policy.js';

const FORMS = ['attendee', 'session', 'speaker'] as const;
const TYPES = [
  'text',
  'checkbox',
  'select',
  'file',
  'image',
  'email',
  'number',
  'paragraph',
  'richtextlink',
  'boolean',
  'year',
] as const;

export const customFormResource = defineResource({
  // The spec's spelling; the dasherized one of the system we replace is accepted in requests too.
  type: 'custom_form',
  typeAliases: ['custom-form'],
  path: 'custom-forms',
  name: 'CustomForm',
  tag: 'Custom forms',
  description:
    "A field of one of an event's forms (attendee, session or speaker). Logged-in users read them; the " +
    'event\'s organizers and coorganizers write them. Boolean attributes also accept "true"/"false".',
  table: customForms,
  attributes: {
    form: { column: 'form', schema: choice(FORMS, 'the form the field belongs to'), required: true },
    'field-identifier': requiredText('fieldIdentifier', 255, "unique within the event's form"),
    type: { column: 'type', schema: choice(TYPES, 'kind of input (default text)') },
    name: optionalText('name', 255),
    description: optionalText('description', 10_000),
    'is-required': flexibleBoolean('isRequired', 'the field must be filled in'),
    'is-included': flexibleBoolean('isIncluded', 'the field is shown in the form'),
    'is-fixed': flexibleBoolean('isFixed', 'a built-in field that cannot be removed'),
    'is-public': flexibleBoolean('isPublic', 'answers are shown publicly'),
    // The form editor's new fields carry no position (app/models/custom-form.js:75): null means 0.
    position: { ...position, input: Nullable(position.schema), write: (value) => ({ position: value ?? 0 }) },
    'is-complex': flexibleBoolean(
      'isComplex',
      "a field the organizers added (answers go to the record's complex-field-values)",
    ),
    'is-allow-edit': flexibleBoolean('isAllowEdit', 'answers may be changed after submission'),
    'form-id': optionalText(
      'formId',
      255,
      "identifier of the form the field belongs to (the front end's formID; default empty)",
    ),
    min: optionalInteger('min', 'least length or value of an answer (default 0)'),
    max: optionalInteger('max', 'greatest length or value of an answer (default 10); not below min'),
    translations,
    'main-language': optionalText('mainLanguage', 35, 'language of name (default en)'),
  },
  relationships: {
    event: eventOf,
    'custom-form-options': {
      kind: 'toMany',
      type: 'custom-form-option',
      foreignKey: 'customFormId',
      inverse: 'custom-form',
      description: 'the choices of a select, radio or checkbox field',
    },
  },
  policy: eventRecordPolicy({ readersMustLogIn: true }),
  hooks: {
    beforeCreate: (_ctx, values) => checkBounds(values),
    beforeUpdate: (_ctx, row, values) => checkBounds(values, row),
  },
  unique: {
    custom_forms_field_key: {
      pointer: '/data/attributes/field-identifier',
      detail: "The event's form already has a field with this identifier",
    },
  },
});

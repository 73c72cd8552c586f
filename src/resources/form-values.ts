/**
 * Structured JSON members the Open Event front end sends as untyped `attr()`: each stored as jsonb and
 * held to the one shape its client reads, with bounded sizes, so no member stores arbitrary documents.
 */
import { Type } from '@sinclair/typebox';
import { INT4_MAX, Nullable, type AttributeSpec } from '../jsonapi/index.js';

/** The reference's `max_complex_custom_fields` default: answers to an event's own (complex) form fields. */
export const MAX_COMPLEX_FIELDS = 30;

/**
 * Answers to the event's own form fields (custom forms with is-complex), by field identifier: a flat
 * object of strings, numbers, booleans or nulls, as the reference validates it.
 */
export const complexFieldValues = (column: string): AttributeSpec => ({
  column,
  schema: Nullable(
    Type.Object(
      {},
      {
        additionalProperties: Type.Union([
          Type.String({ maxLength: 10_000 }),
          Type.Number(),
          Type.Boolean(),
          Type.Null(),
        ]),
        propertyNames: { pattern: '^[A-Za-z0-9_-]{1,255}$' },
        maxProperties: MAX_COMPLEX_FIELDS,
        description:
          `answers to the event's complex custom form fields: {field-identifier: string, number, boolean or null}, ` +
          `at most ${MAX_COMPLEX_FIELDS} fields, strings up to 10000 characters`,
      },
    ),
  ),
});

/** A session's documents: `[{name, link}]`; the submission form adds blank rows before they are filled in. */
export const slides: AttributeSpec = {
  column: 'slides',
  schema: Nullable(
    Type.Array(
      Type.Object(
        {
          name: Type.String({
            maxLength: 255,
            description: 'title of the document (may be blank while being filled in)',
          }),
          link: Type.String({
            maxLength: 2048,
            pattern: '^(https?://\\S+)?$',
            description: 'http(s) URL of the document, or blank',
          }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 20, description: 'the documents of the session (slides), at most 20: [{name, link}]' },
    ),
  ),
};

/** A speaker's place among the speakers of each of their sessions: {session id: position}. */
export const speakerPositions: AttributeSpec = {
  column: 'speakerPositions',
  schema: Nullable(
    Type.Object(
      {},
      {
        additionalProperties: Type.Integer({ minimum: 0, maximum: INT4_MAX }),
        propertyNames: { pattern: '^[0-9]{1,10}$' },
        maxProperties: 500,
        description: "the speaker's position among each session's speakers: {session id: position from 0}",
      },
    ),
  ),
};

const Translation = Type.Object(
  {
    id: Type.Optional(
      Type.Union([Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0, maximum: INT4_MAX }), Type.Null()]),
    ),
    form_id: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    name: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
    code: Type.Optional(Type.Union([Type.String({ maxLength: 35 }), Type.Null()])),
    language_code: Type.Optional(Type.Union([Type.String({ maxLength: 35 }), Type.Null()])),
    isDeleted: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  { additionalProperties: false },
);

/**
 * A custom form field's names in other languages, as the form editor sends them; entries marked
 * isDeleted are removed, as the reference removes their rows.
 */
export const translations: AttributeSpec = {
  column: 'translations',
  schema: Nullable(
    Type.Array(Translation, {
      maxItems: 50,
      description:
        'the field name in other languages: [{name, language_code, code, id, form_id, isDeleted}], at most 50; ' +
        'entries with isDeleted true are dropped',
    }),
  ),
  write: (value) => ({
    translations:
      value === null ? null : (value as { isDeleted?: boolean | null }[]).filter((t) => t.isDeleted !== true),
  }),
};

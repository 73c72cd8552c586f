/** Attribute and relationship declarations that many resources share. */
import { Type } from '@sinclair/typebox';
import {
  DateTime,
  INT4_MAX,
  Nullable,
  Text,
  Url,
  type AttributeSpec,
  type ToManySpec,
  type ToOneSpec,
} from '../jsonapi/index.js';

/** One of a fixed list of strings. */
export const choice = (values: readonly string[], description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

/** A required, non-empty string. */
export const requiredText = (column: string, maxLength: number, description?: string): AttributeSpec => ({
  column,
  schema: Text(maxLength, { minLength: 1, description }),
  required: true,
});

/** An optional string; null clears it. */
export const optionalText = (column: string, maxLength: number, description?: string): AttributeSpec => ({
  column,
  schema: Nullable(Text(maxLength, { description })),
});

/** An optional http(s) URL; null clears it. */
export const optionalUrl = (column: string, description?: string): AttributeSpec => ({
  column,
  schema: Nullable(Url({ description })),
});

/** A URL only the server writes (image variants). */
export const derivedUrl = (column: string, description: string): AttributeSpec => ({
  column,
  schema: Nullable(Url({ description })),
  readOnly: true,
});

export const optionalInteger = (column: string, description: string, minimum = -INT4_MAX - 1): AttributeSpec => ({
  column,
  schema: Nullable(Type.Integer({ minimum, maximum: INT4_MAX, description })),
});

/** Display order among the event's records of one kind. */
export const position: AttributeSpec = {
  column: 'position',
  schema: Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'display order' }),
};

/** A place: latitude (-90..90) and longitude (-180..180), each optional. */
export const coordinates: Record<'latitude' | 'longitude', AttributeSpec> = {
  latitude: { column: 'latitude', schema: Nullable(Type.Number({ minimum: -90, maximum: 90 })) },
  longitude: { column: 'longitude', schema: Nullable(Type.Number({ minimum: -180, maximum: 180 })) },
};

export const createdAt: AttributeSpec = { column: 'createdAt', schema: DateTime(), readOnly: true };
export const deletedAt: AttributeSpec = {
  column: 'deletedAt',
  schema: Nullable(DateTime({ description: 'set when the record was deleted; deleted records are never returned' })),
  readOnly: true,
};

/**
 * A boolean as clients send it: JSON true/false or the quoted literals "true"/"false" (the documented
 * request samples quote them). Responses always carry a JSON boolean.
 */
export const flexibleBoolean = (column: string, description: string): AttributeSpec => ({
  column,
  schema: Type.Boolean({ description }),
  input: Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], { description }),
  write: (value) => ({ [column]: value === true || value === 'true' }),
});

/** The event a record belongs to: named on create, never changed afterwards. */
export const eventOf: ToOneSpec = {
  kind: 'toOne',
  type: 'event',
  column: 'eventId',
  required: true,
  immutable: true,
  description: 'the event the record belongs to; set on create and never changed',
};

/** The event's records of one type (a foreign key `eventId` on the target). */
export const recordsOfEvent = (type: string, description: string, inverse?: string): ToManySpec => ({
  kind: 'toMany',
  type,
  foreignKey: 'eventId',
  description,
  ...(inverse ? { inverse } : {}),
});

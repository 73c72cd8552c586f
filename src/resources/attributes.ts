/** Attribute and relationship declarations that many resources share. */
import { Type, type TSchema } from '@sinclair/typebox';
import {
  DateTime,
  INT4_MAX,
  Nullable,
  Text,
  Url,
  unprocessable,
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

export const createdAt: AttributeSpec = { column: 'createdAt', schema: DateTime(), readOnly: true };
export const deletedAt: AttributeSpec = {
  column: 'deletedAt',
  schema: Nullable(
    DateTime({
      description:
        'set when the record was deleted; deleted records are returned only to administrators who ask with get_trashed=true',
    }),
  ),
  readOnly: true,
};

/**
 * A boolean as clients send it: JSON true/false or the quoted literals "true"/"false" (the documented
 * request samples quote them). Responses always carry a JSON boolean.
 */
export const flexibleBoolean = (column: string, description: string, defaultValue?: boolean): AttributeSpec => ({
  column,
  schema: Type.Boolean({ description, ...(defaultValue === undefined ? {} : { default: defaultValue }) }),
  input: Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false')], { description }),
  write: (value) => ({ [column]: value === true || value === 'true' }),
});

/** A JSON number written as a string, nothing around it ("12.5", "-3", "1e3"). */
const NUMBER_TEXT = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$';
const INTEGER_TEXT = '^-?(0|[1-9][0-9]*)$';

/** The number member of a (possibly nullable) number or integer schema. */
function numberSchema(schema: TSchema): TSchema | undefined {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('number') || types.includes('integer')) return schema;
  return (schema.anyOf as TSchema[] | undefined)?.map(numberSchema).find((s) => s !== undefined);
}

/**
 * A numeric attribute as clients send it: a JSON number or a string that is exactly one ("12.5"; the
 * documented request samples quote them, and the reference's marshmallow accepts both). The string is
 * stored as the number, under the attribute's own bounds; responses always carry a JSON number.
 */
export const flexibleNumber = (attr: AttributeSpec): AttributeSpec => {
  const number = numberSchema(attr.schema);
  if (!number) throw new Error('flexibleNumber needs a number or integer attribute');
  const integer = ([] as unknown[]).concat(number.type).includes('integer');
  const text = Type.String({
    pattern: integer ? INTEGER_TEXT : NUMBER_TEXT,
    description: `the same ${integer ? 'integer' : 'number'} as a string`,
  });
  return {
    ...attr,
    input: Type.Union([attr.schema, text], { description: number.description }),
    write: (value, wire) => {
      let written = value;
      if (typeof value === 'string') {
        written = Number(value);
        const at = `/data/attributes/${wire}`;
        const low = number.minimum as number | undefined;
        const high = number.maximum as number | undefined;
        if (!Number.isFinite(written)) throw unprocessable(`${at} must be a finite number`, at);
        if (integer && !Number.isSafeInteger(written)) throw unprocessable(`${at} must be integer`, at);
        if (low !== undefined && (written as number) < low) throw unprocessable(`${at} must be >= ${low}`, at);
        if (high !== undefined && (written as number) > high) throw unprocessable(`${at} must be <= ${high}`, at);
      }
      return attr.write ? attr.write(written, wire) : { [attr.column!]: written };
    },
  };
};

/** A place: latitude (-90..90) and longitude (-180..180), each optional. */
export const coordinates: Record<'latitude' | 'longitude', AttributeSpec> = {
  latitude: flexibleNumber({ column: 'latitude', schema: Nullable(Type.Number({ minimum: -90, maximum: 90 })) }),
  longitude: flexibleNumber({ column: 'longitude', schema: Nullable(Type.Number({ minimum: -180, maximum: 180 })) }),
};

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

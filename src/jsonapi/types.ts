import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * `T | null` as a JSON Schema type array (`["string","null"]`) rather than `anyOf`: the same
 * OpenAPI 3.1 meaning, and fast-json-stringify serialises it without trying each branch.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });

/**
 * The object schema `$id` names, with the `required` members required: how a create shares the members an
 * update declares. `required` stands beside `allOf`, not in it, so openapi-typescript types the members as
 * required (`WithRequired<...>`); inside it they came out optional.
 */
export const Requiring = ($id: string, required: string[]) => Type.Unsafe({ allOf: [Type.Ref($id)], required });

export const DateTime = (options: { description?: string } = {}) => Type.String({ format: 'date-time', ...options });
export const Url = (options: { description?: string } = {}) =>
  Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://', ...options });
export const Text = (maxLength: number, options: { description?: string; minLength?: number } = {}) =>
  Type.String({ maxLength, ...options });

// ajv-formats' `email` with blanks allowed around it: clients send pasted addresses, which
// the write path trims; `format: 'email'` alone would refuse them before any trim could run.
const ADDRESS =
  "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*" +
  '@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
export const Email = (options: { description?: string } = {}) =>
  Type.String({
    maxLength: 254,
    pattern: `^\\s*${ADDRESS}\\s*$`,
    description: 'an email address; surrounding blanks are trimmed',
    ...options,
  });

/** An IANA time zone name (`Europe/Berlin`), checked against the zones this runtime knows. */
export const TimeZone = (options: { description?: string } = {}) =>
  Type.String({ format: 'iana-timezone', maxLength: 64, ...options });

/** The canonical spelling of a time zone name, or undefined for one that does not exist. */
export function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

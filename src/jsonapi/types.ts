import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * `T | null` as a JSON Schema type array (`["string","null"]`) rather than `anyOf`: the same
 * OpenAPI 3.1 meaning, and fast-json-stringify serialises it without trying each branch.
 */
export const Nullable = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });

export const DateTime = (options: { description?: string } = {}) => Type.String({ format: 'date-time', ...options });
export const Url = (options: { description?: string } = {}) =>
  Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://', ...options });
export const Text = (maxLength: number, options: { description?: string; minLength?: number } = {}) =>
  Type.String({ maxLength, ...options });

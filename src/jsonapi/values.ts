/** Checks for values JSON Schema lets through but PostgreSQL refuses, so they answer 4xx, not 500. */

/** The largest value of PostgreSQL's `integer` (int4), the type of every id. */
export const INT4_MAX = 2147483647;

/** The positive int4 a string of digits names, or undefined for anything that cannot be an id. */
export function integerId(raw: unknown): number | undefined {
  const n = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= INT4_MAX ? n : undefined;
}

/** A UUID as PostgreSQL's `uuid` reads it (the ids of tasks): anything else fails the statement. */
export const isUuid = (raw: unknown): raw is string =>
  typeof raw === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw);

/** True when a string anywhere in the value holds a NUL character, which PostgreSQL text and jsonb refuse. */
export const hasNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\u0000')
    : typeof value === 'object' && value !== null && Object.values(value).some(hasNul);

/** The date a string names, if PostgreSQL can store it: JavaScript dates reach far beyond years 1-9999. */
export function storableDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  const year = date.getUTCFullYear();
  return Number.isNaN(date.getTime()) || year < 1 || year > 9999 ? undefined : date;
}

/** Resource identifiers of a request document's relationship member. */
export type Linkage = { type: string; id: string } | null | { type: string; id: string }[];

/** Identifiers of a request's relationship member, as the write input records them. */
export function linkageIds(data: Linkage): string | null | string[] {
  if (data === null) return null;
  return Array.isArray(data) ? data.map((d) => d.id) : data.id;
}

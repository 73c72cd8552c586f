/** Checks for values JSON Schema lets through but PostgreSQL refuses, so they answer 4xx, not 500. */

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

import { DateTime } from 'luxon';

/** A date-time read: the instant (ISO, UTC), and when the text gave no offset, how it was read. */
export type DateRead = { iso: string; note?: string } | { error: string };

const DATE_ONLY = /^\d{4}-\d{1,2}-\d{1,2}$/;

/** The first reading of `text` in `zone` that luxon accepts: ISO 8601, SQL-like, RFC 2822, HTTP. */
function parsed(text: string, zone: string): DateTime | undefined {
  const options = { zone, setZone: true };
  for (const read of [DateTime.fromISO, DateTime.fromSQL, DateTime.fromRFC2822, DateTime.fromHTTP]) {
    const date = read(text, options);
    if (date.isValid) return date;
  }
  return undefined;
}

/**
 * A date-time of an archive. With an offset (or `Z`) it is that instant; without one it is a local
 * time of the event's zone; a date alone is the start of that day there, or with `end`, the end of it
 * (the start of the next day). Empty text is no date (null); anything unreadable is an error.
 */
export function readDateTime(value: unknown, zone: string, { end = false } = {}): DateRead | null {
  if (typeof value !== 'string') return { error: 'not a date-time' };
  const text = value.trim();
  if (text === '') return null;
  if (DATE_ONLY.test(text)) {
    const day = DateTime.fromISO(text.replace(/-(\d)(?=-|$)/g, '-0$1'), { zone });
    if (!day.isValid) return { error: 'not a date' };
    const at = end ? day.plus({ days: 1 }) : day;
    return checked(
      at,
      `a date without a time: read as the ${end ? 'end' : 'start'} of that day in ${zone}, ${at.toISO({ suppressMilliseconds: true })}`,
    );
  }
  const date = parsed(text, zone);
  if (!date) return { error: 'not a date-time' };
  // Read in a second zone: text without an offset names another instant there.
  const local = parsed(text, zone === 'UTC' ? 'Etc/GMT-1' : 'UTC')!.toMillis() !== date.toMillis();
  return checked(
    date,
    local ? `a local time: read in ${zone} as ${date.toISO({ suppressMilliseconds: true })}` : undefined,
  );
}

/** PostgreSQL stores the years 1 to 9999. */
function checked(date: DateTime, note: string | undefined): DateRead {
  if (date.year < 1 || date.year > 9999) return { error: 'a year PostgreSQL cannot store' };
  return { iso: date.toUTC().toISO()!, ...(note ? { note } : {}) };
}

/** The instant of a date-time and the offset it was written with (none for a local time): hints for the event's zone. */
export function writtenInstant(value: unknown): { at: Date; offset?: number } | undefined {
  const read = readDateTime(value, 'UTC');
  if (!read || 'error' in read) return undefined;
  const at = new Date(read.iso);
  if (read.note) return { at };
  const date = parsed((value as string).trim(), 'UTC')!;
  return { at, offset: date.offset };
}

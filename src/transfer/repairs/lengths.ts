/** A repaired value: the value, and a note when it is not the value as written. */
export type Repaired<T> = { value: T; note?: string } | { error: string };

const LONGEST = 24 * 60 - 1;
const SPELLED = /^(?:(\d+)\s*(?:h|hrs?|hours?))?\s*(?:(\d+)\s*(m|mins?|minutes?)?)?$/;

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Minutes of `3 hours`, `90 min`, `1h30`, `1 hour 30 minutes`; a bare number has no unit and is none. */
function spelledMinutes(text: string): number | undefined {
  const match = SPELLED.exec(text);
  if (!match || (match[1] === undefined && match[3] === undefined)) return undefined;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/**
 * A session type's length as `HH:MM`. Old archives wrote `00.45`, `0:45`, `2:00`, `3.30` (hours and
 * minutes either way), `3 hours` or `90 min`. A day or more is cut to 23:59, the longest length.
 */
export function readLength(value: unknown): Repaired<string> {
  if (typeof value !== 'string') return { error: 'not a length (HH:MM)' };
  const text = value.trim().toLowerCase();
  let minutes: number | undefined;
  const clock = /^(\d{1,2})[.:h](\d{1,2})$/.exec(text);
  if (clock) minutes = Number(clock[2]) < 60 ? Number(clock[1]) * 60 + Number(clock[2]) : undefined;
  else minutes = spelledMinutes(text);
  if (minutes === undefined) return { error: 'not a length (HH:MM)' };
  if (minutes > LONGEST) return { value: hhmm(LONGEST), note: `longer than a length can be: cut to ${hhmm(LONGEST)}` };
  const length = hhmm(minutes);
  return length === value ? { value } : { value: length, note: `read as ${length}` };
}

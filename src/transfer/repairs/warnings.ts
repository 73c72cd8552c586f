/** An import refused because of what the archive holds; the message names the file and the old id. */
export class ImportError extends Error {}

/** One repair or drop of an import: where in the archive, the value as found, and what was done with it. */
export interface ImportWarning {
  /** The archive's file, as named in the archive (`sessions`, `forms`, `tracks.json`). */
  file: string;
  /** The record's id in the archive; null for what concerns a whole file. */
  id: string | number | null;
  /** The field as named in the archive; null for what concerns a whole record or file. */
  field: string | null;
  /** The value as found (long values cut); null when there is none. */
  value: unknown;
  action: string;
}

/** The warnings a finished import reports: how many, and the first of them. */
export interface WarningSummary {
  total: number;
  items: ImportWarning[];
}

/** Warnings kept in the task result; the total counts them all. */
export const WARNINGS_KEPT = 200;
const VALUE_CHARS = 200;

/** Text of an archive with each NUL character shown as the two characters `\0`: PostgreSQL's text and jsonb refuse NULs. */
export const printable = (text: string) => text.replace(/\0/g, '\\0');

/** A value as a warning shows it: scalars as they are, long strings and structures cut to a text of VALUE_CHARS. */
function shownValue(value: unknown): unknown {
  if (value === undefined) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= VALUE_CHARS && !text.includes('\0') && !text.includes('\\u0000')) return value;
  return `${printable(text)
    .replace(/\\u0000/g, '\\0')
    .slice(0, VALUE_CHARS)}${text.length > VALUE_CHARS ? '…' : ''}`;
}

/** A warning as one line of text: `File sessions, ID 32: state "Foo": unknown value; "draft" applies`. */
export function describe(w: ImportWarning): string {
  const where = `File ${w.file}${w.id === null ? '' : `, ID ${typeof w.id === 'string' ? JSON.stringify(w.id) : w.id}`}`;
  const what = w.field === null ? '' : `${w.field}${w.value === null ? '' : ` ${JSON.stringify(w.value)}`}: `;
  return `${where}: ${what}${w.action}`;
}

export interface WarningInput {
  file: string;
  id?: string | number | null;
  field?: string | null;
  value?: unknown;
  action: string;
}

/**
 * The warnings of one import. A strict import refuses the archive at the first one (ImportError with
 * the warning's text), except for fields this service has no place for: those were always left out.
 */
export class Warnings {
  total = 0;
  readonly items: ImportWarning[] = [];

  constructor(readonly strict = false) {}

  add(input: WarningInput, { strictAccepts = false } = {}) {
    const warning: ImportWarning = {
      file: input.file,
      id: typeof input.id === 'string' ? printable(input.id) : (input.id ?? null),
      field: input.field === undefined || input.field === null ? null : printable(input.field),
      value: shownValue(input.value),
      action: printable(input.action),
    };
    if (this.strict && !strictAccepts)
      throw new ImportError(`${describe(warning)} (a strict import refuses the archive instead)`);
    this.total += 1;
    if (this.items.length < WARNINGS_KEPT) this.items.push(warning);
  }

  summary(): WarningSummary {
    return { total: this.total, items: this.items };
  }
}

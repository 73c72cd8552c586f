import { Type } from '@sinclair/typebox';
import { makeAjv } from '../validation.js';

/** Control characters never belong in a name that lands in HTML, JSON, file names and mail subjects: */
/** C0 and C1 controls, line and paragraph separators, and the bidirectional overrides and isolates. */
export const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const PRINTABLE_NAME = `^[^${CONTROL}]*[^\\s${CONTROL}][^${CONTROL}]*$`;

/** What a build needs, as every entry point checks it (the answers differ, the rules do not). */
export const FIELDS = {
  email: Type.String({ format: 'email', maxLength: 254, description: 'where the app (or the build log) is mailed' }),
  app_name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: PRINTABLE_NAME,
    description: 'the name of the app, 1 to 100 characters',
  }),
  endpoint: Type.String({
    format: 'uri',
    maxLength: 2048,
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+([/?#]\\S*)?$',
    description: "the event's JSON:API URL, e.g. `https://api.example.org/v1/events/42`",
  }),
};
export type Field = keyof typeof FIELDS;

const ajv = makeAjv(false);
const checks = Object.fromEntries(
  Object.entries(FIELDS).map(([name, schema]) => [name, ajv.compile(schema)]),
) as unknown as Record<Field, (value: unknown) => boolean>;

/** Hosts a browser and a CSP can take as they are: DNS names (IDNs arrive in punycode) or IP literals. */
const PLAIN_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

/**
 * Whether `value` is a good `field`. The endpoint's format check leaves URLs no fetch can use (a port
 * above 65535) or whose host a browser's CSP would misread (punctuation the URL standard allows in hosts).
 */
export function isValid(field: Field, value: unknown): value is string {
  if (!checks[field](value)) return false;
  return field !== 'endpoint' || PLAIN_HOST.test(URL.parse(value as string)?.hostname ?? '');
}

export const FIELD_MESSAGES: Record<Field, string> = {
  email: 'email must be a valid e-mail address',
  app_name: 'app_name must be 1 to 100 characters, not only spaces, without control characters',
  endpoint: 'endpoint must be an http(s) URL without credentials',
};

export const Warnings = Type.Array(Type.String(), {
  description: 'what was ignored: members the entry point does not know',
});

const MAX_WARNINGS = 10;

/** One warning per member the entry point does not know (a bounded list: the rest are counted). */
export function unknownMembers(body: Record<string, unknown>, known: readonly string[]): string[] {
  const unknown = Object.keys(body).filter((name) => !known.includes(name));
  const shown = unknown
    .slice(0, MAX_WARNINGS)
    .map((name) => `unknown member ${JSON.stringify(name.slice(0, 64))} was ignored`);
  if (unknown.length > MAX_WARNINGS) shown.push(`${unknown.length - MAX_WARNINGS} more unknown members were ignored`);
  return shown;
}

/** The build's name from the event's: control characters and runs of spaces made one space, at most 100 characters. */
export function nameFromEvent(eventName: string): string {
  const name = Array.from(eventName.replace(new RegExp(`[\\s${CONTROL}]+`, 'gu'), ' ').trim())
    .slice(0, 100)
    .join('')
    .trim();
  return name || 'Event app';
}

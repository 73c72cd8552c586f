import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { valueKind } from '../../jsonapi/index.js';
import { makeAjv } from '../../validation.js';
import { readChoice } from './choices.js';
import { readDateTime } from './dates.js';
import type { Repaired } from './lengths.js';

/** What reading a field gave: a value (with a note when it is not the value as written), a reason to drop it, or nothing. */
export type FieldRead = { value: unknown; note?: string } | { drop: string } | { absent: true };

/** How to read one attribute of this service from an archive's value. */
export interface FieldRule {
  /** The attribute's schema, and what requests may send when that differs. */
  schema: TSchema;
  input?: TSchema;
  /** Other words for the values of an enumeration. */
  vocabulary?: Record<string, string>;
  /** A reading of this field's own (a length, a colour) instead of the one its schema implies; undefined leaves it to that one. */
  special?: (value: unknown) => Repaired<unknown> | undefined;
  /** The event's time zone, for date-times without an offset. */
  zone: string;
  /** A date alone means the end of that day. */
  end?: boolean;
}

const ajv = makeAjv(false);
const validators = new WeakMap<TSchema, ValidateFunction>();

/** Why the value does not fit the schema, or undefined when it does. */
function problemOf(schema: TSchema, value: unknown): string | undefined {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  if (validate(value)) return undefined;
  const error = validate.errors?.[0];
  if (error?.keyword === 'format' && error.params.format === 'uri') return 'not a valid URL';
  if (error?.keyword !== 'pattern') return error?.message ?? 'not valid';
  const pattern = String(error.params.pattern);
  return pattern === '^https?://'
    ? 'not an http(s) URL'
    : pattern.includes('@')
      ? 'not an e-mail address'
      : 'not of the expected form';
}

const acceptsNull = (schema: TSchema) =>
  (Array.isArray(schema.type) && schema.type.includes('null')) ||
  (schema.anyOf as TSchema[] | undefined)?.some((s) => s.type === 'null') === true;

/** The values of an enumeration schema (a union of string literals). */
export function choicesOf(schema: TSchema): string[] | undefined {
  const branches = schema.anyOf as TSchema[] | undefined;
  return branches?.length && branches.every((b) => typeof b.const === 'string')
    ? branches.map((b) => b.const as string)
    : undefined;
}

const isUrl = (schema: TSchema): boolean =>
  valueKind(schema) === 'string' &&
  (schema.format === 'uri' || (schema.anyOf as TSchema[] | undefined)?.some((s) => s.format === 'uri') === true);

function readNumber(value: unknown, integer: boolean): Repaired<number> {
  const text = typeof value === 'string' ? value.trim() : undefined;
  const number = typeof value === 'number' ? value : text && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(number)) return { error: 'not a number' };
  if (integer && !Number.isInteger(number)) return { error: 'not a whole number' };
  return typeof value === 'number' ? { value: number } : { value: number, note: `read as ${number}` };
}

const TRUE = new Set(['true', 'yes', 'y', '1', 'on']);
const FALSE = new Set(['false', 'no', 'n', '0', 'off']);
function readBoolean(value: unknown): Repaired<boolean> {
  if (typeof value === 'boolean') return { value };
  const text = String(value).trim().toLowerCase();
  const flag =
    typeof value === 'string' || typeof value === 'number'
      ? TRUE.has(text)
        ? true
        : FALSE.has(text)
          ? false
          : undefined
      : undefined;
  return flag === undefined ? { error: 'not true or false' } : { value: flag, note: `read as ${flag}` };
}

/** Web addresses written without their scheme: `//host/...`, `www.host/...`, `github.com/name`. */
function webAddress(text: string): string | undefined {
  if (text.startsWith('//')) return `https:${text}`;
  if (/^([a-z0-9-]+\.)+[a-z]{2,}(:\d+)?([/?#]|$)/i.test(text)) return `http://${text}`;
  return undefined;
}

function readText(value: unknown, schema: TSchema): Repaired<string> {
  if (typeof value === 'number' || typeof value === 'boolean') return { value: String(value), note: 'read as text' };
  if (typeof value !== 'string') return { error: 'not text' };
  if (value.includes('\0')) return { value: value.replace(/\0/g, ''), note: 'NUL characters removed' };
  if (isUrl(schema)) {
    const address = /^https?:\/\//i.test(value.trim()) ? undefined : webAddress(value.trim());
    return address ? { value: address, note: `read as ${address}` } : { value };
  }
  const max = schema.maxLength as number | undefined;
  if (max !== undefined && [...value].length > max)
    return { value: [...value].slice(0, max).join(''), note: `longer than ${max} characters: cut` };
  return { value };
}

/**
 * An address as a URL parser writes it (`bähr` → `b%C3%A4hr`, an IDN host in punycode); unchanged if
 * it is none, or holds blanks (text pasted after an address is no part of it).
 */
const parsedUrl = (text: string) => {
  if (/\s/.test(text)) return text;
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
};

/**
 * Other spellings a text may take to fit its schema, with the note each deserves: without blanks
 * around it, without `mailto:`; for a URL without blanks after its scheme, the first of several
 * addresses, and as a URL parser writes it.
 */
function variantsOf(text: string, url: boolean): [string, string | undefined][] {
  const trimmed = text.trim();
  const variants: [string, string | undefined][] = [
    [trimmed, undefined],
    [trimmed.replace(/^mailto:/i, ''), undefined],
  ];
  if (url) {
    const joined = trimmed.replace(/^(https?)\s*:\s*\/\/\s*/i, '$1://');
    const parts = joined.split(/[\s,;]+/).filter(Boolean);
    const first = parts.length > 1 && parts.every((p) => /^https?:\/\//i.test(p) || webAddress(p)) ? parts[0]! : joined;
    for (const [candidate, note] of [
      [joined, undefined],
      [first, first === joined ? undefined : 'several addresses: the first is kept'],
    ] as const) {
      variants.push([candidate, note], [parsedUrl(candidate), note]);
    }
  }
  return variants;
}

/** A value read by what its schema holds: an enumeration, a number, a boolean, a date-time, text. */
function readByKind(rule: FieldRule, value: unknown, choices: string[] | undefined): Repaired<unknown> {
  const kind = valueKind(rule.schema);
  if (choices) return readChoice(value, choices, rule.vocabulary);
  if (kind === 'integer' || kind === 'number') return readNumber(value, kind === 'integer');
  if (kind === 'boolean') return readBoolean(value);
  if (kind === 'date-time') {
    const date = readDateTime(value, rule.zone, { end: rule.end ?? false });
    return date === null ? { value: null } : 'error' in date ? date : { value: date.iso, note: date.note };
  }
  return kind === 'string' ? readText(value, rule.schema) : { value };
}

/**
 * Reads one field of an archive record for an attribute of this service, by what its schema
 * holds: an enumeration (letter case, vocabulary), a number or boolean written as text, a
 * date-time (local times in the event's zone), text (numbers as text, cut to its longest), a URL
 * without its scheme, or the field's own reading. Empty text and null are no value for anything
 * but text (null where the attribute takes null). The result always fits the schema.
 */
export function readField(rule: FieldRule, value: unknown): FieldRead {
  const { schema } = rule;
  if (value === undefined) return { absent: true };
  const nullable = acceptsNull(schema);
  if (value === null) return nullable ? { value: null } : { absent: true };
  const kind = valueKind(schema);
  const choices = choicesOf(schema);
  const plainText = kind === 'string' && !choices && !isUrl(schema) && schema.pattern === undefined;
  if (typeof value === 'string' && value.trim() === '' && (!plainText || (schema.minLength ?? 0) > 0)) {
    return nullable ? { value: null } : { absent: true };
  }
  // What requests may send is no repair (booleans as "true"/"false": the attribute's write turns them).
  if (rule.input && !problemOf(rule.input, value)) return { value };
  const read = rule.special?.(value) ?? readByKind(rule, value, choices);
  if ('error' in read) return { drop: read.error };
  const target = rule.input ?? schema;
  const problem = problemOf(target, read.value);
  if (!problem) return read;
  if (typeof read.value === 'string') {
    const fitting = variantsOf(read.value, isUrl(schema)).find(([v]) => v !== read.value && !problemOf(target, v));
    if (fitting)
      return { value: fitting[0], note: `${fitting[1] ? `${fitting[1]}: ` : ''}read as ${JSON.stringify(fitting[0])}` };
  }
  return { drop: problem };
}

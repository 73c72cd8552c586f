/** Reading one record's attributes: each field by its schema, the format's own readings and fallbacks, the checks across fields and records. */
import { modelOf, snake } from '../format.js';
import { readColor } from '../repairs/colors.js';
import { readDateTime } from '../repairs/dates.js';
import { idKey } from '../repairs/ids.js';
import { readLength, type Repaired } from '../repairs/lengths.js';
import { readField } from '../repairs/values.js';
import type { SourceFile, SourceRecord } from '../sources.js';
import { warnAbout, writable, type Context, type Warn } from './context.js';

type Json = Record<string, unknown>;

/** A profile on a site given as a handle (`@ada`, `/ada`, `ada`): its URL there. Anything else is left to the URL reading. */
const profileOn =
  (site: string) =>
  (value: unknown): Repaired<unknown> | undefined => {
    const handle = typeof value === 'string' ? /^[@/]?([A-Za-z0-9_-]{1,100})\/?$/.exec(value.trim())?.[1] : undefined;
    return handle === undefined
      ? undefined
      : { value: `https://${site}/${handle}`, note: `a handle: read as https://${site}/${handle}` };
  };

/** Readings of particular fields, instead of the one their schema implies. */
const SPECIAL: Record<string, (value: unknown) => Repaired<unknown> | undefined> = {
  'track.color': readColor,
  'session-type.length': readLength,
  'speaker.twitter': profileOn('twitter.com'),
  'speaker.github': profileOn('github.com'),
  'speaker.facebook': profileOn('facebook.com'),
  'speaker.instagram': profileOn('instagram.com'),
};

/** URL fields that name a file (a photo, a logo, slides): a path without a scheme is a file of the archive. */
const MEDIA_FIELD = /(^|_)(photo|logo|image|slides|audio|video)_url$/;
const MEDIA_PATH = /^(?![a-z][a-z0-9+.-]*:|\/\/|www\.)/i;

/** The minutes of the sessions of each session type, from the sessions file as written. */
function sessionLengths(ctx: Context): Map<string, number[]> {
  if (ctx.sessionLengths) return ctx.sessionLengths;
  const lengths = new Map<string, number[]>();
  for (const record of ctx.sources.files.get('sessions')?.records ?? []) {
    const type = idKey((record.fields.get('session_type_id') ?? record.fields.get('session_type'))?.value);
    const [starts, ends] = ['starts_at', 'ends_at'].map((k) => readDateTime(record.fields.get(k)?.value, ctx.zone));
    if (type === undefined || !starts || !ends || 'error' in starts || 'error' in ends) continue;
    const minutes = (Date.parse(ends.iso) - Date.parse(starts.iso)) / 60_000;
    if (minutes > 0) lengths.set(type, [...(lengths.get(type) ?? []), minutes]);
  }
  return (ctx.sessionLengths = lengths);
}

/** Values for required attributes a record lacks, where one can be had without guessing its meaning. */
const FALLBACKS: Record<string, (ctx: Context, record: SourceRecord) => { value: unknown; note: string } | undefined> =
  {
    // A colour only paints the track; without it the track and its sessions' link to it would be lost.
    'track.color': () => ({
      value: '#808080',
      note: 'taken as grey (#808080), so the track and its sessions are kept',
    }),
    // Drafts of the public formats had no title yet; their times, room and speakers are worth keeping.
    'session.title': () => ({
      value: 'Untitled session',
      note: 'taken as "Untitled session", so the session, its times and speakers are kept',
    }),
    'session-type.length': (ctx, record) => {
      const minutes = record.key === undefined ? [] : (sessionLengths(ctx).get(record.key) ?? []);
      if (minutes.length === 0) return undefined;
      const counts = new Map<number, number>();
      for (const m of minutes) counts.set(m, (counts.get(m) ?? 0) + 1);
      const common = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
      const read = readLength(`${Math.floor(common / 60)}:${String(common % 60).padStart(2, '0')}`);
      return 'value' in read
        ? { value: read.value, note: `taken as ${read.value as string}, the length of most of its sessions` }
        : undefined;
    },
  };

/** Reads the writable attributes of a record (the event's zone excepted), storing media and warning every repair and drop. */
export async function readAttributes(ctx: Context, source: SourceFile, record: SourceRecord): Promise<Json> {
  const { file } = source;
  const model = modelOf(file.type);
  const warn = warnAbout(ctx.env, source, record);
  const attributes: Json = {};
  for (const [wire, attr] of writable(model)) {
    const key = snake(wire);
    const field = record.fields.get(key);
    if (!field || (file.name === 'event' && key === 'timezone')) continue;
    let value = field.value;
    if (typeof value === 'string' && value.trim() !== '' && MEDIA_FIELD.test(key) && MEDIA_PATH.test(value.trim())) {
      const stored = await ctx.env.media(value.trim());
      if (!stored) {
        warn({ field: field.name, value, action: 'no such file in the archive: left out' });
        continue;
      }
      if (stored.note) warn({ field: field.name, value, action: stored.note });
      value = stored.url;
    }
    const read = readField(
      {
        schema: attr.schema,
        input: attr.input,
        vocabulary: file.vocabulary?.[key],
        special: SPECIAL[`${file.type}.${key}`],
        zone: ctx.zone,
        end: key === 'ends_at',
      },
      value,
    );
    if ('absent' in read) continue;
    if ('drop' in read) {
      const fallback =
        attr.schema.default === undefined ? '' : `; the default ${JSON.stringify(attr.schema.default)} applies`;
      warn({ field: field.name, value, action: `${read.drop}: left out${fallback}` });
      continue;
    }
    if (read.note) warn({ field: field.name, value, action: read.note });
    attributes[wire] = read.value;
  }
  return attributes;
}

/**
 * The required attributes the record lacks, as the archive names them. When every one it lacks has
 * a fallback, those are taken (and warned) and none is lacking any more.
 */
export function missingRequired(ctx: Context, source: SourceFile, record: SourceRecord, attributes: Json): string[] {
  const lacking = writable(modelOf(source.file.type)).filter(
    ([wire, a]) => a.required && (attributes[wire] === undefined || attributes[wire] === null),
  );
  const fallbacks = lacking.map(
    ([wire]) => [wire, FALLBACKS[`${source.file.type}.${snake(wire)}`]?.(ctx, record)] as const,
  );
  const missing = fallbacks.filter(([, fallback]) => !fallback).map(([wire]) => snake(wire));
  if (missing.length > 0) return missing;
  for (const [wire, fallback] of fallbacks) {
    const field = record.fields.get(snake(wire));
    warnAbout(
      ctx.env,
      source,
      record,
    )({ field: field?.name ?? snake(wire), value: field?.value ?? null, action: fallback!.note });
    attributes[wire] = fallback!.value;
  }
  return [];
}

/**
 * A session that ends before it starts loses its end; one that ends when it starts (the public
 * formats' placeholder for an unscheduled session) loses both: it is unscheduled.
 */
export function checkSessionPeriod(warn: Warn, record: SourceRecord, attributes: Json) {
  const [starts, ends] = [attributes['starts-at'], attributes['ends-at']];
  if (typeof starts !== 'string' || typeof ends !== 'string' || Date.parse(ends) > Date.parse(starts)) return;
  const field = record.fields.get('ends_at')!;
  if (Date.parse(ends) < Date.parse(starts)) {
    warn({ field: field.name, value: field.value, action: 'before the start: left out' });
    delete attributes['ends-at'];
    return;
  }
  warn({
    field: `${record.fields.get('starts_at')!.name}, ${field.name}`,
    value: field.value,
    action: 'the same start and end: both left out, the session is unscheduled',
  });
  delete attributes['starts-at'];
  delete attributes['ends-at'];
}

/** At most one record of a kind per event (`fields` empty), or per value of these fields; later ones lose the field or the record. */
const UNIQUE: Record<string, { fields: string[]; drops: 'field' | 'record'; why: string }> = {
  speaker: {
    fields: ['email'],
    drops: 'field',
    why: 'an earlier speaker has this address (one speaker per address in an event)',
  },
  custom_form: {
    fields: ['form', 'field-identifier'],
    drops: 'record',
    why: 'an earlier field of the same form has this identifier',
  },
  'event-copyright': { fields: [], drops: 'record', why: 'an event has one copyright: the first is kept' },
  tax: { fields: [], drops: 'record', why: 'an event has one tax: the first is kept' },
  'speakers-call': { fields: [], drops: 'record', why: 'an event has one call for speakers: the first is kept' },
};

/** Values of the records kept so far, per unique rule: a repeat loses the field or the whole record. */
export function checkUnique(
  seen: Set<string>,
  type: string,
  warn: Warn,
  record: SourceRecord,
  attributes: Json,
): boolean {
  const rule = UNIQUE[type];
  if (!rule) return true;
  const values = rule.fields.map((f) => attributes[f]);
  if (values.some((v) => v === undefined || v === null)) return true;
  const key = JSON.stringify(values.map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)));
  if (!seen.has(key)) return (void seen.add(key), true);
  const field = rule.fields.length === 1 ? record.fields.get(snake(rule.fields[0]!)) : undefined;
  if (rule.drops === 'field') {
    warn({ field: field?.name ?? rule.fields[0]!, value: field?.value ?? null, action: `${rule.why}: left out` });
    delete attributes[rule.fields[0]!];
    return true;
  }
  warn({ action: `${rule.why}: the record is dropped` });
  return false;
}

import type { Model } from '../jsonapi/model.js';
import type { AttributeSpec } from '../jsonapi/resource.js';
import { attributeValues } from '../jsonapi/operations.js';
import { FILES, linksOf, modelOf, snake, type ArchiveFile } from './format.js';
import { readColor } from './repairs/colors.js';
import { readDateTime, writtenInstant } from './repairs/dates.js';
import { idKey } from './repairs/ids.js';
import { readLength, type Repaired } from './repairs/lengths.js';
import { resolveTimeZone } from './repairs/time-zones.js';
import { readField } from './repairs/values.js';
import { ImportError, type WarningInput, type Warnings } from './repairs/warnings.js';
import { isEmpty, type SourceField, type SourceFile, type SourceRecord, type Sources } from './sources.js';

type Json = Record<string, unknown>;

/** A record ready to be written: its column values, and its references to other records of the archive by old id. */
export interface PlannedRecord {
  /** The old id's key: how the archive's other records refer to this one. */
  key?: string;
  values: Json;
  /** To-one references: the column, the file of the target and the target's old id. */
  refs: { column: string; file: string; key: string }[];
  /** A session's speakers, by their old ids. */
  speakers: string[];
}

export interface PlannedFile {
  file: ArchiveFile;
  records: PlannedRecord[];
}

/** Everything an import writes, read and repaired before its transaction starts. */
export interface Plan {
  event: PlannedRecord;
  /** The other files, in the order they are written. */
  files: PlannedFile[];
}

export interface PlanEnv {
  warnings: Warnings;
  /** Stores a media file of the archive (a path such as `images/logo.png`): its URL, or null when the archive has none. */
  media(path: string): Promise<string | null>;
  /** The id of this service's event topic with this id or name. */
  topic(idOrName: number | string): Promise<number | undefined>;
}

/** The attributes an import may set on a resource: writable ones with a column. */
export const writable = (model: Model) =>
  Object.entries(model.spec.attributes).filter(([, a]) => !a.readOnly && !a.writeOnly && a.column) as [string, AttributeSpec][];

/** A profile on a site given as a handle (`@ada`, `/ada`, `ada`): its URL there. Anything else is left to the URL reading. */
const profileOn = (site: string) => (value: unknown): Repaired<unknown> | undefined => {
  const handle = typeof value === 'string' ? /^[@/]?([A-Za-z0-9_-]{1,100})\/?$/.exec(value.trim())?.[1] : undefined;
  return handle === undefined ? undefined : { value: `https://${site}/${handle}`, note: `a handle: read as https://${site}/${handle}` };
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

/** At most one record of a kind per event (`fields` empty), or per value of these fields; later ones lose the field or the record. */
const UNIQUE: Record<string, { fields: string[]; drops: 'field' | 'record'; why: string }> = {
  speaker: { fields: ['email'], drops: 'field', why: 'an earlier speaker has this address (one speaker per address in an event)' },
  custom_form: { fields: ['form', 'field-identifier'], drops: 'record', why: 'an earlier field of the same form has this identifier' },
  'event-copyright': { fields: [], drops: 'record', why: 'an event has one copyright: the first is kept' },
};

/** Fields of the archive that name records (of the archive, or users of another server) rather than hold values. */
const LINK_FIELDS: Record<string, string[]> = {
  session: ['speakers', 'speaker_ids'],
  speaker: ['sessions', 'session_ids'],
  track: ['sessions', 'session_ids'],
  event: ['social_links', 'event_copyright', 'owner', 'creator', 'user'],
};

/** URL fields that name a file (a photo, a logo, slides): a path without a scheme is a file of the archive. */
const MEDIA_FIELD = /(^|_)(photo|logo|image|slides|audio|video)_url$/;
const MEDIA_PATH = /^(?![a-z][a-z0-9+.-]*:|\/\/|www\.)/i;

interface Context {
  sources: Sources;
  env: PlanEnv;
  zone: string;
  /** Old ids of the records planned so far, by file. */
  planned: Map<string, Set<string>>;
  /** Lengths (minutes) of the sessions of each session type, by the type's old id. */
  sessionLengths?: Map<string, number[]>;
}

/** A warning about a record of a source file. */
const warnAbout = (env: PlanEnv, source: SourceFile, record: SourceRecord) => (input: Omit<WarningInput, 'file' | 'id'>, strictAccepts = false) =>
  env.warnings.add({ file: record.from ?? source.entry, id: record.id, ...input }, { strictAccepts });

/** A number a field holds (as a number or as text), for hints. */
const numberIn = (field: SourceField | undefined) => {
  const n = typeof field?.value === 'number' ? field.value : typeof field?.value === 'string' && field.value.trim() !== '' ? Number(field.value) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The event's time zone: its `timezone` resolved with the offsets of its dates and its place as hints. */
function eventZone(env: PlanEnv, source: SourceFile, record: SourceRecord): string {
  const field = record.fields.get('timezone');
  const dates = ['starts_at', 'ends_at'].flatMap((k) => writtenInstant(record.fields.get(k)?.value) ?? []);
  const answer = resolveTimeZone(field?.value, { dates, latitude: numberIn(record.fields.get('latitude')), longitude: numberIn(record.fields.get('longitude')) });
  if (answer.note) warnAbout(env, source, record)({ field: field?.name ?? 'timezone', value: field?.value ?? null, action: answer.note });
  return answer.zone;
}

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
const FALLBACKS: Record<string, (ctx: Context, record: SourceRecord) => { value: unknown; note: string } | undefined> = {
  // A colour only paints the track; without it the track and its sessions' link to it would be lost.
  'track.color': () => ({ value: '#808080', note: 'taken as grey (#808080), so the track and its sessions are kept' }),
  // Drafts of the public formats had no title yet; their times, room and speakers are worth keeping.
  'session.title': () => ({ value: 'Untitled session', note: 'taken as "Untitled session", so the session, its times and speakers are kept' }),
  'session-type.length': (ctx, record) => {
    const minutes = record.key === undefined ? [] : (sessionLengths(ctx).get(record.key) ?? []);
    if (minutes.length === 0) return undefined;
    const counts = new Map<number, number>();
    for (const m of minutes) counts.set(m, (counts.get(m) ?? 0) + 1);
    const common = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
    const read = readLength(`${Math.floor(common / 60)}:${String(common % 60).padStart(2, '0')}`);
    return 'value' in read ? { value: read.value, note: `taken as ${read.value as string}, the length of most of its sessions` } : undefined;
  },
};

/** Reads the writable attributes of a record (the event's zone excepted), storing media and warning every repair and drop. */
async function readAttributes(ctx: Context, source: SourceFile, record: SourceRecord): Promise<Json> {
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
      value = stored;
    }
    const read = readField(
      { schema: attr.schema, input: attr.input, vocabulary: file.vocabulary?.[key], special: SPECIAL[`${file.type}.${key}`], zone: ctx.zone, end: key === 'ends_at' },
      value,
    );
    if ('absent' in read) continue;
    if ('drop' in read) {
      const fallback = attr.schema.default === undefined ? '' : `; the default ${JSON.stringify(attr.schema.default)} applies`;
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
function missingRequired(ctx: Context, source: SourceFile, record: SourceRecord, attributes: Json): string[] {
  const lacking = writable(modelOf(source.file.type)).filter(([wire, a]) => a.required && (attributes[wire] === undefined || attributes[wire] === null));
  const fallbacks = lacking.map(([wire]) => [wire, FALLBACKS[`${source.file.type}.${snake(wire)}`]?.(ctx, record)] as const);
  const missing = fallbacks.filter(([, fallback]) => !fallback).map(([wire]) => snake(wire));
  if (missing.length > 0) return missing;
  for (const [wire, fallback] of fallbacks) {
    const field = record.fields.get(snake(wire));
    warnAbout(ctx.env, source, record)({ field: field?.name ?? snake(wire), value: field?.value ?? null, action: fallback!.note });
    attributes[wire] = fallback!.value;
  }
  return [];
}

/**
 * A session that ends before it starts loses its end; one that ends when it starts (the public
 * formats' placeholder for an unscheduled session) loses both: it is unscheduled.
 */
function checkSessionPeriod(warn: ReturnType<typeof warnAbout>, record: SourceRecord, attributes: Json) {
  const [starts, ends] = [attributes['starts-at'], attributes['ends-at']];
  if (typeof starts !== 'string' || typeof ends !== 'string' || Date.parse(ends) > Date.parse(starts)) return;
  const field = record.fields.get('ends_at')!;
  if (Date.parse(ends) < Date.parse(starts)) {
    warn({ field: field.name, value: field.value, action: 'before the start: left out' });
    delete attributes['ends-at'];
    return;
  }
  warn({ field: `${record.fields.get('starts_at')!.name}, ${field.name}`, value: field.value, action: 'the same start and end: both left out, the session is unscheduled' });
  delete attributes['starts-at'];
  delete attributes['ends-at'];
}

/** Values of the records kept so far, per unique rule: a repeat loses the field or the whole record. */
function checkUnique(seen: Set<string>, type: string, warn: ReturnType<typeof warnAbout>, record: SourceRecord, attributes: Json): boolean {
  const rule = UNIQUE[type];
  if (!rule) return true;
  const values = rule.fields.map((f) => attributes[f]);
  if (values.some((v) => v === undefined || v === null)) return true;
  const key = JSON.stringify(values.map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)));
  if (!seen.has(key)) return void seen.add(key), true;
  const field = rule.fields.length === 1 ? record.fields.get(snake(rule.fields[0]!)) : undefined;
  if (rule.drops === 'field') {
    warn({ field: field?.name ?? rule.fields[0]!, value: field?.value ?? null, action: `${rule.why}: left out` });
    delete attributes[rule.fields[0]!];
    return true;
  }
  warn({ action: `${rule.why}: the record is dropped` });
  return false;
}

/** Old ids listed by another file's records (a track's or a speaker's `sessions`), by the listed id. */
function listedBy(ctx: Context, fileName: string): Map<string, string[]> {
  const listed = new Map<string, string[]>();
  const kept = ctx.planned.get(fileName);
  for (const record of ctx.sources.files.get(fileName)?.records ?? []) {
    if (record.key === undefined || !kept?.has(record.key)) continue;
    const list = (record.fields.get('sessions') ?? record.fields.get('session_ids'))?.value;
    for (const item of Array.isArray(list) ? list : []) {
      const key = idKey(item);
      if (key !== undefined) listed.set(key, [...(listed.get(key) ?? []), record.key]);
    }
  }
  return listed;
}

/** A reference names a record: an id, or an object with one (`{"id": null, "name": null}` names nobody). */
const namesOne = (value: unknown) => !isEmpty(value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json).id : value);

/** To-one references of a record to records of the archive (its own field, else the list of the target naming it). */
function refsOf(ctx: Context, model: Model, warn: ReturnType<typeof warnAbout>, record: SourceRecord, reverse: Map<string, Map<string, string[]>>) {
  const refs: PlannedRecord['refs'] = [];
  for (const link of linksOf(model)) {
    if (!link.file) continue;
    const field = record.fields.get(link.field) ?? record.fields.get(link.field.replace(/_id$/, ''));
    const given = field && namesOne(field.value) ? field : undefined;
    const key = given ? idKey(given.value) : record.key !== undefined ? reverse.get(link.file)?.get(record.key)?.[0] : undefined;
    if (given && key === undefined) warn({ field: given.name, value: given.value, action: 'not an id: not linked' });
    else if (key !== undefined && !ctx.planned.get(link.file)?.has(key)) {
      warn({ field: given?.name ?? link.field, value: given?.value ?? key, action: `no such record in ${link.file}: not linked` });
    } else if (key !== undefined) refs.push({ column: link.column, file: link.file, key });
  }
  return refs;
}

/** A session's speakers: its own list (`speaker_ids`, `speakers` as ids or objects) and the speakers listing it. */
function speakersOf(ctx: Context, warn: ReturnType<typeof warnAbout>, record: SourceRecord, listing: Map<string, string[]>): string[] {
  const field = record.fields.get('speaker_ids') ?? record.fields.get('speakers');
  const own = field && Array.isArray(field.value) ? field.value.filter(namesOne).map(idKey) : [];
  if (field && field.value !== null && !Array.isArray(field.value)) warn({ field: field.name, value: field.value, action: 'not a list: not linked' });
  const known = ctx.planned.get('speakers') ?? new Set();
  const unknown = own.filter((k) => k === undefined || !known.has(k));
  if (unknown.length > 0) {
    warn({ field: field!.name, value: unknown.map((k) => k ?? null), action: `no such record in speakers: ${unknown.length === 1 ? 'that speaker is' : 'those speakers are'} not linked` });
  }
  const listed = record.key === undefined ? [] : (listing.get(record.key) ?? []);
  return [...new Set([...own, ...listed].filter((k): k is string => k !== undefined && known.has(k)))];
}

/** Fields no attribute, link or derived value of the format takes: one warning per field and file (strict imports accept them). */
function warnUnknown(env: PlanEnv, source: SourceFile) {
  const model = modelOf(source.file.type);
  const known = new Set<string>(['id', 'event', 'event_id', ...(source.file.derived ?? []), ...(LINK_FIELDS[model.type] ?? [])]);
  for (const wire of Object.keys(model.spec.attributes)) known.add(snake(wire));
  for (const name of model.relationships.keys()) known.add(snake(name)).add(`${snake(name)}_id`);
  const unknown = new Map<string, { field: SourceField; count: number; id: SourceRecord['id'] }>();
  for (const record of source.records) {
    for (const [name, field] of record.fields) {
      if (known.has(name) || isEmpty(field.value)) continue;
      const seen = unknown.get(name);
      if (seen) seen.count += 1;
      else unknown.set(name, { field, count: 1, id: record.id });
    }
  }
  for (const { field, count, id } of unknown.values()) {
    const many = source.records.length > 1 ? ` (${count} of ${source.records.length} records have a value)` : '';
    const action = `this service has no such field: not carried over${many}`;
    env.warnings.add({ file: source.entry, id: source.records.length > 1 ? null : id, field: field.name, value: field.value, action }, { strictAccepts: true });
  }
}

/** The event's topic, named by id or by name (`topic: "Science & Technology"`), if this service has it. */
async function topicOf(ctx: Context, warn: ReturnType<typeof warnAbout>, record: SourceRecord): Promise<number | undefined> {
  const field = record.fields.get('event_topic_id') ?? record.fields.get('event_topic');
  const value = field?.value;
  if (!field || value === null || value === '') return undefined;
  const object = value !== null && typeof value === 'object' ? (value as Json) : undefined;
  const named = idKey(value) !== undefined ? Number(idKey(value)) : typeof (object?.name ?? value) === 'string' ? ((object?.name ?? value) as string).trim() : undefined;
  const topic = named === undefined || named === '' ? undefined : await ctx.env.topic(named);
  if (topic === undefined) warn({ field: field.name, value, action: 'no such event topic in this service: left out' });
  return topic;
}

async function planEvent(ctx: Context, source: SourceFile, record: SourceRecord): Promise<PlannedRecord> {
  const warn = warnAbout(ctx.env, source, record);
  const attributes: Json = { ...(await readAttributes(ctx, source, record)), timezone: ctx.zone };
  const missing = missingRequired(ctx, source, record, attributes);
  const where = `File ${source.entry}${record.id === null ? '' : `, ID ${record.id}`}`;
  if (missing.length > 0) throw new ImportError(`${where}: ${missing.join(' and ')} missing or unreadable: the event cannot be made`);
  if (Date.parse(attributes['ends-at'] as string) <= Date.parse(attributes['starts-at'] as string)) {
    throw new ImportError(`${where}: ends_at is not after starts_at: the event cannot be made`);
  }
  const values = await attributeValues(modelOf('event'), attributes);
  const topic = await topicOf(ctx, warn, record);
  if (topic !== undefined) values.eventTopicId = topic;
  return { key: record.key, values, refs: [], speakers: [] };
}

/**
 * Reads and repairs every record of the archive into what the import writes: the event first (it
 * must have a name and readable dates: else ImportError), then each file in FILES order. A record
 * that lacks a required field is dropped; one deleted in the source is not imported; links go only
 * to records kept. Every repair and drop is warned (and refused by a strict import).
 */
export async function planImport(sources: Sources, env: PlanEnv): Promise<Plan> {
  const eventSource = sources.files.get('event')!;
  const eventRecord = eventSource.records[0]!;
  const ctx: Context = { sources, env, zone: eventZone(env, eventSource, eventRecord), planned: new Map() };
  const event = await planEvent(ctx, eventSource, eventRecord);
  warnUnknown(env, eventSource);
  const files: PlannedFile[] = [];
  for (const file of FILES.slice(1)) {
    const source = sources.files.get(file.name);
    if (!source) continue;
    const model = modelOf(file.type);
    const reverse = file.name === 'sessions' ? new Map([['tracks', listedBy(ctx, 'tracks')]]) : new Map<string, Map<string, string[]>>();
    const listing = file.name === 'sessions' ? listedBy(ctx, 'speakers') : new Map<string, string[]>();
    const seen = new Set<string>();
    const records: PlannedRecord[] = [];
    for (const record of source.records) {
      const warn = warnAbout(env, source, record);
      const deleted = record.fields.get('deleted_at');
      const when = deleted && readDateTime(deleted.value, ctx.zone);
      if (deleted && when && !('error' in when)) {
        warn({ field: deleted.name, value: deleted.value, action: 'deleted in the source: the record is not imported' });
        continue;
      }
      const attributes = await readAttributes(ctx, source, record);
      const missing = missingRequired(ctx, source, record, attributes);
      if (missing.length > 0) {
        warn({ field: missing.join(', '), action: 'missing or unreadable: the record is dropped' });
        continue;
      }
      if (model.type === 'session') checkSessionPeriod(warn, record, attributes);
      if (!checkUnique(seen, model.type, warn, record, attributes)) continue;
      records.push({
        key: record.key,
        values: await attributeValues(model, attributes),
        refs: refsOf(ctx, model, warn, record, reverse),
        speakers: model.type === 'session' ? speakersOf(ctx, warn, record, listing) : [],
      });
    }
    ctx.planned.set(file.name, new Set(records.flatMap((r) => (r.key === undefined ? [] : [r.key]))));
    warnUnknown(env, source);
    files.push({ file, records });
  }
  return { event, files };
}

import { JsonApiError, attributeValues } from '../../jsonapi/index.js';
import { checkCall } from '../../resources/speakers-calls/index.js';
import { checkTicket } from '../../resources/tickets/rules.js';
import { FILES, modelOf, snake } from '../format.js';
import { readDateTime, writtenInstant } from '../repairs/dates.js';
import { idKey } from '../repairs/ids.js';
import { resolveTimeZone } from '../repairs/time-zones.js';
import { ImportError } from '../repairs/warnings.js';
import { isEmpty, type SourceField, type SourceFile, type SourceRecord, type Sources } from '../sources.js';
import { checkSessionPeriod, checkUnique, missingRequired, readAttributes } from './attributes.js';
import { ADMIN_FLAGS } from '../../resources/events/options.js';
import {
  warnAbout,
  type Context,
  type EventListing,
  type Plan,
  type PlanEnv,
  type PlannedFile,
  type PlannedRecord,
  type Warn,
} from './context.js';
import { LINK_FIELDS, listedBy, refsOf, speakersOf } from './links.js';

export type { Plan, PlanEnv, PlannedFile, PlannedRecord } from './context.js';

type Json = Record<string, unknown>;

/** A number a field holds (as a number or as text), for hints. */
const numberIn = (field: SourceField | undefined) => {
  const n =
    typeof field?.value === 'number'
      ? field.value
      : typeof field?.value === 'string' && field.value.trim() !== ''
        ? Number(field.value)
        : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The event's time zone: its `timezone` resolved with the offsets of its dates and its place as hints. */
function eventZone(env: PlanEnv, source: SourceFile, record: SourceRecord): string {
  const field = record.fields.get('timezone');
  const dates = ['starts_at', 'ends_at'].flatMap((k) => writtenInstant(record.fields.get(k)?.value) ?? []);
  const answer = resolveTimeZone(field?.value, {
    dates,
    latitude: numberIn(record.fields.get('latitude')),
    longitude: numberIn(record.fields.get('longitude')),
  });
  if (answer.note)
    warnAbout(
      env,
      source,
      record,
    )({ field: field?.name ?? 'timezone', value: field?.value ?? null, action: answer.note });
  return answer.zone;
}

/** Fields no attribute, link or derived value of the format takes: one warning per field and file (strict imports accept them). */
function warnUnknown(env: PlanEnv, source: SourceFile) {
  const model = modelOf(source.file.type);
  const known = new Set<string>([
    'id',
    'event',
    'event_id',
    ...(source.file.derived ?? []),
    ...(LINK_FIELDS[model.type] ?? []),
  ]);
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
    env.warnings.add(
      { file: source.entry, id: source.records.length > 1 ? null : id, field: field.name, value: field.value, action },
      { strictAccepts: true },
    );
  }
}

const LISTING_NAMES: Record<EventListing, string> = {
  'event-topic': 'event topic',
  'event-type': 'event type',
  'event-sub-topic': 'event sub-topic',
};

/** The event's topic, type or sub-topic, named by id or by name (`topic: "Science & Technology"`), if this service has it. */
async function listedOf(
  ctx: Context,
  warn: Warn,
  record: SourceRecord,
  type: EventListing,
  topic?: number,
): Promise<number | undefined> {
  const key = snake(type);
  const field = record.fields.get(`${key}_id`) ?? record.fields.get(key);
  const value = field?.value;
  if (!field || value === null || value === '') return undefined;
  const object = value !== null && typeof value === 'object' ? (value as Json) : undefined;
  const named =
    idKey(value) !== undefined
      ? Number(idKey(value))
      : typeof (object?.name ?? value) === 'string'
        ? ((object?.name ?? value) as string).trim()
        : undefined;
  // PostgreSQL text holds no NUL: no record has such a name.
  const found =
    named === undefined || named === '' || String(named).includes('\0')
      ? undefined
      : await ctx.env.listed(type, named, topic);
  if (found === undefined)
    warn({ field: field.name, value, action: `no such ${LISTING_NAMES[type]} in this service: left out` });
  return found;
}

async function planEvent(ctx: Context, source: SourceFile, record: SourceRecord): Promise<PlannedRecord> {
  const warn = warnAbout(ctx.env, source, record);
  const attributes: Json = { ...(await readAttributes(ctx, source, record)), timezone: ctx.zone };
  const missing = missingRequired(ctx, source, record, attributes);
  const where = `File ${source.entry}${record.id === null ? '' : `, ID ${record.id}`}`;
  if (missing.length > 0)
    throw new ImportError(`${where}: ${missing.join(' and ')} missing or unreadable: the event cannot be made`);
  if (Date.parse(attributes['ends-at'] as string) <= Date.parse(attributes['starts-at'] as string)) {
    throw new ImportError(`${where}: ends_at is not after starts_at: the event cannot be made`);
  }
  // The home page's list flags are the administrators' to set, not an importer's.
  for (const flag of Object.keys(ADMIN_FLAGS)) {
    const field = record.fields.get(snake(flag));
    if (attributes[flag] === true)
      warn({ field: field!.name, value: field!.value, action: 'set by administrators only: left out' });
    delete attributes[flag];
  }
  const values = await attributeValues(modelOf('event'), attributes);
  const topic = await listedOf(ctx, warn, record, 'event-topic');
  if (topic !== undefined) values.eventTopicId = topic;
  const type = await listedOf(ctx, warn, record, 'event-type');
  if (type !== undefined) values.eventTypeId = type;
  const subTopic = await listedOf(ctx, warn, record, 'event-sub-topic', topic);
  if (subTopic !== undefined) values.eventSubTopicId = subTopic;
  return { key: record.key, values, refs: [], speakers: [] };
}

/** Records of other files listing a session: the tracks and the speakers naming it in their `sessions`. */
interface Listings {
  tracks: Map<string, string[]>;
  speakers: Map<string, string[]>;
}

/** The rules the API checks on create (ticket orders and prices, a call's period): what a record breaks, if any. */
const RULES: Record<string, (values: Record<string, unknown>) => void> = {
  ticket: checkTicket,
  'speakers-call': checkCall,
};
function brokenRule(type: string, values: Record<string, unknown>): string | undefined {
  try {
    RULES[type]?.(values);
    return undefined;
  } catch (err) {
    if (err instanceof JsonApiError) return err.detail;
    throw err;
  }
}

/** One record of a file other than the event's, ready to be written; undefined when it is not imported. */
async function planRecord(
  ctx: Context,
  source: SourceFile,
  record: SourceRecord,
  seen: Set<string>,
  listings?: Listings,
): Promise<PlannedRecord | undefined> {
  const model = modelOf(source.file.type);
  const warn = warnAbout(ctx.env, source, record);
  const deleted = record.fields.get('deleted_at');
  const when = deleted && readDateTime(deleted.value, ctx.zone);
  if (deleted && when && !('error' in when)) {
    warn({ field: deleted.name, value: deleted.value, action: 'deleted in the source: the record is not imported' });
    return undefined;
  }
  const attributes = await readAttributes(ctx, source, record);
  const missing = missingRequired(ctx, source, record, attributes);
  if (missing.length > 0) {
    warn({ field: missing.join(', '), action: 'missing or unreadable: the record is dropped' });
    return undefined;
  }
  if (listings) checkSessionPeriod(warn, record, attributes);
  if (!checkUnique(seen, model.type, warn, record, attributes)) return undefined;
  const values = await attributeValues(model, attributes);
  const broken = brokenRule(model.type, values);
  if (broken) {
    warn({ action: `${broken}: the record is dropped` });
    return undefined;
  }
  return {
    key: record.key,
    values,
    refs: refsOf(ctx, model, warn, record, listings ? { tracks: listings.tracks } : {}),
    speakers: listings ? speakersOf(ctx, warn, record, listings.speakers) : [],
  };
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
    const listings =
      file.name === 'sessions' ? { tracks: listedBy(ctx, 'tracks'), speakers: listedBy(ctx, 'speakers') } : undefined;
    const seen = new Set<string>();
    const records: PlannedRecord[] = [];
    for (const record of source.records) {
      const planned = await planRecord(ctx, source, record, seen, listings);
      if (planned) records.push(planned);
    }
    ctx.planned.set(file.name, new Set(records.flatMap((r) => (r.key === undefined ? [] : [r.key]))));
    warnUnknown(env, source);
    files.push({ file, records });
  }
  return { event, files };
}

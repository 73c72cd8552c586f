import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { Type, type TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../plugins/db.js';
import { eventTopics, speakersSessions } from '../../db/schema/index.js';
import { IMAGE_VARIANTS_QUEUE, type ImageOwner } from '../images/variants.js';
import { JsonApiError } from '../jsonapi/errors.js';
import { valueKind, type Model } from '../jsonapi/model.js';
import { attributeValues } from '../jsonapi/operations.js';
import { newIdentifier } from '../resources/events/index.js';
import { makeAjv } from '../validation.js';
import { extensionOf } from '../files/upload.js';
import { TaskEnded } from '../jobs/task-job.js';
import { FILES, linksOf, modelOf, snake, type ArchiveFile } from './format.js';
import { ArchiveError, openArchive, type ArchiveLimits } from './zip.js';

type Json = Record<string, unknown>;

/** An import refused because of what the archive holds; the message names the file and the old id. */
export class ImportError extends Error {}

const ajv = makeAjv(false);
const validators = new Map<string, ValidateFunction>();

/** The attributes an import may set on a resource: writable ones with a column. */
const writable = (model: Model) =>
  Object.entries(model.spec.attributes).filter(([, a]) => !a.readOnly && !a.writeOnly && a.column);

function validatorOf(model: Model): ValidateFunction {
  let validate = validators.get(model.type);
  if (!validate) {
    const props: Record<string, TSchema> = {};
    for (const [wire, a] of writable(model)) props[wire] = Type.Optional(a.input ?? a.schema);
    validate = ajv.compile(Type.Object(props, { additionalProperties: false }));
    validators.set(model.type, validate);
  }
  return validate;
}

/** `"00.15"`, `"0:15"` and `"00:15"` are all the length 00:15. */
const clockLength = (value: unknown) =>
  typeof value === 'string' && /^\d{1,2}[.:]\d{2}$/.test(value) ? value.replace('.', ':').padStart(5, '0') : value;

/** An old id as given: a number, a numeric string, or a nested object with an id. */
function oldId(value: unknown): number | undefined {
  const raw = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json).id : value;
  const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined;
}

/** The archive's records of one file: an array (the event file: one object), fields in snake_case. */
function recordsOf(file: ArchiveFile, parsed: unknown): Json[] {
  const list = file.name === 'event' && !Array.isArray(parsed) ? [parsed] : parsed;
  if (!Array.isArray(list) || list.some((r) => r === null || typeof r !== 'object' || Array.isArray(r))) {
    throw new ImportError(`File ${file.name} does not hold ${file.name === 'event' ? 'an event object' : 'a list of records'}`);
  }
  const records = (list as Json[]).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [snake(k), v])));
  const seen = new Set<number>();
  for (const r of records) {
    const id = oldId(r.id);
    if (id === undefined) throw new ImportError(`File ${file.name}, ID ${JSON.stringify(r.id ?? null)}: the id is not a number`);
    if (seen.has(id)) throw new ImportError(`File ${file.name}, ID ${id}: the id appears twice`);
    seen.add(id);
  }
  return records.sort((a, b) => oldId(a.id)! - oldId(b.id)!);
}

export interface ImportedEvent {
  id: number;
  name: string;
  identifier: string;
}

export interface ImportLimits extends ArchiveLimits {
  /** Inflated size of any one JSON file of the archive: each is parsed whole, in memory. */
  maxJsonBytes: number;
}

export interface ImportContext {
  app: FastifyInstance;
  userId: number;
  limits: ImportLimits;
  /** Writes the progress text of the task (outside the import's transaction, so pollers see it). */
  progress(status: string): Promise<void>;
  /**
   * The import's task: the archive's media files are named after it and their path in the archive, so
   * that a retry overwrites what an attempt whose worker died had stored.
   */
  taskId: string;
}

/**
 * Imports an archive as a new event owned by `userId`, in one transaction: the event, then each
 * file in FILES order, records by ascending old id, references to records imported before rewritten
 * to their new ids, unknown fields dropped. Media files of the archive named by a record are stored
 * in the configured storage (and removed again when the import fails).
 */
export async function importArchive(
  ctx: ImportContext,
  archive: Buffer,
  /** Runs in the import's transaction once everything is in (the task's own record); answers the event URL. */
  done: (tx: Db, event: ImportedEvent) => Promise<string>,
): Promise<ImportedEvent & { url: string }> {
  const files = openArchive(archive, ctx.limits);
  const read = (file: ArchiveFile): Json[] | undefined => {
    const entry = [file.name, ...file.aliases].flatMap((n) => [`${n}.json`, n]).find((n) => files.has(n));
    if (!entry) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(files.get(entry)!(ctx.limits.maxJsonBytes).toString('utf8'));
    } catch (err) {
      if (err instanceof ArchiveError) throw err;
      throw new ImportError(`File ${entry} is not valid JSON`);
    }
    return recordsOf(file, parsed);
  };
  const contents = FILES.map((file) => ({ file, records: read(file) }));
  if (!contents[0]!.records?.[0]) throw new ImportError('The archive has no event file');

  const backend = await ctx.app.storage.select();
  /** URLs of the media stored so far, by their key. */
  const stored = new Map<string, string>();
  /** A media path of the archive (`images/logo.png`, `/images/logo`) stored in the configured storage; null when absent. */
  const media = async (path: string) => {
    const name = path.replace(/^\/+/, '');
    const entry = files.has(name) ? name : [...files.keys()].find((n) => n.replace(/\.[^/.]+$/, '') === name);
    if (!entry) return null;
    const key = `imports/media/${createHash('sha256').update(`${ctx.taskId}/${entry}`).digest('hex').slice(0, 32)}${extensionOf(basename(entry))}`;
    if (!stored.has(key)) stored.set(key, await backend.put(key, files.get(entry)!()));
    return stored.get(key)!;
  };
  try {
    return await ctx.app.db.transaction(async (tx) => {
      const ids = new Map<string, Map<number, number>>();
      let event: ImportedEvent | undefined;
      for (const [index, { file, records = [] }] of contents.entries()) {
        await ctx.progress(`Importing ${file.name.replace(/_/g, ' ')} (${index + 1}/${FILES.length})`);
        const model = modelOf(file.type);
        const map = new Map<number, number>();
        ids.set(file.name, map);
        const rows: Json[] = [];
        for (const record of records) {
          const values = await valuesOf(tx, media, file, model, record, ids);
          if (file.name === 'event') Object.assign(values, { ownerId: ctx.userId, identifier: newIdentifier() });
          else values.eventId = event!.id;
          rows.push(values);
        }
        const created = await insertAll(tx, model, rows);
        records.forEach((record, i) => map.set(oldId(record.id)!, created[i]!));
        if (file.name === 'event') event = { id: created[0]!, name: rows[0]!.name as string, identifier: rows[0]!.identifier as string };
        if (file.name === 'sessions') await linkSpeakers(tx, file, records, created, ids.get('speakers')!);
        await sendVariants(ctx.app, tx, file, rows, created);
      }
      return { ...event!, url: await done(tx, event!) };
    });
  } catch (err) {
    // A task ended meanwhile by another run of its job: that run's event uses these very files.
    if (!(err instanceof TaskEnded)) await Promise.allSettled([...stored.keys()].map((key) => backend.remove(key)));
    throw err;
  }
}

const BATCH = 500;

/** Inserts the rows in batches (one statement per batch) and answers their new ids, in order. */
async function insertAll(tx: Db, model: Model, rows: Json[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const created = (await tx.insert(model.table).values(rows.slice(i, i + BATCH)).returning({ id: model.id })) as { id: number }[];
    ids.push(...created.map((r) => r.id));
  }
  return ids;
}

const VARIANT_OWNERS: Record<string, [ImageOwner, string]> = { event: ['event', 'originalImageUrl'], speakers: ['speaker', 'photoUrl'] };

/** Imported images get their variants like any other: the jobs are sent in the import's transaction. */
async function sendVariants(app: FastifyInstance, tx: Db, file: ArchiveFile, rows: Json[], ids: number[]) {
  const owner = VARIANT_OWNERS[file.name];
  if (!owner) return;
  for (const [i, row] of rows.entries()) {
    const url = row[owner[1]];
    if (typeof url === 'string') await app.sendJob(tx, IMAGE_VARIANTS_QUEUE, { owner: owner[0], id: ids[i]!, url });
  }
}

/** The speakers of each session (`speaker_ids`, or `speakers` as ids or nested objects), rewritten to new ids. */
async function linkSpeakers(tx: Db, file: ArchiveFile, records: Json[], sessionIds: number[], speakers: Map<number, number>) {
  const links: { speakerId: number; sessionId: number }[] = [];
  for (const [i, record] of records.entries()) {
    const given = record.speaker_ids ?? record.speakers ?? [];
    if (!Array.isArray(given)) throw new ImportError(`File ${file.name}, ID ${String(record.id)}: speakers must be a list`);
    const linked = new Set(given.map(oldId).flatMap((old) => (old !== undefined && speakers.has(old) ? [speakers.get(old)!] : [])));
    for (const speakerId of linked) links.push({ speakerId, sessionId: sessionIds[i]! });
  }
  for (let i = 0; i < links.length; i += BATCH) await tx.insert(speakersSessions).values(links.slice(i, i + BATCH));
}

/** Column values of one record: checked attributes, media stored, references rewritten. */
async function valuesOf(
  tx: Db,
  media: (path: string) => Promise<string | null>,
  file: ArchiveFile,
  model: Model,
  record: Json,
  ids: Map<string, Map<number, number>>,
): Promise<Json> {
  const where = `File ${file.name}, ID ${String(record.id)}`;
  const attributes: Json = {};
  for (const [wire, attr] of writable(model)) {
    const key = snake(wire);
    if (!(key in record)) continue;
    let value = record[key];
    const kind = valueKind(attr.schema);
    // The public formats write "" for numbers, dates and links they do not have.
    if (value === '' && (kind !== 'string' || key.endsWith('url'))) value = null;
    if (file.name === 'session_types' && key === 'length') value = clockLength(value);
    if (typeof value === 'string' && /url$/.test(key) && value !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(value)) {
      value = await media(value);
    }
    attributes[wire] = value;
  }
  const validate = validatorOf(model);
  if (!validate(attributes)) {
    const error = validate.errors![0]!;
    throw new ImportError(`${where}: ${snake(error.instancePath.slice(1)) || 'record'} ${error.message ?? 'is invalid'}`);
  }
  for (const [wire, attr] of writable(model)) {
    if (attr.required && (attributes[wire] === undefined || attributes[wire] === null)) throw new ImportError(`${where}: ${snake(wire)} is required`);
  }
  let values: Json;
  try {
    values = await attributeValues(model, attributes);
  } catch (err) {
    if (err instanceof JsonApiError) throw new ImportError(`${where}: ${err.detail}`);
    throw err;
  }
  for (const link of linksOf(model)) {
    const given = record[link.field] ?? record[link.field.replace(/_id$/, '')];
    const old = oldId(given);
    if (link.file) values[link.column] = old === undefined ? null : (ids.get(link.file)?.get(old) ?? null);
    else if (link.field === 'event_topic_id' && old !== undefined) {
      const [topic] = await tx.select({ id: eventTopics.id }).from(eventTopics).where(eq(eventTopics.id, old));
      values[link.column] = topic?.id ?? null;
    }
  }
  return values;
}

import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../plugins/db.js';
import { eventSubTopics, eventTopics, eventTypes, speakersSessions } from '../../db/schema/index.js';
import { IMAGE_VARIANTS_QUEUE, type ImageOwner } from '../images/variants.js';
import type { Model } from '../jsonapi/index.js';
import { newIdentifier } from '../resources/events/index.js';
import { extensionOf } from '../files/upload.js';
import { TaskEnded } from '../jobs/task-job.js';
import { FILES, modelOf } from './format.js';
import type { EventListing } from './plan/context.js';
import { planImport, type Plan, type PlannedFile } from './plan/index.js';
import { mediaEntries } from './repairs/media-paths.js';
import { Warnings, type WarningSummary } from './repairs/warnings.js';
import { readSources } from './sources.js';
import { openArchive, type ArchiveLimits } from './zip.js';

type Json = Record<string, unknown>;

export interface ImportedEvent {
  id: number;
  name: string;
  identifier: string;
  warnings: WarningSummary;
}

export interface ImportLimits extends ArchiveLimits {
  /** Inflated size of any one JSON file of the archive: each is parsed whole, in memory. */
  maxJsonBytes: number;
}

export interface ImportContext {
  app: FastifyInstance;
  userId: number;
  limits: ImportLimits;
  /** Refuse the archive at its first problem instead of repairing or dropping what cannot be read. */
  strict: boolean;
  /** Writes the progress text of the task (outside the import's transaction, so pollers see it). */
  progress(status: string): Promise<void>;
  /**
   * The import's task: the archive's media files are named after it and their path in the archive, so
   * that a retry overwrites what an attempt whose worker died had stored.
   */
  taskId: string;
}

/**
 * Imports an archive as a new event owned by `userId`. Everything is read and repaired first (see
 * `planImport`: each repair or drop is a warning), media files named by records stored in the
 * configured storage; then one transaction writes the event and each file in FILES order, records
 * by ascending old id, references rewritten to the new ids. On any failure nothing remains: the
 * transaction rolls back and the stored media are removed again.
 */
export async function importArchive(
  ctx: ImportContext,
  archive: Buffer,
  /** Runs in the import's transaction once everything is in (the task's own record); answers the event URL. */
  done: (tx: Db, event: ImportedEvent) => Promise<string>,
): Promise<ImportedEvent & { url: string }> {
  const files = openArchive(archive, ctx.limits);
  const warnings = new Warnings(ctx.strict);
  const backend = await ctx.app.storage.select();
  /** URLs of the media stored so far, by their key. */
  const stored = new Map<string, string>();
  const entryOf = mediaEntries([...files.keys()]);
  /** A media path of the archive (`images/logo.png`, `/images/logo`) stored in the configured storage; null when absent. */
  const media = async (path: string) => {
    const found = entryOf(path);
    if (!found) return null;
    const { entry, note } = found;
    const key = `imports/media/${createHash('sha256').update(`${ctx.taskId}/${entry}`).digest('hex').slice(0, 32)}${extensionOf(basename(entry))}`;
    if (!stored.has(key)) stored.set(key, await backend.put(key, files.get(entry)!()));
    return { url: stored.get(key)!, note };
  };
  const listed = async (type: EventListing, named: number | string, topic?: number) => {
    // The three lists share their columns (id, name, deleted_at).
    const table = { 'event-topic': eventTopics, 'event-type': eventTypes, 'event-sub-topic': eventSubTopics }[
      type
    ] as typeof eventTypes;
    const match = typeof named === 'number' ? eq(table.id, named) : sql`lower(${table.name}) = lower(${named})`;
    const within =
      type === 'event-sub-topic' && topic !== undefined ? eq(eventSubTopics.eventTopicId, topic) : undefined;
    const [row] = await ctx.app.db
      .select({ id: table.id })
      .from(table)
      .where(and(match, isNull(table.deletedAt), within))
      .orderBy(asc(table.id))
      .limit(1);
    return row?.id;
  };
  try {
    await ctx.progress('Reading the archive');
    const plan = await planImport(readSources(files, ctx.limits.maxJsonBytes, warnings), { warnings, media, listed });
    return await ctx.app.db.transaction(async (tx) => {
      const event = await writePlan(ctx, tx, plan);
      const imported = { ...event, warnings: warnings.summary() };
      return { ...imported, url: await done(tx, imported) };
    });
  } catch (err) {
    // A task ended meanwhile by another run of its job: that run's event uses these very files.
    if (!(err instanceof TaskEnded)) await Promise.allSettled([...stored.keys()].map((key) => backend.remove(key)));
    throw err;
  }
}

/** Writes a plan: the event, then each file's records with their references rewritten to the new ids. */
async function writePlan(ctx: ImportContext, tx: Db, plan: Plan): Promise<Omit<ImportedEvent, 'warnings'>> {
  const values: Json = { ...plan.event.values, ownerId: ctx.userId, identifier: newIdentifier() };
  await ctx.progress(`Importing event (1/${FILES.length})`);
  const [eventId] = await insertAll(tx, modelOf('event'), [values]);
  const event = { id: eventId!, name: values.name as string, identifier: values.identifier as string };
  await sendVariants(ctx.app, tx, 'event', [values], [event.id]);
  const ids = new Map<string, Map<string, number>>();
  for (const { file, records } of plan.files) {
    await ctx.progress(`Importing ${file.name.replace(/_/g, ' ')} (${FILES.indexOf(file) + 1}/${FILES.length})`);
    const rows = records.map((r) => {
      const row: Json = { ...r.values, eventId: event.id };
      for (const ref of r.refs) row[ref.column] = ids.get(ref.file)?.get(ref.key) ?? null;
      return row;
    });
    const created = await insertAll(tx, modelOf(file.type), rows);
    ids.set(file.name, new Map(records.flatMap((r, i) => (r.key === undefined ? [] : [[r.key, created[i]!]]))));
    if (file.name === 'sessions') await linkSpeakers(tx, { file, records }, created, ids.get('speakers') ?? new Map());
    await sendVariants(ctx.app, tx, file.name, rows, created);
  }
  return event;
}

const BATCH = 500;

/** Inserts the rows in batches (one statement per batch) and answers their new ids, in order. */
async function insertAll(tx: Db, model: Model, rows: Json[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const created = (await tx
      .insert(model.table)
      .values(rows.slice(i, i + BATCH))
      .returning({ id: model.id })) as { id: number }[];
    ids.push(...created.map((r) => r.id));
  }
  return ids;
}

const VARIANT_OWNERS: Record<string, [ImageOwner, string]> = {
  event: ['event', 'originalImageUrl'],
  speakers: ['speaker', 'photoUrl'],
};

/** Imported images get their variants like any other: the jobs are sent in the import's transaction. */
async function sendVariants(app: FastifyInstance, tx: Db, fileName: string, rows: Json[], ids: number[]) {
  const owner = VARIANT_OWNERS[fileName];
  if (!owner) return;
  for (const [i, row] of rows.entries()) {
    const url = row[owner[1]];
    if (typeof url === 'string') await app.sendJob(tx, IMAGE_VARIANTS_QUEUE, { owner: owner[0], id: ids[i]!, url });
  }
}

/** The speakers of each session, rewritten to the new ids. */
async function linkSpeakers(tx: Db, sessions: PlannedFile, sessionIds: number[], speakers: Map<string, number>) {
  const links = sessions.records.flatMap((r, i) =>
    r.speakers.map((key) => ({ speakerId: speakers.get(key)!, sessionId: sessionIds[i]! })),
  );
  for (let i = 0; i < links.length; i += BATCH) await tx.insert(speakersSessions).values(links.slice(i, i + BATCH));
}

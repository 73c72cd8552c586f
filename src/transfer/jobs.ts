import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events, importArchives, notifications, settings, tasks, users } from '../../db/schema/index.js';
import type { MailAddress } from '../../plugins/mailer.js';
import { storageUnavailable } from '../../plugins/storage.js';
import { defineJob } from '../jobs/job.js';
import type { FetchLimits } from '../net/safe-fetch.js';
import { buildExport, type MediaFlags } from './export.js';
import { ImportError, importArchive } from './import.js';
import { ArchiveError, type ArchiveLimits } from './zip.js';

export const EXPORT_QUEUE = 'event-export';
export const IMPORT_QUEUE = 'event-import';

/** An export failure whose message the requester may read. */
class ExportError extends Error {}

interface TaskJob {
  taskId: string;
}

type Task = typeof tasks.$inferSelect;

/**
 * A queue whose jobs each run one task, given with its requester's address. A task that no longer
 * waits is left alone, so a job that runs again after its task ended does nothing.
 */
const taskJob = (name: string, run: (app: FastifyInstance, task: Task, to: MailAddress) => Promise<void>) =>
  defineJob<TaskJob>({
    name,
    queue: { retryLimit: 2, retryDelay: 30 },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const [task] = await app.db.select().from(tasks).where(and(eq(tasks.id, job.data.taskId), eq(tasks.state, 'WAITING')));
        if (!task) continue;
        const [user] = await app.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, task.userId));
        await run(app, task, { address: user!.email, name: user!.name ?? undefined });
      }
    },
  });

/** Error text from archives may carry NUL characters, which PostgreSQL text and jsonb refuse. */
const printable = (message: string) => message.replace(/\0/g, '\\0');

const finish = (db: FastifyInstance['db'], id: string, state: string, result: object, extra: object = {}) =>
  db.update(tasks).set({ state, result, status: null, updatedAt: new Date(), ...extra }).where(eq(tasks.id, id));

export interface TransferLimits {
  fetch: FetchLimits;
  archive: ArchiveLimits;
  publicUrl: string;
}

/**
 * The export job: builds the archive, stores it in the configured storage, records where, and mails
 * the requester the download URL. Any failure ends the task FAILED with the error, mailed too.
 */
export const eventExport = (limits: TransferLimits) =>
  taskJob(EXPORT_QUEUE, async (app, task, to) => {
    const eventId = task.eventId!;
    const [event] = await app.db.select({ name: events.name }).from(events).where(eq(events.id, eventId));
    const eventName = event?.name ?? `#${eventId}`;
    try {
      const archive = await buildExport(app, eventId, task.options as MediaFlags, { ...limits.fetch, rootUrl: limits.publicUrl });
      const backend = await app.storage.select();
      const key = `exports/${eventId}/${task.id}/event${eventId}.zip`;
      await backend.put(key, archive, 'application/zip').catch((err: unknown) => {
        app.log.error({ err, place: backend.place }, 'storing an export failed');
        throw new ExportError(storageUnavailable().detail);
      });
      const download = `${limits.publicUrl}/v1/events/${eventId}/exports/${task.id}/event${eventId}.zip`;
      await finish(app.db, task.id, 'SUCCESS', { download_url: download }, { options: { ...(task.options as object), place: backend.place, key } });
      await app.mailer.send({
        to,
        subject: `Event ${eventName} has been exported`,
        action: 'export-done',
        text: `The export of ${eventName} is ready. Download it (signed in as an organizer) at:\n${download}\n`,
      });
    } catch (err) {
      app.log.error({ err, task: task.id }, 'export failed');
      // Storage failures say so; the text of anything else stays in the log (it may name internals).
      const message = err instanceof ExportError ? err.message : 'The export failed on the server';
      await finish(app.db, task.id, 'FAILED', { __error: true, message });
      await app.mailer.send({
        to,
        subject: `Export of event ${eventName} failed`,
        action: 'export-failed',
        text: `The export of ${eventName} failed: ${message}\n`,
      });
    }
  });

/**
 * The import job: the whole import and the task's SUCCESS (with the notification) are one
 * transaction, so a crash leaves the task waiting and no event behind, and a retry starts afresh.
 * A refused archive ends the task FAILURE with the reason; the requester gets a mail either way.
 */
export const eventImport = (limits: TransferLimits) =>
  taskJob(IMPORT_QUEUE, async (app, task, to) => {
    const [archive] = await app.db.select().from(importArchives).where(eq(importArchives.taskId, task.id));
    try {
      if (!archive) throw new ImportError('The archive of this import is gone');
      const [site] = await app.db.select({ frontendUrl: settings.frontendUrl }).from(settings).where(eq(settings.id, 1));
      const progress = async (status: string) => void (await app.db.update(tasks).set({ status, updatedAt: new Date() }).where(eq(tasks.id, task.id)));
      const event = await importArchive({ app, userId: task.userId, limits: limits.archive, progress }, archive.data, async (tx, created) => {
        const url = `${site?.frontendUrl ?? limits.publicUrl}/e/${created.identifier}`;
        const result = { event_name: created.name, id: String(created.id), url };
        await tx.update(tasks).set({ state: 'SUCCESS', result, status: null, eventId: created.id, updatedAt: new Date() }).where(eq(tasks.id, task.id));
        await tx.delete(importArchives).where(eq(importArchives.taskId, task.id));
        await tx.insert(notifications).values({
          userId: task.userId,
          title: `Event ${created.name} has been imported`,
          message: `Your event ${created.name} is ready: ${url}`,
        });
        return url;
      });
      await app.mailer.send({
        to,
        subject: `Event ${event.name} has been imported`,
        action: 'import-done',
        text: `Your event ${event.name} has been imported: ${event.url}\n`,
      });
    } catch (err) {
      if (!(err instanceof ImportError || err instanceof ArchiveError)) app.log.error({ err, task: task.id }, 'import failed');
      const message = err instanceof ImportError || err instanceof ArchiveError ? printable(err.message) : 'The import failed on the server';
      // One transaction: whoever sees the task ended also sees its archive gone.
      await app.db.transaction(async (tx) => {
        await finish(tx, task.id, 'FAILURE', { __error: true, message });
        await tx.delete(importArchives).where(eq(importArchives.taskId, task.id));
      });
      await app.mailer.send({ to, subject: 'Import of event failed', action: 'import-failed', text: `The import failed: ${message}\n` });
    }
  });

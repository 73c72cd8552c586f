import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events, importArchives, notifications, settings, tasks, users } from '../../db/schema/index.js';
import { defineJob } from '../jobs/job.js';
import type { FetchLimits } from '../net/safe-fetch.js';
import { buildExport, type MediaFlags } from './export.js';
import { ImportError, importArchive } from './import.js';
import { ArchiveError, type ArchiveLimits } from './zip.js';

export const EXPORT_QUEUE = 'event-export';
export const IMPORT_QUEUE = 'event-import';

interface TaskJob {
  taskId: string;
}

/** The task if it still waits (a job that runs again after its task ended does nothing). */
async function waitingTask(app: FastifyInstance, id: string) {
  const [task] = await app.db.select().from(tasks).where(and(eq(tasks.id, id), eq(tasks.state, 'WAITING')));
  return task;
}

async function requester(app: FastifyInstance, userId: number) {
  const [user] = await app.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId));
  return { address: user!.email, name: user!.name ?? undefined };
}

/** Error text from archives may carry NUL characters, which PostgreSQL text and jsonb refuse. */
const printable = (message: string) => message.replace(/\0/g, '\\0');

const finish = (app: FastifyInstance, id: string, state: string, result: object, extra: object = {}) =>
  app.db.update(tasks).set({ state, result, status: null, updatedAt: new Date(), ...extra }).where(eq(tasks.id, id));

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
  defineJob<TaskJob>({
    name: EXPORT_QUEUE,
    queue: { retryLimit: 2, retryDelay: 30 },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const task = await waitingTask(app, job.data.taskId);
        if (!task) continue;
        const to = await requester(app, task.userId);
        const eventId = task.eventId!;
        const [event] = await app.db.select({ name: events.name }).from(events).where(eq(events.id, eventId));
        const eventName = event?.name ?? `#${eventId}`;
        try {
          const archive = await buildExport(app, eventId, task.options as MediaFlags, { ...limits.fetch, rootUrl: limits.publicUrl });
          const backend = await app.storage.select();
          const key = `exports/${eventId}/${task.id}/event${eventId}.zip`;
          await backend.put(key, archive, 'application/zip');
          const download = `${limits.publicUrl}/v1/events/${eventId}/exports/${task.id}/event${eventId}.zip`;
          await finish(app, task.id, 'SUCCESS', { download_url: download }, { options: { ...(task.options as object), place: backend.place, key } });
          await app.mailer.send({
            to,
            subject: `Event ${eventName} has been exported`,
            action: 'export-done',
            text: `The export of ${eventName} is ready. Download it (signed in as an organizer) at:\n${download}\n`,
          });
        } catch (err) {
          app.log.error({ err, task: task.id }, 'export failed');
          const message = printable(err instanceof Error ? err.message : String(err));
          await finish(app, task.id, 'FAILED', { __error: true, message });
          await app.mailer.send({
            to,
            subject: `Export of event ${eventName} failed`,
            action: 'export-failed',
            text: `The export of ${eventName} failed: ${message}\n`,
          });
        }
      }
    },
  });

/**
 * The import job: the whole import and the task's SUCCESS (with the notification) are one
 * transaction, so a crash leaves the task waiting and no event behind, and a retry starts afresh.
 * A refused archive ends the task FAILURE with the reason; the requester gets a mail either way.
 */
export const eventImport = (limits: TransferLimits) =>
  defineJob<TaskJob>({
    name: IMPORT_QUEUE,
    queue: { retryLimit: 2, retryDelay: 30 },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const task = await waitingTask(app, job.data.taskId);
        if (!task) continue;
        const to = await requester(app, task.userId);
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
          await finish(app, task.id, 'FAILURE', { __error: true, message });
          await app.db.delete(importArchives).where(eq(importArchives.taskId, task.id));
          await app.mailer.send({ to, subject: 'Import of event failed', action: 'import-failed', text: `The import failed: ${message}\n` });
        }
      }
    },
  });

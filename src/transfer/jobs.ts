import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { events, importArchives, notifications, settings } from '../../db/schema/index.js';
import { storageUnavailable, type Body } from '../../plugins/storage.js';
import type { FastifyInstance } from 'fastify';
import {
  finishTask,
  requesterOf,
  setTaskStatus,
  TaskEnded,
  taskJob,
  type AbandonedMail,
  type Task,
} from '../jobs/task-job.js';
import type { FetchLimits } from '../net/safe-fetch.js';
import { duration } from '../duration.js';
import type { DownloadLinks } from './download-links.js';
import { FORMATS, render } from '../schedule/documents.js';
import { loadSchedule } from '../schedule/model.js';
import { csvExport, type CsvKind } from './csv.js';
import { writePdfExport, type PdfKind } from './pdf-tables.js';
import { BadgeError, markPrinted, printBadges, type BadgePrint } from '../resources/badge-forms/print.js';
import { buildExport, type MediaFlags } from './export.js';
import { SCHEDULE_EXPORTS, type ScheduleExport } from './schemas.js';
import { importArchive, type ImportLimits } from './import.js';
import { describe, ImportError, printable, type WarningSummary } from './repairs/warnings.js';
import { ArchiveError } from './zip.js';
import { recordActivity } from '../jsonapi/index.js';

export const EXPORT_QUEUE = 'event-export';
/** The storage folder of export archives: only their download route serves them (to organizers, or with a signed link). */
export const EXPORTS_FOLDER = 'exports';
export const IMPORT_QUEUE = 'event-import';

/** An export failure whose message the requester may read. */
class ExportError extends Error {}

/** The name of the event an export reads (its id when the event is gone). */
async function exportedEventName(app: FastifyInstance, task: Task) {
  const [event] = await app.db.select({ name: events.name }).from(events).where(eq(events.id, task.eventId!));
  return event?.name ?? `#${task.eventId}`;
}

/** The mail of a failed export (also of one given up after its retries). */
export const exportFailedMail: AbandonedMail = async (app, task, message) => {
  const eventName = await exportedEventName(app, task);
  return {
    to: await requesterOf(app, task),
    subject: `Export of event ${eventName} failed`,
    action: 'export-failed',
    text: `The export of ${eventName} failed: ${message}\n`,
  };
};

/** The mail of a failed import (also of one given up after its retries). */
export const importFailedMail: AbandonedMail = async (app, task, message) => ({
  to: await requesterOf(app, task),
  subject: 'Import of event failed',
  action: 'import-failed',
  text: `The import failed: ${message}\n`,
});

/**
 * What an export task asks for: the archive (with its media flags), a schedule document, a CSV file, a PDF table
 * or badges to print.
 */
type ExportOptions = MediaFlags & {
  format?: ScheduleExport;
  csv?: CsvKind;
  pdf?: PdfKind;
  status?: string;
  badges?: BadgePrint;
};

/**
 * The file an export task builds: its name in the download URL, its media type and its bytes (or the temporary file
 * holding them, which `cleanup` removes); `printed`, for badges, the holders to mark printed when the task succeeds.
 */
interface ExportedFile {
  name: string;
  type: string;
  body: Body;
  printed?: number[];
  cleanup?: () => Promise<void>;
}

/** The name the PDFs carry as their author: the site's. */
async function appNameOf(app: FastifyInstance) {
  const [site] = await app.db.select({ appName: settings.appName }).from(settings).where(eq(settings.id, 1));
  return site?.appName ?? 'Open Event';
}

/** A PDF export written to a temporary file by `write` (the rows of a large event are never all in memory). */
async function pdfFile(
  name: string,
  write: (path: string) => Promise<{ size: number; printed?: number[] }>,
): Promise<ExportedFile> {
  const dir = await mkdtemp(join(tmpdir(), 'oe-export-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const path = join(dir, name);
    const { size, printed } = await write(path);
    return { name, type: 'application/pdf', body: { path, size }, printed, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/** The file an export task builds. */
async function exportedFile(app: FastifyInstance, task: Task, limits: TransferLimits): Promise<ExportedFile> {
  const eventId = task.eventId!;
  const options = task.options as ExportOptions;
  const progress = (what: string) => (done: number) => setTaskStatus(app.db, task.id, `${what} (${done} so far)`);
  if (options.badges) {
    const print = options.badges;
    const author = await appNameOf(app);
    return pdfFile(`${print.attendee ? 'badge' : 'badges'}-event${eventId}.pdf`, (path) =>
      printBadges(app, eventId, print, {
        path,
        author,
        limits: { fetch: limits.fetch, maxPixels: limits.maxPixels },
        progress: progress('Printing badges'),
      }),
    );
  }
  if (options.pdf) {
    const kind = options.pdf;
    const author = await appNameOf(app);
    return pdfFile(`${kind}-event${eventId}.pdf`, async (path) => ({
      size: await writePdfExport(app.db, eventId, kind, {
        status: options.status,
        path,
        author,
        progress: progress(`Writing ${kind}`),
      }),
    }));
  }
  if (options.csv) {
    const body = Buffer.from(await csvExport(app.db, eventId, options.csv, options.status));
    return { name: `${options.csv}-event${eventId}.csv`, type: 'text/csv; charset=utf-8', body };
  }
  if (options.format) {
    const schedule = await loadSchedule(app.db, eventId, limits.publicUrl);
    if (!schedule) throw new ExportError('The event is gone');
    const format = SCHEDULE_EXPORTS[options.format];
    const { file, type } = FORMATS[format];
    const body = render(schedule, format, `${limits.publicUrl}/v1/events/${schedule.event.identifier}/${file}`);
    return { name: `event${eventId}.${format}`, type, body: Buffer.from(body) };
  }
  const body = await buildExport(app, eventId, options, { ...limits.fetch, rootUrl: limits.publicUrl });
  return { name: `event${eventId}.zip`, type: 'application/zip', body };
}

export interface TransferLimits {
  fetch: FetchLimits;
  /** The most pixels an image read for a PDF may have (badge backgrounds). */
  maxPixels: number;
  archive: ImportLimits;
  publicUrl: string;
  /** Signs the download_url of an export. */
  links: DownloadLinks;
}

/**
 * The export job: builds the file (the archive, a schedule document, a CSV or PDF file, badges), stores it in the
 * configured storage, records where, and mails the requester the download URL (but for badges). Any failure ends the
 * task FAILED with the error, mailed too.
 */
export const eventExport = (limits: TransferLimits) =>
  taskJob(EXPORT_QUEUE, async (app, task) => {
    const to = await requesterOf(app, task);
    const eventId = task.eventId!;
    const eventName = await exportedEventName(app, task);
    try {
      const file = await exportedFile(app, task, limits);
      const backend = await app.storage.select();
      const key = `${EXPORTS_FOLDER}/${eventId}/${task.id}/${file.name}`;
      await backend
        .put(key, file.body, file.type)
        .catch((err: unknown) => {
          app.log.error({ err, place: backend.place }, 'storing an export failed');
          throw new ExportError(storageUnavailable().detail);
        })
        .finally(() => file.cleanup?.());
      const download = limits.links.signed(limits.publicUrl, `/v1/events/${eventId}/exports/${task.id}/${file.name}`);
      const done = { download_url: download };
      const options = { ...(task.options as object), place: backend.place, key, type: file.type };
      const { printed } = file;
      if (printed) {
        // Badges are printed at the door, whose task shows the link: no mail. The holders are marked printed with
        // the task's success, in one transaction.
        await app.db.transaction(async (tx) => {
          await finishTask(tx, task.id, 'SUCCESS', done, { options });
          await markPrinted(tx, printed);
        });
        return;
      }
      await app.mailer.send(
        {
          to,
          subject: `Event ${eventName} has been exported`,
          action: 'export-done',
          text:
            `The export of ${eventName} is ready. Download it at:\n${download}\n\nThe link works for ` +
            `${duration(limits.links.seconds)}; after that, organizers of the event download it signed in, ` +
            'from the same address without the part after "?".\n',
        },
        async (tx) => {
          await finishTask(tx, task.id, 'SUCCESS', done, { options });
          // The reference's `export_event` line, by the requester.
          const by = task.userId === null ? null : { email: to.address, id: task.userId };
          await recordActivity(tx, by, [`Event ${eventId} exported`]);
        },
      );
    } catch (err) {
      if (err instanceof TaskEnded) return;
      app.log.error({ err, task: task.id }, 'export failed');
      // Storage failures say so; the text of anything else stays in the log (it may name internals).
      const message =
        err instanceof ExportError || err instanceof BadgeError ? err.message : 'The export failed on the server';
      await app.mailer.send(await exportFailedMail(app, task, message), (tx) =>
        finishTask(tx, task.id, 'FAILED', { __error: true, message }),
      );
    }
  });

const WARNINGS_MAILED = 20;
const WARNINGS_NOTIFIED = 3;

/** What an import repaired or left out, for its mail and notification: how many, and the first `shown` of them. */
function warningsNoted({ total, items }: WarningSummary, shown: number): string {
  if (total === 0) return '';
  const lines = items.slice(0, shown).map((w) => `- ${describe(w)}`);
  const more =
    total > lines.length
      ? [`... and ${total - lines.length} more: the import task lists the first ${items.length}.`]
      : [];
  return `\n\n${total} ${total === 1 ? 'warning' : 'warnings'}: what was repaired or not carried over\n${[...lines, ...more].join('\n')}`;
}

/**
 * The import job: the whole import and the task's SUCCESS (with the notification) are one
 * transaction, so a crash leaves the task waiting and no event behind, and a retry starts afresh.
 * A refused archive ends the task FAILURE with the reason; the requester gets a mail either way.
 */
export const eventImport = (limits: TransferLimits) =>
  taskJob(IMPORT_QUEUE, async (app, task) => {
    const to = await requesterOf(app, task);
    const userId = task.userId!; // imports always have their requester (tasks_requester)
    const [archive] = await app.db.select().from(importArchives).where(eq(importArchives.taskId, task.id));
    try {
      if (!archive) throw new ImportError('The archive of this import is gone');
      const [site] = await app.db
        .select({ frontendUrl: settings.frontendUrl })
        .from(settings)
        .where(eq(settings.id, 1));
      const progress = (status: string) => setTaskStatus(app.db, task.id, status);
      const strict = (task.options as { strict?: boolean }).strict === true;
      const context = { app, userId, limits: limits.archive, progress, taskId: task.id, strict };
      const event = await importArchive(context, archive.data, async (tx, created) => {
        const url = `${site?.frontendUrl ?? limits.publicUrl}/e/${created.identifier}`;
        const result = { event_name: created.name, id: String(created.id), url, warnings: created.warnings };
        await finishTask(tx, task.id, 'SUCCESS', result, { eventId: created.id });
        // The reference's `import_event` line, by the requester.
        await recordActivity(tx, { email: to.address, id: userId }, [`Event ${created.id} imported`]);
        await tx.delete(importArchives).where(eq(importArchives.taskId, task.id));
        await tx.insert(notifications).values({
          userId,
          title: `Event ${created.name} has been imported`,
          message: `Your event ${created.name} is ready: ${url}${warningsNoted(created.warnings, WARNINGS_NOTIFIED)}`,
        });
        return url;
      });
      await app.mailer.send({
        to,
        subject: `Event ${event.name} has been imported`,
        action: 'import-done',
        text: `Your event ${event.name} has been imported: ${event.url}${warningsNoted(event.warnings, WARNINGS_MAILED)}\n`,
      });
    } catch (err) {
      // Another run ended the task meanwhile: its import stands, this one rolled back.
      if (err instanceof TaskEnded) return;
      if (!(err instanceof ImportError || err instanceof ArchiveError))
        app.log.error({ err, task: task.id }, 'import failed');
      const message =
        err instanceof ImportError || err instanceof ArchiveError
          ? printable(err.message)
          : 'The import failed on the server';
      // One transaction: whoever sees the task ended also sees its archive gone (and its mail recorded).
      await app.mailer.send(await importFailedMail(app, task, message), async (tx) => {
        await finishTask(tx, task.id, 'FAILURE', { __error: true, message });
        await tx.delete(importArchives).where(eq(importArchives.taskId, task.id));
      });
    }
  });

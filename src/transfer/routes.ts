import { readFile } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { importArchives, tasks } from '../../db/schema/index.js';
import { isStaff, loggedIn, requireLogin } from '../auth/caller.js';
import type { Face, FaceOptions } from '../face.js';
import { uploadTmpDir } from '../files/index.js';
import { MULTIPART_OPTIONS, withUploads } from '../files/upload.js';
import { API_PREFIX, badRequest, errorResponses, notFound, pascal } from '../jsonapi/index.js';
import { eventIdNamed, requireDoor, requireRole } from '../resources/events/access.js';
import { badgePrintRoutes } from '../resources/badge-forms/print-routes.js';
import { downloadLinksOf } from './download-links.js';
import { EXPORT_QUEUE, IMPORT_QUEUE } from './jobs.js';
import { FORMATS } from '../schedule/documents.js';
import { CSV_KINDS } from './csv.js';
import { PDF_KINDS } from './pdf-tables.js';
import {
  CSV_REQUESTS,
  ExportRequest,
  ImportQuery,
  ImportRequest,
  ImportWarning,
  SCHEDULE_EXPORTS,
  TaskDocument,
  TaskStarted,
} from './schemas.js';

export const TAG = 'Export and import';

const taskUrl = (id: string) => `${API_PREFIX}/tasks/${id}`;

const EventParams = Type.Object({
  event_id: Type.String({ maxLength: 64, description: 'id or identifier of the event' }),
});

/**
 * Export and import of events as background tasks: `POST /v1/events/{event_id}/export/json`,
 * `GET /v1/events/{event_id}/exports/{path}`, `POST /v1/events/import/{source_type}`, and
 * `GET /v1/tasks/{task_id}` to poll them.
 */
async function transferRoutes(app: FastifyInstance, { config }: FaceOptions) {
  const links = downloadLinksOf(config);
  app.addSchema(ExportRequest);
  for (const schema of Object.values(CSV_REQUESTS)) app.addSchema(schema);
  app.addSchema(ImportRequest);
  app.addSchema(TaskStarted);
  app.addSchema(ImportWarning);
  app.addSchema(TaskDocument);
  /** The event a path names, which the caller must organize (404 for one it cannot see, 403 for one it sees). */
  const organizedEvent = async (request: FastifyRequest) => {
    const ctx = { caller: request.caller, db: app.db, request };
    const eventId = await eventIdNamed(ctx, (request.params as { event_id: string }).event_id);
    await requireRole(ctx, eventId, 'organizer', 'Event not found');
    return eventId;
  };

  /**
   * Queues an export task of the event with `options` (what the job builds: the zip, a schedule document, a CSV or
   * PDF file, badges) for the caller, and answers its URL.
   */
  const queueExport = async (request: FastifyRequest, eventId: number, options: object) => {
    const id = await app.db.transaction(async (tx) => {
      const [task] = await tx
        .insert(tasks)
        .values({ kind: 'export', userId: loggedIn(request).id, eventId, options })
        .returning({ id: tasks.id });
      await app.sendJob(tx, EXPORT_QUEUE, { taskId: task!.id });
      return task!.id;
    });
    return { task_url: taskUrl(id) };
  };
  /** Starts an export task of an event the caller organizes. */
  const startExport = async (request: FastifyRequest, options: object) =>
    queueExport(request, await organizedEvent(request), options);
  app.post(
    `${API_PREFIX}/events/:event_id/export/json`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: [TAG],
        operationId: 'exportEvent',
        summary: 'Export an event',
        description:
          'Starts a background export of the event to a zip archive (organizers of the event and administrators). ' +
          'The media flags (default false) add the images, videos, audio and slides to the archive. Poll the ' +
          'task URL; a successful task gives `result.download_url`, and the requester gets an e-mail either way.',
        consumes: ['application/json', 'application/vnd.api+json'],
        params: EventParams,
        body: Type.Ref(ExportRequest),
        response: {
          200: Type.Ref(TaskStarted, { description: 'The export is under way' }),
          ...errorResponses([400, 401, 403, 404, 413, 415, 422]),
        },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof ExportRequest>;
      return startExport(request, {
        image: !!body.image,
        video: !!body.video,
        audio: !!body.audio,
        document: !!body.document,
      });
    },
  );

  const started = {
    200: Type.Ref(TaskStarted, { description: 'The export is under way' }),
    ...errorResponses([400, 401, 403, 404, 413, 415, 422]),
  };
  const WHO =
    'for organizers of the event and administrators; the task and the mail name its download URL as for the JSON ' +
    "export. The Open Event front end starts it with GET (its loader), the reference's newer clients with POST.";
  /** An export started by POST, and by GET as the Open Event front end does: the same task, two operation ids. */
  function exportRoute(
    path: string,
    operationId: string,
    summary: string,
    description: string,
    options: object,
    body?: TObject,
  ) {
    for (const method of ['POST', 'GET'] as const) {
      app.route({
        method,
        url: `${API_PREFIX}/events/:event_id/export/${path}`,
        onRequest: requireLogin(app),
        schema: {
          tags: [TAG],
          operationId: method === 'POST' ? operationId : `${operationId}ByGet`,
          summary: method === 'POST' ? summary : `${summary} (GET)`,
          description: `${description} ${WHO}`,
          params: EventParams,
          ...(method === 'POST' && body
            ? { consumes: ['application/json', 'application/vnd.api+json'], body: Type.Optional(Type.Ref(body)) }
            : {}),
          response: started,
        },
        handler: (request) => {
          const status = (request.body as { status?: string } | undefined)?.status;
          return startExport(request, { ...options, ...(status && status !== 'all' ? { status } : {}) });
        },
      });
    }
  }
  for (const [format, document] of Object.entries(SCHEDULE_EXPORTS)) {
    const { title, file } = FORMATS[document];
    exportRoute(
      format,
      `exportEvent${pascal(format)}`,
      `Export the schedule as ${title}`,
      `A background export of the schedule as ${title} (the document \`GET /v1/events/{id}/${file}\` serves at any time),`,
      { format },
    );
  }
  for (const kind of CSV_KINDS) {
    const body = CSV_REQUESTS[kind];
    exportRoute(
      `${kind}/csv`,
      `exportEvent${pascal(kind)}Csv`,
      `Export the ${kind} as CSV`,
      `A background export of the event's ${kind} as CSV with the reference's columns (UTF-8 with a byte order mark; ` +
        'a text a spreadsheet would read as a formula starts with an apostrophe)' +
        (body ? `; a POST body \`{"status": ...}\` (${body.properties.status.description}) filters them,` : ','),
      { csv: kind },
      body,
    );
  }

  for (const kind of PDF_KINDS) {
    const body = CSV_REQUESTS[kind];
    exportRoute(
      `${kind}/pdf`,
      `exportEvent${pascal(kind)}Pdf`,
      `Export the ${kind} as PDF`,
      `A background export of the event's ${kind} as a PDF table with the columns of the reference's template ` +
        '(landscape A4, the header row on every page; names in any script)' +
        (body ? `; a POST body \`{"status": ...}\` (${body.properties.status.description}) filters them,` : ','),
      { pdf: kind },
      body,
    );
  }
  // The door's badge prints: export tasks too, for those who run the event's door.
  await badgePrintRoutes(app, queueExport);

  const ExportParams = Type.Object({
    event_id: EventParams.properties.event_id,
    '*': Type.String({ maxLength: 300, description: 'path of the file, as the task result names it' }),
  });
  const ExportLink = Type.Object(
    {
      expires: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 2 ** 40,
          description: 'of a signed download_url: when it stops working (Unix seconds)',
        }),
      ),
      signature: Type.Optional(
        Type.String({ pattern: '^[0-9a-f]{64}$', description: 'of a signed download_url: its signature' }),
      ),
    },
    { additionalProperties: false },
  );
  app.get(
    `${API_PREFIX}/events/:event_id/exports/*`,
    {
      onRequest: (request) => app.authenticate(request),
      config: {
        swaggerTransform: ({ schema }: { schema: object }) => ({
          schema: {
            ...schema,
            params: Type.Object({ event_id: EventParams.properties.event_id, path: ExportParams.properties['*'] }),
          },
          url: `${API_PREFIX}/events/{event_id}/exports/{path}`,
        }),
      },
      schema: {
        tags: [TAG],
        operationId: 'downloadEventExport',
        summary: 'Download an export',
        description:
          'The file of a finished export of this event (the zip archive, a schedule document, a CSV or PDF file, ' +
          'printed badges): with the signed `download_url` of the task (its `expires` ' +
          'and `signature`) for anyone holding it until it expires, as the Open Event front end downloads it without ' +
          'its token; without them, for organizers of the event and administrators (badges: for those who run its ' +
          'door, registrars included).',
        params: ExportParams,
        querystring: ExportLink,
        response: {
          200: {
            description: 'The exported file',
            content: Object.fromEntries(
              [
                'application/zip',
                'text/csv',
                'application/pdf',
                ...Object.values(SCHEDULE_EXPORTS).map((f) => FORMATS[f].type.split(';')[0]!),
              ].map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
            ),
          },
          // 400: an event_id longer than its schema allows, half a signature.
          ...errorResponses([400, 401, 403, 404], {
            403: 'The caller does not organize the event, or the link is not valid or has expired',
          }),
        },
      },
    },
    async (request, reply) => {
      const params = request.params as { event_id: string; '*': string };
      const eventId = await downloadingEvent(request);
      const match =
        /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([a-z]+-)?event(\d+)\.[a-z]+$/.exec(
          params['*'],
        );
      if (!match || Number(match[3]) !== eventId || /%2f|%5c/i.test(request.url))
        throw notFound('No export of this event has this path');
      const [task] = await app.db
        .select()
        .from(tasks)
        .where(
          and(
            eq(tasks.id, match[1]!),
            eq(tasks.kind, 'export'),
            eq(tasks.eventId, eventId),
            eq(tasks.state, 'SUCCESS'),
          ),
        );
      const stored = task?.options as { place?: 'local' | 's3'; key?: string; type?: string } | undefined;
      if (!stored?.key?.endsWith(`/${params['*']}`)) throw notFound('No export of this event has this path');
      const backend = stored.place === 'local' ? app.storage.local : await app.storage.select();
      const file = await backend.open(stored.key).catch(() => {
        throw notFound('The archive of this export is no longer stored');
      });
      return (
        reply
          .type(stored.type ?? 'application/zip')
          // Personal data (speakers' addresses and phones), possibly fetched through a link without a token: kept by no cache.
          .header('cache-control', 'private, no-store')
          .header('content-length', file.size)
          .header('content-disposition', `attachment; filename="${params['*'].split('/')[1]}"`)
          .send(file.stream)
      );
    },
  );

  /**
   * The event whose export a download names: with a signed link, the live event its path names (the link
   * was made for its organizer); without, one the caller organizes.
   */
  async function downloadingEvent(request: FastifyRequest): Promise<number> {
    const { expires, signature } = request.query as Static<typeof ExportLink>;
    if (expires === undefined && signature === undefined) {
      loggedIn(request);
      // Printed badges are the door's (their task names the file `badge-` or `badges-`).
      if (/\/badges?-event\d+\.pdf$/.test((request.params as { '*': string })['*'])) {
        const ctx = { caller: request.caller, db: app.db, request };
        const eventId = await eventIdNamed(ctx, (request.params as { event_id: string }).event_id);
        await requireDoor(ctx, eventId, 'Event not found');
        return eventId;
      }
      return organizedEvent(request);
    }
    if (expires === undefined || signature === undefined)
      throw badRequest('A signed link has both expires and signature', expires === undefined ? 'expires' : 'signature');
    return links.eventOf(app.db, request.url.split('?')[0]!, expires, signature);
  }

  await app.register(async (scope) => {
    await scope.register(multipart, MULTIPART_OPTIONS);
    const limits = { maxFileBytes: config.UPLOAD_MAX_FILE_BYTES, maxFiles: 1, tmpDir: uploadTmpDir(config) };
    scope.post(
      `${API_PREFIX}/events/import/:source_type`,
      {
        onRequest: requireLogin(app),
        schema: {
          tags: [TAG],
          operationId: 'importEvent',
          summary: 'Import an event',
          description:
            'Starts a background import of a zip archive (part `file`) as a new event owned by the caller. Only the ' +
            '`json` source type exists (others are 404). Archives of this service and of the Open Event formats are ' +
            'read best effort: what can be repaired is (letter case and older words of enumerations, repeated ids, ' +
            'local times, time zone names, numbers and booleans written as text, lengths, broken JSON), what cannot is ' +
            'left out, and each such repair or omission is a warning in the task result, the mail and the notification. ' +
            'The event itself needs a name and readable dates. The whole import is one transaction: on any error ' +
            'nothing of the new event remains. Poll the task URL; the requester gets an e-mail and a notification.',
          consumes: ['multipart/form-data'],
          params: Type.Object({
            source_type: Type.String({ maxLength: 32, description: 'format of the archive: `json`' }),
          }),
          querystring: ImportQuery,
          body: Type.Ref(ImportRequest),
          response: {
            200: Type.Ref(TaskStarted, { description: 'The import is under way' }),
            ...errorResponses([400, 401, 404, 413, 415]),
          },
        },
      },
      async (request) => {
        if ((request.params as { source_type: string }).source_type !== 'json')
          throw notFound('Source type not supported');
        return withUploads(request, limits, 'the archive', async (received) => {
          if (received.length !== 1 || received[0]!.field !== 'file')
            throw badRequest('Send the archive as one file in part "file"');
          const data = await readFile(received[0]!.path);
          if (data.subarray(0, 4).toString('latin1') !== 'PK\x03\x04')
            throw badRequest('The file is not a zip archive');
          const id = await app.db.transaction(async (tx) => {
            const { strict = false } = request.query as Static<typeof ImportQuery>;
            const values = { kind: 'import', userId: loggedIn(request).id, options: { strict } };
            const [task] = await tx.insert(tasks).values(values).returning({ id: tasks.id });
            await tx.insert(importArchives).values({ taskId: task!.id, data });
            await app.sendJob(tx, IMPORT_QUEUE, { taskId: task!.id });
            return task!.id;
          });
          return { task_url: taskUrl(id) };
        });
      },
    );
  });

  app.get(
    `${API_PREFIX}/tasks/:task_id`,
    {
      onRequest: (request) => app.authenticate(request),
      schema: {
        tags: [TAG],
        operationId: 'getTask',
        summary: 'Poll a task',
        description:
          'The state of an export, import or app build: WAITING (with the progress text), SUCCESS with its result, ' +
          'FAILED (export, app build) or FAILURE (import) with the error. Only the requester and administrators see ' +
          'an export or import; an app build, asked for without an account, is seen by whoever has its task URL. A ' +
          'failed task is still answered with 200.',
        params: Type.Object({
          task_id: Type.String({ maxLength: 64, description: 'the id at the end of the task URL' }),
        }),
        // 400: a task_id longer than its schema allows.
        response: { 200: Type.Ref(TaskDocument, { description: 'The task' }), ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const id = (request.params as { task_id: string }).task_id;
      const [task] = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
        ? await app.db.select().from(tasks).where(eq(tasks.id, id))
        : [];
      if (task?.kind !== 'app') {
        const caller = loggedIn(request);
        if (!task || (task.userId !== caller.id && !isStaff(caller))) throw notFound('Task not found');
      }
      return { state: task.state, status: task.status, result: task.result ?? null };
    },
  );
}

export const transferFace: Face = {
  tags: [
    {
      name: TAG,
      description:
        'Event export to a zip archive and import from one, as background tasks polled at /v1/tasks/{task_id}.',
    },
  ],
  routes: transferRoutes,
};

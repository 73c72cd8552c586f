import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Backend, Body } from '../../plugins/storage.js';
import { storageUnavailable } from '../../plugins/storage.js';
import { requireLogin } from '../auth/caller.js';
import { API_PREFIX, JsonApiError, badRequest, errorResponses } from '../jsonapi/index.js';

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  /** Parent of each request's temp folder. */
  tmpDir: string;
}

export const TAG = 'Files';

export const ForceLocalQuery = Type.Object(
  {
    force_local: Type.Optional(
      Type.String({
        maxLength: 16,
        description: '`true` stores on the server itself instead of the configured storage',
      }),
    ),
  },
  { additionalProperties: false },
);

export const forceLocal = (request: FastifyRequest) =>
  (request.query as { force_local?: string }).force_local === 'true';

const UploadRequest = Type.Object(
  {
    file: Type.Optional(Type.String({ format: 'binary', description: 'one file' })),
    files: Type.Optional(
      Type.Array(Type.String({ format: 'binary' }), { description: 'several files (also as `files[]`)' }),
    ),
  },
  // Streamed by the handler, never parsed into a body: the schema documents the form only.
  { $id: 'UploadRequest', 'x-streamed': true },
);
const UploadResponse = Type.Object(
  {
    url: Type.Union([
      Type.String({ description: 'URL of the stored file' }),
      Type.Array(Type.String(), { description: 'URLs in the order sent' }),
    ]),
  },
  { $id: 'UploadResponse', additionalProperties: false },
);

const SINGLE = 'file';
const MULTIPLE = new Set(['files', 'files[]']);

/** The stored name's extension: the uploaded name after its first dot, kept to URL- and path-safe characters. */
export function extensionOf(filename: string): string {
  const dot = filename.indexOf('.');
  if (dot < 0) return '';
  const ext = filename
    .slice(dot + 1)
    .replace(/[^A-Za-z0-9.]/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 32)
    .replace(/\.+$/, '');
  return ext ? `.${ext}` : '';
}

/** A generated unique key under `folder`, ending in `extension`. */
export const uniqueKey = (folder: string, extension: string) =>
  `${folder}/${randomUUID().replace(/-/g, '')}${extension}`;

export interface Received {
  field: string;
  extension: string;
  path: string;
  size: number;
}

const tooLarge = (limits: UploadLimits) =>
  new JsonApiError(413, 'Payload Too Large', `A file is larger than the limit of ${limits.maxFileBytes} bytes`);

/** Parser failures as client errors; anything else is ours. */
function multipartError(err: unknown, limits: UploadLimits): unknown {
  if (err instanceof JsonApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(limits);
  if (code === 'FST_FILES_LIMIT') return badRequest(`At most ${limits.maxFiles} files may be sent in one request`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest('The form has too many parts');
  if (code === 'FST_MP_PREMATURE_CLOSE') return badRequest('The upload ended before the form was complete');
  if (code === 'FST_PROTO_VIOLATION') return badRequest('A form field has a reserved name');
  // busboy reports a broken form as a plain Error; file-system errors carry a code and stay ours.
  if (err instanceof Error && !('code' in err)) return badRequest(`Malformed multipart body: ${err.message}`);
  return err;
}

/** Streams every file part into `dir` (memory stays flat whatever the size); fields are ignored. */
async function receive(request: FastifyRequest, dir: string, limits: UploadLimits): Promise<Received[]> {
  const received: Received[] = [];
  const parts = request.parts({
    limits: {
      fileSize: limits.maxFileBytes,
      files: limits.maxFiles,
      parts: limits.maxFiles + 20,
      fields: 20,
      fieldSize: 4096,
    },
  });
  for await (const part of parts) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== SINGLE && !MULTIPLE.has(part.fieldname)) {
      part.file.resume();
      throw badRequest(
        `Unexpected file part "${part.fieldname}": send one file in part "file" or several in part "files"`,
      );
    }
    const path = join(dir, String(received.length));
    await pipeline(part.file, createWriteStream(path));
    if (part.file.truncated) throw tooLarge(limits);
    received.push({
      field: part.fieldname,
      extension: extensionOf(part.filename ?? ''),
      path,
      size: part.file.bytesRead,
    });
  }
  return received;
}

/** The plugin's own limits; every handler gives its limits per request (`request.parts({ limits })`). */
export const MULTIPART_OPTIONS = { limits: { files: 1, fileSize: 1, parts: 1, fields: 0 } };

/**
 * Streams the file parts of a multipart request into a temp folder, gives them to `use`, and removes
 * the folder on every path (also when the client goes away). Not multipart: 415 naming `what`.
 */
export async function withUploads<T>(
  request: FastifyRequest,
  limits: UploadLimits,
  what: string,
  use: (received: Received[]) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart())
    throw new JsonApiError(415, 'Unsupported Media Type', `Send ${what} as multipart/form-data`);
  const dir = await mkdtemp(join(limits.tmpDir, 'oe-upload-'));
  try {
    const received = await receive(request, dir, limits).catch((err: unknown) => {
      throw multipartError(err, limits);
    });
    return await use(received);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Stores every body under its key, all or nothing: when one fails, those already stored are removed.
 * A failure of the storage service is a 503.
 */
export async function storeAll(
  request: FastifyRequest,
  backend: Backend,
  items: { key: string; body: Body }[],
): Promise<string[]> {
  const stored: string[] = [];
  try {
    const urls: string[] = [];
    for (const { key, body } of items) {
      urls.push(await backend.put(key, body));
      stored.push(key);
    }
    return urls;
  } catch (err) {
    request.log.error({ err, place: backend.place }, 'storing an upload failed');
    await Promise.allSettled(stored.map((key) => backend.remove(key)));
    throw storageUnavailable();
  }
}

/**
 * `POST /v1/upload/file` and `/v1/upload/files`: multipart uploads of logged-in users, streamed to a
 * temp folder that is removed on every path (also when the client goes away), then stored under
 * generated names in the settings' storage (or locally with `force_local=true`).
 */
export async function uploadRoutes(app: FastifyInstance, limits: UploadLimits) {
  app.addSchema(UploadRequest);
  app.addSchema(UploadResponse);
  for (const [path, operationId] of [
    ['file', 'uploadFile'],
    ['files', 'uploadFiles'],
  ] as const) {
    app.post(
      `${API_PREFIX}/upload/${path}`,
      {
        // Who calls is settled before anything they sent is read: an anonymous caller gets 401.
        onRequest: requireLogin(app),
        schema: {
          tags: [TAG],
          operationId,
          summary: path === 'file' ? 'Upload files' : 'Upload files (alias of /v1/upload/file)',
          description:
            `One file in part \`file\` answers \`{"url": "..."}\`; several in part \`files\` (or \`files[]\`) answer ` +
            `\`{"url": ["...", ...]}\`. Each is stored under a generated unique name plus the extension of its ` +
            `name (the part after the first dot). At most ${limits.maxFiles} files of ${limits.maxFileBytes} bytes each.`,
          consumes: ['multipart/form-data'],
          querystring: ForceLocalQuery,
          body: Type.Ref(UploadRequest),
          response: {
            200: Type.Ref(UploadResponse, { description: 'Where the files are stored' }),
            ...errorResponses([400, 401, 413, 415, 503], {
              400: 'No file in part `file` or `files`, another file part, too many files, or a malformed form',
              413: 'A file exceeds the size limit',
              503: 'The file storage or the database is down for a moment; nothing was stored. `Retry-After` says when to try again',
            }),
          },
        },
      },
      async (request) =>
        withUploads(request, limits, 'the files', async (received) => {
          const single = received.filter((r) => r.field === SINGLE);
          if (received.length === 0)
            throw badRequest('No file was sent: put one file in part "file" or several in part "files"');
          if (single.length > 0 && received.length > 1) {
            throw badRequest('Part "file" takes exactly one file; send several in part "files"');
          }
          const backend = await app.storage.select(forceLocal(request));
          const urls = await storeAll(
            request,
            backend,
            received.map((r) => ({
              key: uniqueKey('uploads/files', r.extension),
              body: { path: r.path, size: r.size },
            })),
          );
          return { url: single.length > 0 ? urls[0]! : urls };
        }),
    );
  }
}

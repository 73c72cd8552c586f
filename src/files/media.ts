import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { contentTypeOf, isKey, MEDIA_PREFIX } from '../../plugins/storage.js';
import { errorResponses, notFound } from '../jsonapi/index.js';
import { EXPORTS_FOLDER } from '../transfer/jobs.js';
import { TAG } from './upload.js';

const path = Type.String({ maxLength: 2100, description: 'path of the stored file, as the upload answered it' });
const MediaParams = Type.Object({ '*': path });

/**
 * `GET /static/media/<key>`: files of the local storage, with the content type of their extension.
 * Only well-formed keys are looked up (no `..`, no hidden names, no folders), so nothing outside the
 * storage folder and no listing is ever served; stored HTML or SVG cannot run script on this origin.
 */
export async function mediaRoute(app: FastifyInstance) {
  app.get(
    `${MEDIA_PREFIX}*`,
    {
      // The document names the wildcard `{path}` (fastify's own name for it is `*`).
      config: {
        swaggerTransform: ({ schema }: { schema: object }) => ({
          schema: { ...schema, params: Type.Object({ path }) },
          url: `${MEDIA_PREFIX}{path}`,
        }),
      },
      schema: {
        tags: [TAG],
        operationId: 'getStoredFile',
        summary: 'A file kept in the local storage',
        description: 'The URLs that uploads answer with when the file is stored on the server itself.',
        params: MediaParams,
        response: {
          200: {
            description: 'The file, with the content type of its extension',
            content: { '*/*': { schema: { type: 'string', format: 'binary' } } },
          },
          // Local files only: no database, no storage service.
          ...errorResponses([404], { 404: 'No stored file has this path' }, { database: false }),
        },
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      // The wildcard arrives decoded: an encoded slash or backslash must not act as a separator. Export
      // archives (speakers' private fields) are stored locally too, but are not public files.
      if (!isKey(key) || key.startsWith(`${EXPORTS_FOLDER}/`) || /%2f|%5c/i.test(request.url))
        throw notFound('No stored file has this path');
      const file = await app.storage.local.open(key).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'EISDIR')
          throw notFound('No stored file has this path');
        throw err;
      });
      return reply
        .type(contentTypeOf(key))
        .header('content-length', file.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'public, max-age=86400')
        .send(file.stream);
    },
  );
}

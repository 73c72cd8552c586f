import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { imageUploadRoute } from './image.js';
import { mediaRoute } from './media.js';
import { uploadRoutes } from './upload.js';

export const filesTag = { name: 'Files', description: 'Uploads of files and images, and the files kept in the local storage.' };

/** The files face: uploads (multipart, parsed only here), image uploads, and the local storage's files. */
export default async function filesRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const tmpDir = config.UPLOAD_TMP_DIR ?? tmpdir();
  await mkdir(tmpDir, { recursive: true });
  await app.register(async (scope) => {
    // Limits are given per request by the upload handler; these only bound anything else.
    await scope.register(multipart, { limits: { files: 1, fileSize: 1, parts: 1, fields: 0 } });
    await uploadRoutes(scope, { maxFileBytes: config.UPLOAD_MAX_FILE_BYTES, maxFiles: config.UPLOAD_MAX_FILES, tmpDir });
  });
  await imageUploadRoute(app, { maxBytes: config.IMAGE_MAX_BYTES, maxPixels: config.IMAGE_MAX_PIXELS });
  await mediaRoute(app);
}

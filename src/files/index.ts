import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Face, FaceOptions } from '../face.js';
import { imageUploadRoute } from './image.js';
import { mediaRoute } from './media.js';
import { MULTIPART_OPTIONS, uploadRoutes } from './upload.js';

/** Where uploads are streamed before they are stored (created at start). */
export const uploadTmpDir = (config: Config) => config.UPLOAD_TMP_DIR ?? tmpdir();

/** The files face: uploads (multipart, parsed only here), image uploads, and the local storage's files. */
export const filesFace: Face = {
  tags: [{ name: 'Files', description: 'Uploads of files and images, and the files kept in the local storage.' }],
  routes: filesRoutes,
};

async function filesRoutes(app: FastifyInstance, { config }: FaceOptions) {
  const tmpDir = uploadTmpDir(config);
  await mkdir(tmpDir, { recursive: true });
  await app.register(async (scope) => {
    await scope.register(multipart, MULTIPART_OPTIONS);
    await uploadRoutes(scope, {
      maxFileBytes: config.UPLOAD_MAX_FILE_BYTES,
      maxFiles: config.UPLOAD_MAX_FILES,
      tmpDir,
    });
  });
  await imageUploadRoute(app, { maxBytes: config.IMAGE_MAX_BYTES, maxPixels: config.IMAGE_MAX_PIXELS });
  await mediaRoute(app);
}

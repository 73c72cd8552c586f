import type { FastifyInstance } from 'fastify';
import type { Face, FaceOptions } from '../face.js';
import multipart from '@fastify/multipart';
import { loginLimitsOf } from '../auth/login.js';
import { MULTIPART_OPTIONS } from '../files/upload.js';
import { accountAdminRoutes } from './account-admin.js';
import { accountSelfRoutes } from './account-self.js';
import { accountRoutes } from './accounts.js';
import { metricsRoutes } from './metrics.js';
import { ratingRoutes } from './ratings.js';
import { SkillRepo } from './skill-repo.js';
import { skillRoutes } from './skills.js';
import { skillReadRoutes } from './skill-reads.js';
import { chatRoutes } from './chat.js';
import { skillHistoryRoutes } from './skill-history.js';
import { draftRoutes } from './drafts.js';
import { AssistantAnswer, AssistantFailure, sendFailure, TAG } from './route.js';
import { settingsFiles } from './settings-files.js';

/**
 * The assistant face: its own answer shape (`accepted`, `message`, `session`), form bodies, and the
 * settings folder, whose hand-edited roles are applied at start-up (the reference's first-admin path).
 */
export const assistantFace: Face = {
  tags: [
    {
      name: TAG,
      description: 'The assistant skill server (`/cms`, `/aaa`, `/data/settings`): same accounts and tokens.',
    },
  ],
  routes: assistantRoutes,
};

async function assistantRoutes(app: FastifyInstance, { config, connect }: FaceOptions) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.setErrorHandler((err, _request, reply) => sendFailure(reply, err));
  app.addSchema(AssistantAnswer);
  app.addSchema(AssistantFailure);
  const files = settingsFiles(app, config.ASSISTANT_SETTINGS_DIR);
  if (connect) {
    const applied = await files.applyHandEdits();
    if (applied.length > 0) app.log.info({ applied }, 'roles from authorization.json applied');
    await files.write();
  }
  await app.register(multipart, MULTIPART_OPTIONS);
  const repo = new SkillRepo(config.SKILL_REPO_DIR, connect ? app.sql : undefined, app.log);
  if (connect) await repo.init();
  // The routes in a scope below the schemas, so that Fastify builds their validator compiler once (see
  // src/jsonapi/plugin.ts).
  await app.register(async (scope) => {
    await accountRoutes(scope, { files, expiresIn: config.JWT_EXPIRES_IN, loginLimits: loginLimitsOf(config) });
    await accountSelfRoutes(scope, { config, files, limits: loginLimitsOf(config) });
    await accountAdminRoutes(scope, { files });
    await skillRoutes(scope, repo, { maxBytes: config.IMAGE_MAX_BYTES, maxPixels: config.IMAGE_MAX_PIXELS });
    await skillReadRoutes(scope, repo);
    await metricsRoutes(scope, repo);
    await ratingRoutes(scope, repo);
    await chatRoutes(scope, repo);
    await skillHistoryRoutes(scope, repo);
    await draftRoutes(scope);
  });
}

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mime from 'mime-types';
import { users } from '../../db/schema/index.js';
import { checkLogin, type LoginLimits } from '../auth/login.js';
import { hasNul } from '../jsonapi/values.js';
import { AssistantError, identify, rank, requireRole, ROLES, type Role } from './identity.js';
import { assistantRoute, failures, params, paramsOf, sendFailure, TAG } from './route.js';
import { roleColumns, type SettingsFiles } from './settings-files.js';
import { liveAccountWith } from '../auth/accounts.js';

/**
 * The `/aaa` account endpoints and the settings download: login for assistant clients, the personal
 * store, role changes, and the administrators' view of the settings folder.
 */
export async function accountRoutes(
  app: FastifyInstance,
  { files, expiresIn, loginLimits }: { files: SettingsFiles; expiresIn: number; loginLimits: LoginLimits },
) {
  assistantRoute(
    app,
    {
      url: '/aaa/login.json',
      method: ['GET', 'POST'],
      operationId: 'assistantLogin',
      params: params({ login: 'e-mail of the account', password: 'its password' }),
      failures: [400, 403, 422, 429],
      failureDescriptions: { 403: 'The account is blocked by an administrator', 429: 'Too many failed logins for this e-mail or from this client address; `Retry-After` says when to try again' },
      summary: 'Log in (assistant clients)',
      description:
        '`login` (the e-mail) and `password` give the same token as POST /v1/auth/login, as `access_token`; failed ' +
        'logins count against the same limits (429 with `Retry-After`).',
      minimal: 'anonymous',
    },
    async ({ request, params }) => {
      // No address holds a NUL (PostgreSQL text cannot): such a login is malformed, not a failed guess.
      if (!params.login || !params.password || hasNul(params.login)) throw new AssistantError(400, 'Bad login parameters.');
      const user = await checkLogin(app, loginLimits, { email: params.login, password: params.password, ip: request.ip });
      if (!user) throw new AssistantError(422, 'Invalid credentials');
      await app.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
      await files.write();
      return { accepted: true, valid_seconds: expiresIn, access_token: app.issueToken(user.id, { generation: user.tokenGeneration }), message: `You are logged in as ${user.email}` };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/storePersonalInfo.json',
      method: ['GET', 'POST'],
      operationId: 'storePersonalInfo',
      params: params({ fetchDetails: '`true` reads the store', storeName: 'name of the entry', value: 'its value' }),
      failures: [400, 420, 422],
      summary: 'Read or write the personal store',
      description:
        '`fetchDetails=true` answers `stores`; otherwise `storeName` and `value` set one entry. Role user.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const user = caller!;
      const [row] = await app.db.select({ stores: users.stores }).from(users).where(eq(users.id, user.id));
      const stores = row?.stores ?? {};
      if (params.fetchDetails === 'true') {
        if (Object.keys(stores).length === 0) throw new AssistantError(420, 'No personal information is added yet.');
        return { accepted: true, stores, message: 'details fetched successfully.' };
      }
      // jsonb cannot hold a NUL character: such a name or value is as bad as none.
      if (!params.storeName || hasNul(params.storeName)) throw new AssistantError(422, 'Bad store name encountered!');
      if (params.value === undefined || hasNul(params.value)) throw new AssistantError(422, 'Bad store name value encountered!');
      await app.db
        .update(users)
        .set({ stores: sql`${users.stores} || ${JSON.stringify({ [params.storeName]: params.value })}::jsonb` })
        .where(eq(users.id, user.id));
      await files.write();
      return { accepted: true, message: 'You successfully updated your account information!' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/changeRoles.json',
      method: ['GET', 'POST'],
      operationId: 'changeRoles',
      params: params({ user: 'e-mail of the account', role: 'user, reviewer, operator, admin or superadmin (default user)' }),
      failures: [400, 401, 403],
      summary: 'Change the role of a user',
      description:
        '`user` (e-mail) and `role`. Administrators set roles up to operator; only a superadmin grants admin or ' +
        'superadmin. The change reaches the event service (is-admin, is-super-admin) and authorization.json.',
      minimal: 'admin',
    },
    async ({ identity, params }) => {
      const role = (params.role ?? 'user') as Role;
      if (role === 'anonymous') throw new AssistantError(400, 'Cannot change user role to anonymous.');
      if (!ROLES.includes(role)) throw new AssistantError(400, `Unknown role "${role}"`);
      if (!params.user) throw new AssistantError(400, 'Bad username');
      // No address holds a NUL (PostgreSQL text cannot), and comparing one would be a database error.
      if (hasNul(params.user)) throw new AssistantError(400, 'Username not found');
      if (rank(role) >= rank('admin') && identity.role !== 'superadmin') {
        throw new AssistantError(403, 'Only a superadmin may grant the roles admin and superadmin');
      }
      const [target] = await app.db
        .select({ id: users.id, isAdmin: users.isAdmin, isSuperAdmin: users.isSuperAdmin })
        .from(users)
        .where(liveAccountWith(params.user.trim()));
      if (!target) throw new AssistantError(400, 'Username not found');
      if ((target.isAdmin || target.isSuperAdmin) && identity.role !== 'superadmin') {
        throw new AssistantError(403, 'Only a superadmin may change the role of an administrator');
      }
      await app.db
        .update(users)
        .set(roleColumns(role))
        .where(eq(users.id, target.id));
      await files.write();
      return { accepted: true, message: 'User role changed successfully!!', newDetails: { userRole: role, permissions: {} } };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/listSettings.json',
      method: 'GET',
      operationId: 'listSettings',
      failures: [401],
      summary: 'List the settings files',
      description: 'The names of the files in the settings folder; administrators.',
      minimal: 'admin',
    },
    async () => ({ accepted: true, message: 'Success: Fetched all files', files: await files.names() }),
  );

  app.get(
    '/data/settings',
    {
      schema: {
        tags: [TAG],
        operationId: 'downloadSettings',
        summary: 'Download a settings file',
        description: '`file` (default `accounting`) names `<file>.json` of the settings folder; administrators.',
        response: {
          200: { description: 'The file as an attachment', content: { 'application/json': { schema: { type: 'object', description: 'the settings file as stored' } } } },
          ...failures([401, 404]),
        },
      },
    },
    async (request, reply) => {
      try {
        const params = paramsOf(request);
        requireRole(await identify(app, request, params), 'admin');
        const name = params.file || 'accounting';
        const known = await files.names();
        if (!known.includes(`${name}.json`)) throw new AssistantError(404, 'No settings file has this name');
        const path = join(files.dir, `${name}.json`);
        const { size } = await stat(path);
        return reply
          .header('access-control-allow-origin', '*')
          .header('content-disposition', `attachment; filename=${name}.json`)
          .header('content-length', size)
          .type(mime.lookup(path) || 'application/octet-stream')
          .send(createReadStream(path, { highWaterMark: 4096 }));
      } catch (err) {
        return sendFailure(reply, err);
      }
    },
  );
}

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import mime from 'mime-types';
import { users } from '../../db/schema/index.js';
import { checkLogin, type LoginLimits } from '../auth/login.js';
import { hasNul } from '../jsonapi/index.js';
import { AssistantError, identify, rank, requireRole, ROLES, type Role } from './identity.js';
import { flag, flags } from './flags.js';
import { assistantRoute, failures, params, paramsOf, sendFailure, TAG } from './route.js';
import { roleColumns, type SettingsFiles } from './settings-files.js';
import { liveAccountWith } from '../auth/accounts.js';
import { endLogins, raiseGeneration } from '../auth/logins.js';
import { deleteAccount } from './account-admin.js';

const LOGIN_TYPES = ['access-token', 'cookie', 'session', 'check_password'];

/** The account endpoints getServiceList names (the reference lists its servlet classes). */
const AAA_SERVICES = [
  'login',
  'signup',
  'changeRoles',
  'getUsers',
  'deleteUserAccount',
  'modifyUserDevices',
  'listUserSettings',
  'recoverpassword',
  'checkRegistration',
  'showAdminService',
  'getApiKeys',
  'storePersonalInfo',
  'listSettings',
].map((name) => `/aaa/${name}.json`);

/**
 * The lifetime of a new token: `valid_seconds` (an integer; 0 and below -1 are refused as the reference
 * does), never longer than the service's token lifetime; -1 ("forever" in the reference) gets that lifetime.
 */
function lifetimeOf(value: string | undefined, max: number): number {
  if (value === undefined || value === '') return max;
  const seconds = /^-?\d{1,12}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(seconds) || seconds === 0 || seconds < -1)
    throw new AssistantError(422, "Invalid value for 'valid_seconds'");
  return seconds === -1 ? max : Math.min(seconds, max);
}

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
      params: {
        ...params({
          login: 'e-mail of the account',
          password: 'its password',
          type: '`access-token` (default; `cookie` and `session` answer the same), or `check_password` (only says whether the password is right)',
          valid_seconds:
            'lifetime of the token in seconds; -1 = as long as this service allows (never longer than its token lifetime)',
        }),
        ...flags({
          checkLogin: 'true: answers `loggedIn`, whether the token identifies someone',
          logout: 'true, with the token: the assistant tokens of the account stop working',
          delete: "true, with the token: deletes the caller's account (with `password`, checked first)",
        }),
      },
      failures: [400, 401, 403, 422, 429],
      failureDescriptions: {
        401: '`logout` or `delete` without a token of a live account',
        403: 'The account is blocked by an administrator',
        422: 'Wrong e-mail or password, or a bad `valid_seconds`',
        429: 'Too many failed logins for this e-mail or from this client address; `Retry-After` says when to try again',
      },
      summary: 'Log in, check a login, log out or delete the account (assistant clients)',
      description:
        '`login` (the e-mail) and `password` give the same token as POST /v1/auth/login, as `access_token`, with `uuid` (MD5 of ' +
        'the e-mail, as the reference) and `valid_seconds`; failed logins count against the same limits (429 with `Retry-After`). ' +
        '`valid_seconds` shortens the token; -1 ("forever" in the reference) and larger values get this service\'s token ' +
        `lifetime (${expiresIn} seconds) as protection, and the answer names the real lifetime. \`type=check_password\` answers ` +
        "`accepted` without a token. `checkLogin=true` answers `loggedIn`. `logout=true` ends the caller's tokens: a token of " +
        "this endpoint ends with every other assistant token of the account (they carry the account's token generation), a " +
        "token of POST /v1/auth/login ends its login. `delete=true` deletes the caller's account as DELETE /v1/users/{id} does " +
        '(the reference asks no password: accounts.susi.ai checks it first with `type=check_password`; a `password` sent along is checked).',
      minimal: 'anonymous',
    },
    async ({ request, identity, params }) => {
      const caller = identity.caller;
      if (flag(params.checkLogin)) {
        return caller
          ? { accepted: true, loggedIn: true, message: `You are logged in as ${caller.email}` }
          : { accepted: false, loggedIn: false, message: 'Not logged in' };
      }
      const deleting = flag(params.delete);
      if (flag(params.logout) || deleting) {
        if (!caller) {
          // The reference refuses a missing token; a stale one is logged out already (nothing to delete, though).
          if (deleting || !params.access_token) throw new AssistantError(401, 'Unauthorized');
          return { accepted: true, message: 'Logout successful' };
        }
        if (deleting) {
          if (params.password !== undefined) {
            const user = await checkLogin(app, loginLimits, {
              email: caller.email,
              password: params.password,
              ip: request.ip,
            });
            if (!user) throw new AssistantError(422, 'Invalid credentials');
          }
          await deleteAccount(app, caller.id);
          await files.write();
          return { accepted: true, message: 'Account deletion successful' };
        }
        await app.db.transaction(async (tx) => {
          if (caller.loginId) await endLogins(tx, { loginId: caller.loginId }, 'logout');
          else await tx.update(users).set({ tokenGeneration: raiseGeneration() }).where(eq(users.id, caller.id));
        });
        return { accepted: true, message: 'Logout successful' };
      }
      // No address holds a NUL (PostgreSQL text cannot): such a login is malformed, not a failed guess.
      if (!params.login || !params.password || hasNul(params.login))
        throw new AssistantError(400, 'Bad login parameters.');
      const type = params.type || 'access-token';
      if (!LOGIN_TYPES.includes(type)) throw new AssistantError(400, 'Invalid type');
      const lifetime = lifetimeOf(params.valid_seconds, expiresIn);
      const user = await checkLogin(app, loginLimits, {
        email: params.login,
        password: params.password,
        ip: request.ip,
      });
      if (!user) throw new AssistantError(422, 'Invalid credentials');
      const message = `You are logged in as ${user.email}`;
      if (type === 'check_password') return { accepted: true, message };
      await app.db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
      await files.write();
      return {
        accepted: true,
        valid_seconds: lifetime,
        uuid: createHash('md5').update(user.email).digest('hex'),
        access_token: app.issueToken(user.id, { generation: user.tokenGeneration }, lifetime),
        message,
      };
    },
  );

  assistantRoute(
    app,
    {
      url: '/aaa/storePersonalInfo.json',
      method: ['GET', 'POST'],
      operationId: 'storePersonalInfo',
      params: {
        ...flags({ fetchDetails: 'true: reads the store' }),
        ...params({ storeName: 'name of the entry', value: 'its value' }),
      },
      failures: [400, 420, 422],
      summary: 'Read or write the personal store',
      description:
        '`fetchDetails=true` (or `1`) answers `stores`; otherwise `storeName` and `value` set one entry. Role user.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const user = caller!;
      const [row] = await app.db.select({ stores: users.stores }).from(users).where(eq(users.id, user.id));
      const stores = row?.stores ?? {};
      if (flag(params.fetchDetails)) {
        if (Object.keys(stores).length === 0) throw new AssistantError(420, 'No personal information is added yet.');
        return { accepted: true, stores, message: 'details fetched successfully.' };
      }
      // jsonb cannot hold a NUL character: such a name or value is as bad as none.
      if (!params.storeName || hasNul(params.storeName)) throw new AssistantError(422, 'Bad store name encountered!');
      if (params.value === undefined || hasNul(params.value))
        throw new AssistantError(422, 'Bad store name value encountered!');
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
      params: {
        ...params({
          user: 'e-mail of the account',
          role: 'user, reviewer, operator, admin or superadmin, in any letter case (default user)',
          serviceName: "with getServicePermissions: the reference's servlet class name",
        }),
        ...flags({
          getServicePermissions:
            'true: answers `servicePermissions` of the service named by `serviceName` (always empty here)',
          getServiceList: 'true: answers `serviceList`, the account endpoints',
          getUserRolePermission: 'true: answers `userRolePermissions` of the caller (always empty here)',
        }),
      },
      failures: [400, 401, 403, 404, 422],
      failureDescriptions: {
        403: 'Only a superadmin grants admin or superadmin, or changes the role of an administrator',
        404: 'No account has this e-mail, or the role is unknown (`bot` included: the reference knows no such role)',
        422: 'No `user`, or the role anonymous',
      },
      summary: 'Change the role of a user',
      description:
        '`user` (e-mail) and `role`. Administrators set roles up to operator; only a superadmin grants admin or superadmin, ' +
        'or changes the role of an administrator (the reference let any admin do both: a hole kept closed here). The change ' +
        "reaches the event service (is-admin, is-super-admin) and authorization.json. The reference's variants " +
        '`getServicePermissions`, `getServiceList` and `getUserRolePermission` answer what this service has: no per-service permissions.',
      minimal: 'admin',
    },
    async ({ identity, params }) => {
      if (flag(params.getServicePermissions)) {
        if (!params.serviceName) throw new AssistantError(400, 'Bad service name (no class)');
        return { accepted: true, servicePermissions: {}, message: 'Successfully processed request' };
      }
      if (flag(params.getServiceList))
        return { accepted: true, serviceList: AAA_SERVICES, message: 'Successfully processed request' };
      if (flag(params.getUserRolePermission))
        return { accepted: true, userRolePermissions: {}, message: 'Successfully processed request' };
      const role = (params.role ?? 'user').toLowerCase();
      if (role === 'anonymous') throw new AssistantError(422, 'Cannot change user role to anonymous.');
      if (!params.user) throw new AssistantError(422, 'Bad username');
      // No address holds a NUL (PostgreSQL text cannot), and comparing one would be a database error.
      if (hasNul(params.user)) throw new AssistantError(404, 'Username not found');
      const [target] = await app.db
        .select({ id: users.id, email: users.email, isAdmin: users.isAdmin, isSuperAdmin: users.isSuperAdmin })
        .from(users)
        .where(liveAccountWith(params.user.trim()));
      if (!target) throw new AssistantError(404, 'Username not found');
      if (!ROLES.includes(role as Role)) throw new AssistantError(404, 'role not found');
      if (rank(role as Role) >= rank('admin') && identity.role !== 'superadmin') {
        throw new AssistantError(403, 'Only a superadmin may grant the roles admin and superadmin');
      }
      if ((target.isAdmin || target.isSuperAdmin) && identity.role !== 'superadmin') {
        throw new AssistantError(403, 'Only a superadmin may change the role of an administrator');
      }
      await app.db
        .update(users)
        .set(roleColumns(role as Role))
        .where(eq(users.id, target.id));
      await files.write();
      return {
        accepted: true,
        message: 'User role changed successfully!!',
        newDetails: { userRole: role, permissions: {} },
      };
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
        description:
          '`file` (default `accounting`) names `<file>.json`: accounting, authorization and groups as the database holds them now, or another file of the settings folder; administrators.',
        response: {
          200: {
            description: 'The file as an attachment',
            content: { 'application/json': { schema: { type: 'object', description: 'the settings file as stored' } } },
          },
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
        const file = await files.open(`${name}.json`);
        reply
          .header('access-control-allow-origin', '*')
          .header('content-disposition', `attachment; filename=${name}.json`)
          .type(mime.lookup(`${name}.json`) || 'application/octet-stream');
        if ('text' in file) return reply.header('content-length', Buffer.byteLength(file.text)).send(file.text);
        const { size } = await stat(file.path);
        return reply.header('content-length', size).send(createReadStream(file.path, { highWaterMark: 4096 }));
      } catch (err) {
        return sendFailure(reply, err);
      }
    },
  );
}

import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import { endLogins } from '../auth/logins.js';
import { liveAccountWith } from '../auth/accounts.js';
import { hasNul } from '../jsonapi/index.js';
import { AssistantError } from './identity.js';
import { flag, flags } from './flags.js';
import { assistantRoute, params } from './route.js';
import type { SettingsFiles } from './settings-files.js';

/** Users per page of getUsers.json, as the reference. */
export const USERS_PER_PAGE = 50;
/** A search answers at most this many users (the reference answered every match). */
const SEARCH_MAX = 500;

/**
 * Deletes an account as DELETE /v1/users/{id} does: the record stays with `deleted-at` set (the address
 * and every token stop working), and its logins end.
 */
export async function deleteAccount(app: FastifyInstance, userId: number) {
  await app.db.transaction(async (tx) => {
    await endLogins(tx, { userId }, 'deleted');
    await tx
      .update(users)
      .set({ deletedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  });
}

/** A MAC address as the reference accepts it (`aa:bb:cc:dd:ee:ff` or with `-`). */
export const MAC = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;

const roleSql = sql<string>`case when ${users.isSuperAdmin} then 'superadmin' when ${users.isAdmin} then 'admin' else ${users.assistantRole} end`;
const month = (column: typeof users.createdAt | typeof users.lastLoginAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM')`;

/**
 * The administrators' account endpoints of the reference: the user list with its counts and statistics,
 * deleting an account, and renaming or moving a user's device.
 */
export async function accountAdminRoutes(app: FastifyInstance, { files }: { files: SettingsFiles }) {
  assistantRoute(
    app,
    {
      url: '/aaa/getUsers.json',
      method: ['GET', 'POST'],
      operationId: 'getUsers',
      params: {
        ...params({
          page: `page of ${USERS_PER_PAGE} users, from 1`,
          search: `part of the e-mail: answers the matching users (at most ${SEARCH_MAX})`,
        }),
        ...flags({
          getPageCount: 'true: answers `pageCount`',
          getUserCount: 'true: answers `userCount`',
          getUserStats: 'true: answers `userStats`, `lastLoginOverTime` and `signupOverTime`',
          getDeviceStats: 'true: answers `deviceStats`',
        }),
      },
      failures: [400, 401],
      summary: 'List the users (operators)',
      description:
        "The reference's admin user list: `page` answers `users` (each `{type, name, userRole, confirmed, lastLoginIP, signupTime, " +
        'lastLoginTime, devices, userName}`; `lastLoginIP` is always empty: this service keeps no addresses of logins) and `username` ' +
        '(`email:<address>` of the page); `search`, `getPageCount`, `getUserCount`, `getUserStats` and `getDeviceStats` answer as ' +
        "their descriptions say. Without any of them: `userCount` (susi_skill_cms's user list asks so; the reference answered 400). Role operator.",
      minimal: 'operator',
    },
    async ({ params: p }) => {
      const live = isNull(users.deletedAt);
      const total = async () => (await app.db.select({ n: count() }).from(users).where(live))[0]!.n;
      if (flag(p.getPageCount)) {
        return {
          accepted: true,
          pageCount: Math.ceil((await total()) / USERS_PER_PAGE),
          message: 'Success: Fetched count of pages',
        };
      }
      // susi_skill_cms's user list asks with no parameter and reads `userCount` (the reference's 400 left its list empty).
      // As in the reference, `getUserCount` and `getDeviceStats` count here when given at all, whatever their value.
      const none =
        !flag(p.getUserStats) &&
        p.search === undefined &&
        p.page === undefined &&
        p.getUserCount === undefined &&
        p.getDeviceStats === undefined;
      if (flag(p.getUserCount) || none)
        return { accepted: true, userCount: await total(), message: 'Success: Fetched count of users' };
      if (flag(p.getUserStats)) {
        const [stats] = await app.db
          .select({
            users: sql<number>`count(*) filter (where ${roleSql} = 'user')::int`,
            reviewers: sql<number>`count(*) filter (where ${roleSql} = 'reviewer')::int`,
            operators: sql<number>`count(*) filter (where ${roleSql} = 'operator')::int`,
            admins: sql<number>`count(*) filter (where ${roleSql} = 'admin')::int`,
            superAdmins: sql<number>`count(*) filter (where ${roleSql} = 'superadmin')::int`,
            activeUsers: sql<number>`count(*) filter (where ${users.isVerified})::int`,
            inactiveUsers: sql<number>`count(*) filter (where not ${users.isVerified})::int`,
            totalUsers: sql<number>`count(*)::int`,
          })
          .from(users)
          .where(live);
        const overTime = (column: typeof users.createdAt | typeof users.lastLoginAt) =>
          app.db
            .select({ timeStamp: month(column), count: sql<number>`count(*)::int` })
            .from(users)
            .where(and(live, sql`${column} is not null`))
            .groupBy(month(column))
            .orderBy(month(column));
        return {
          accepted: true,
          lastLoginOverTime: await overTime(users.lastLoginAt),
          signupOverTime: await overTime(users.createdAt),
          userStats: { anonymous: 0, ...stats },
          message: 'Success: Fetched all users stats!',
        };
      }
      if (p.search !== undefined) {
        if (hasNul(p.search)) throw new AssistantError(400, 'Bad search term');
        const found = await userRows(
          app,
          sql`position(lower(${p.search}) in lower(${users.email})) > 0`,
          SEARCH_MAX,
          0,
        );
        return { accepted: true, users: found, message: `Success: Fetched all users with ${p.search} !` };
      }
      if (flag(p.getDeviceStats)) {
        const [counts] = await app.db.execute<{ connectedDevices: number; deviceUsers: number }>(sql`
          select (select count(*) from ${users}, jsonb_each(${users.assistantDevices}) where ${users.deletedAt} is null)::int as "connectedDevices",
                 count(*) filter (where ${users.assistantDevices} <> '{}'::jsonb)::int as "deviceUsers"
          from ${users} where ${users.deletedAt} is null`);
        const added = await app.db.execute<{ timeStamp: string; count: number }>(sql`
          select left(d.value->>'deviceAddTime', 7) as "timeStamp", count(*)::int as count
          from ${users}, jsonb_each(${users.assistantDevices}) d
          where ${users.deletedAt} is null and d.value->>'deviceAddTime' is not null
          group by 1 order by 1`);
        return {
          accepted: true,
          deviceStats: { ...counts, deviceAddedOverTime: [...added] },
          message: 'Success: Fetched all device stats!',
        };
      }
      const page = /^\d{1,6}$/.test(p.page ?? '') ? Number(p.page) : 0;
      if (page < 1) throw new AssistantError(400, 'The page must be a whole number from 1');
      const list = await userRows(app, undefined, USERS_PER_PAGE, (page - 1) * USERS_PER_PAGE);
      return {
        accepted: true,
        users: list,
        username: list.map((u) => `email:${u.name}`),
        message: 'Success: Fetched all Users with their User Roles and connected devices!',
      };
    },
  );

  const deleteUserAccount = (url: string, operationId: string) =>
    assistantRoute(
      app,
      {
        url,
        method: ['GET', 'POST'],
        operationId,
        params: params({ email: 'e-mail of the account to delete' }),
        failures: [400, 401, 403, 404],
        failureDescriptions: {
          403: "Only a superadmin deletes an administrator's account",
          404: 'No account has this e-mail (the reference answered success)',
        },
        summary: "Delete a user's account (administrators)",
        description:
          '`email` names the account; it is deleted as DELETE /v1/users/{id} does (kept with deleted-at, its tokens end). ' +
          'Only a superadmin deletes an administrator. The path without `.json` is the one susi_skill_cms and accounts.susi.ai ' +
          'call; the reference served only `.json`. Role admin.',
        minimal: 'admin',
      },
      async ({ identity, params: p }) => {
        if (!p.email) throw new AssistantError(400, 'Bad service call, missing arguments');
        if (hasNul(p.email)) throw new AssistantError(404, 'Username not found');
        const [target] = await app.db
          .select({ id: users.id, isAdmin: users.isAdmin, isSuperAdmin: users.isSuperAdmin })
          .from(users)
          .where(liveAccountWith(p.email.trim()));
        if (!target) throw new AssistantError(404, 'Username not found');
        if ((target.isAdmin || target.isSuperAdmin) && identity.role !== 'superadmin') {
          throw new AssistantError(403, 'Only a superadmin may delete the account of an administrator');
        }
        await deleteAccount(app, target.id);
        await files.write();
        return { accepted: true, message: 'Successfully deleted user account!' };
      },
    );
  deleteUserAccount('/aaa/deleteUserAccount.json', 'deleteUserAccount');
  deleteUserAccount('/aaa/deleteUserAccount', 'deleteUserAccountNoSuffix');

  assistantRoute(
    app,
    {
      url: '/aaa/modifyUserDevices.json',
      method: ['GET', 'POST'],
      operationId: 'modifyUserDevices',
      params: params({
        email: 'e-mail of the account',
        macid: "the device's MAC address",
        name: 'its new name',
        room: 'its new room',
      }),
      failures: [400, 401, 404],
      failureDescriptions: { 404: 'No account has this e-mail, or it has no device with this `macid`' },
      summary: "Rename or move a user's device (administrators)",
      description: '`email`, `macid` and `name` or `room` (or both) change one device of the account. Role admin.',
      minimal: 'admin',
    },
    async ({ params: p }) => {
      if (!p.email || !p.macid || (p.name === undefined && p.room === undefined))
        throw new AssistantError(400, 'Bad service call, missing arguments');
      if ([p.email, p.macid, p.name, p.room].some((v) => v !== undefined && hasNul(v)))
        throw new AssistantError(400, 'Bad service call, bad arguments');
      const [target] = await app.db
        .select({ id: users.id, devices: users.assistantDevices })
        .from(users)
        .where(liveAccountWith(p.email.trim()));
      if (!target) throw new AssistantError(404, 'Username not found');
      if (!Object.hasOwn(target.devices, p.macid)) throw new AssistantError(404, 'Specified device does not exist.');
      const change = {
        ...(p.name !== undefined ? { name: p.name } : {}),
        ...(p.room !== undefined ? { room: p.room } : {}),
      };
      const updated = await app.db
        .update(users)
        .set({
          assistantDevices: sql`jsonb_set(${users.assistantDevices}, array[${p.macid}]::text[], (${users.assistantDevices} -> ${p.macid}) || ${JSON.stringify(change)}::jsonb)`,
        })
        .where(and(eq(users.id, target.id), sql`${users.assistantDevices} ? ${p.macid}`))
        .returning({ id: users.id });
      if (updated.length === 0) throw new AssistantError(404, 'Specified device does not exist.');
      return { accepted: true, message: 'You have successfully modified the device config!' };
    },
  );
}

/** Users as getUsers.json lists them, oldest account first. */
async function userRows(
  app: FastifyInstance,
  where: ReturnType<typeof sql> | undefined,
  limit: number,
  offset: number,
) {
  const rows = await app.db
    .select({
      email: users.email,
      role: roleSql,
      confirmed: users.isVerified,
      createdAt: users.createdAt,
      lastLoginAt: users.lastLoginAt,
      devices: users.assistantDevices,
      settings: users.assistantSettings,
    })
    .from(users)
    .where(and(isNull(users.deletedAt), where))
    .orderBy(asc(users.id))
    .limit(limit)
    .offset(offset);
  return rows.map((u) => ({
    type: 'email',
    name: u.email,
    userRole: u.role,
    confirmed: u.confirmed,
    lastLoginIP: '',
    signupTime: u.createdAt.toISOString(),
    lastLoginTime: u.lastLoginAt?.toISOString() ?? '',
    devices: Object.keys(u.devices).length > 0 ? u.devices : '',
    userName: u.settings.userName ?? '',
  }));
}

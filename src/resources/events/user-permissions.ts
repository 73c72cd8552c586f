/**
 * What accounts that have not verified their address may do (the `user_permissions` rows an administrator edits at
 * /v1/user-permissions; the reference's `User.can_create_event` and `can_publish_event`): a verified account may
 * always create and publish events, an unverified one when the row's `unverified-user` says so, and without the row
 * only verified accounts may.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { userPermissions } from '../../../db/schema/index.js';
import { wantsFresh } from '../../../plugins/read-cache.js';
import type { Caller } from '../../auth/caller.js';
import { forbidden, type Ctx } from '../../jsonapi/index.js';

export type UserAction = 'create_event' | 'publish_event';

/** Whether the live row `action` lets an unverified account do it (false without one). */
async function unverifiedMay(ctx: Ctx, action: UserAction): Promise<boolean> {
  const load = async () =>
    (
      await ctx.db
        .select({ unverified: userPermissions.unverifiedUser })
        .from(userPermissions)
        .where(and(eq(userPermissions.name, action), isNull(userPermissions.deletedAt)))
        .limit(1)
    )[0]?.unverified ?? false;
  const memos = ctx.unwritten && !wantsFresh(ctx.request) ? ctx.request.server.readCache : null;
  return memos ? memos.memo(`user permission ${action}`, ['user_permissions'], load) : load();
}

/** Refuses (403) an unverified caller the action when the user permissions do not grant it. */
export async function requireUserPermission(ctx: Ctx, caller: Caller, action: UserAction): Promise<void> {
  if (caller.isVerified || (await unverifiedMay(ctx, action))) return;
  throw forbidden(
    action === 'create_event' ? 'Please verify your email' : 'Only verified accounts can publish events',
    action === 'publish_event' ? '/data/attributes/state' : undefined,
  );
}

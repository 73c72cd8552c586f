import { eq, or, sql, type SQL } from 'drizzle-orm';
import { groups, userFollowGroups } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import {
  defineResource,
  forbidden,
  integerId,
  type Columns,
  type Ctx,
  type Policy,
  type Row,
} from '../../jsonapi/index.js';
import { createdAt } from '../attributes.js';

/** The follower themself or an administrator (`groupOwner`: also the owner of the group). */
async function followerOrStaff(ctx: Ctx, row: Row, groupOwner = false) {
  const caller = loggedIn(ctx);
  if (row.userId === caller.id || isStaff(caller)) return;
  if (groupOwner) {
    const [group] = await ctx.db
      .select({ owner: groups.userId })
      .from(groups)
      .where(eq(groups.id, row.groupId as number))
      .limit(1);
    if (group?.owner === caller.id) return;
  }
  throw forbidden('Only the follower or an administrator may do this');
}

/** Moves the group's follower count with a follow or an unfollow, in the write's transaction. */
async function countFollowers(ctx: Ctx, groupId: unknown, by: 1 | -1) {
  await ctx.db
    .update(groups)
    .set({ followerCount: sql`greatest(0, ${groups.followerCount} + ${by})` })
    .where(eq(groups.id, groupId as number));
}

/**
 * Who follows whom is seen by the follower, the owner of the group and administrators only: others
 * learn the group's follower-count, never who the followers are.
 */
function seenBy(ctx: Ctx, t: Columns): SQL | undefined {
  if (isStaff(ctx.caller)) return undefined;
  if (!ctx.caller) return sql`false`;
  const owned = sql`${t.groupId} in (select ${groups.id} from ${groups} where ${groups.userId} = ${ctx.caller.id})`;
  return or(eq(t.userId!, ctx.caller.id), owned);
}

const userFollowGroupPolicy: Policy = {
  scope: seenBy,
  existsFor: seenBy,
  list() {},
  read() {},
  create(ctx, input) {
    const caller = loggedIn(ctx);
    const user = input.relationships.user;
    if (typeof user === 'string' && integerId(user) !== caller.id)
      throw forbidden('Users follow groups only for themselves', '/data/relationships/user');
  },
  update: (ctx, row) => followerOrStaff(ctx, row),
  delete: (ctx, row) => followerOrStaff(ctx, row, true),
};

export const userFollowGroupResource = defineResource({
  type: 'user-follow-group',
  path: 'user-follow-groups',
  name: 'UserFollowGroup',
  tag: 'Groups',
  description:
    'A signed-in user following a group (once per group, a second follow is 409): created by the user for themself, ' +
    'deleted to unfollow (by the follower, the owner of the group or an administrator). Seen by the follower, the ' +
    "group's owner and administrators.",
  table: userFollowGroups,
  attributes: { 'created-at': createdAt },
  relationships: {
    group: {
      kind: 'toOne',
      type: 'group',
      column: 'groupId',
      required: true,
      immutable: true,
      description: 'the group followed',
    },
    user: {
      kind: 'toOne',
      type: 'user',
      column: 'userId',
      immutable: true,
      description: 'the follower: the caller (the default), never another user',
    },
  },
  policy: userFollowGroupPolicy,
  hooks: {
    beforeCreate(ctx, values) {
      values.userId = loggedIn(ctx).id;
    },
    afterCreate: (ctx, row) => countFollowers(ctx, row.groupId, 1),
    beforeDelete: (ctx, row) => countFollowers(ctx, row.groupId, -1),
  },
  unique: {
    user_follow_groups_group_user_key: {
      pointer: '/data/relationships/group',
      detail: 'You already follow this group',
    },
  },
});

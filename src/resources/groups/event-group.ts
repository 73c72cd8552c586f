import { eq } from 'drizzle-orm';
import { groups } from '../../../db/schema/index.js';
import { isStaff } from '../../auth/caller.js';
import { forbidden, integerId, type Ctx, type Row, type WriteInput } from '../../jsonapi/index.js';
import { requireRole } from '../events/access.js';

/**
 * An event's `group` changes only by the hand of the event's owner, and only into a group the caller
 * owns (administrators may do both). The front end sends the group back on every event save: the
 * current value is harmless.
 */
export async function guardGroupChange(ctx: Ctx, row: Row, input: WriteInput) {
  const named = input.relationships.group;
  if (named === undefined) return;
  const wanted = named === null ? null : (integerId(named) ?? named);
  if (wanted === row.groupId) return;
  await requireRole(ctx, row.id as number, 'owner');
  if (wanted === null || isStaff(ctx.caller) || typeof wanted !== 'number') return;
  const [group] = await ctx.db.select({ owner: groups.userId }).from(groups).where(eq(groups.id, wanted)).limit(1);
  if (group && group.owner !== ctx.caller!.id)
    throw forbidden('Events join only groups their owner owns', '/data/relationships/group');
}

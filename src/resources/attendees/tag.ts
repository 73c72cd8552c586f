import { and, eq, isNull } from 'drizzle-orm';
import { tags } from '../../../db/schema/index.js';
import { unprocessable, type Ctx } from '../../jsonapi/index.js';

/**
 * A holder's tag (`tag-id`, or the `tag` relationship: one column without a foreign key) must be a live tag of the
 * holder's event.
 */
export async function checkTag(ctx: Ctx, eventId: unknown, values: Record<string, unknown>) {
  const tagId = values.tagId;
  if (tagId === undefined || tagId === null) return;
  const [tag] = await ctx.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.id, Number(tagId)), eq(tags.eventId, Number(eventId)), isNull(tags.deletedAt)))
    .limit(1);
  if (!tag) throw unprocessable("tag-id must name a tag of the ticket holder's event", '/data/attributes/tag-id');
}

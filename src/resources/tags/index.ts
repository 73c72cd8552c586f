import { Type } from '@sinclair/typebox';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { attendees, tags } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { conflict, defineResource, Nullable, type Ctx, type Row } from '../../jsonapi/index.js';
import { deletedAt, eventOf, flexibleBoolean, requiredText } from '../attributes.js';
import { inManagedEvent, inVisibleEvent, requireRole } from '../events/access.js';
import { eventRecordPolicy } from '../events/record-policy.js';

const records = eventRecordPolicy();

/** A live tag of the event by that name, other than `except`. */
async function nameTaken(ctx: Ctx, eventId: number, name: string, except?: number) {
  const [row] = await ctx.db
    .select({ id: tags.id })
    .from(tags)
    .where(
      and(
        eq(tags.eventId, eventId),
        eq(tags.name, name),
        isNull(tags.deletedAt),
        except === undefined ? undefined : ne(tags.id, except),
      ),
    )
    .limit(1);
  return !!row;
}

const taken = () => conflict('The event already has a tag with this name', '/data/attributes/name');

/**
 * Attendee tags (the reference's app/api/tags.py): an event's labels for its ticket holders, a name and a colour.
 * They are the organizers' working notes on people, so only the event's organizers and coorganizers see them.
 */
export const tagResource = defineResource({
  type: 'tag',
  path: 'tags',
  name: 'Tag',
  tag: 'Tags',
  description:
    "A label the event's organizers put on its ticket holders (an attendee's tag), with a colour. The event's " +
    'organizers, coorganizers and administrators read and write them (403 for others). A name is used once per ' +
    'event (409); a read-only tag keeps its name (409). Deleting a tag takes it off its ticket holders.',
  table: tags,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    color: {
      column: 'color',
      schema: Nullable(Type.String({ maxLength: 32, description: 'a CSS colour, e.g. #FF0000' })),
    },
    'is-read-only': flexibleBoolean('isReadOnly', 'a built-in tag whose name does not change (default false)', false),
    'deleted-at': deletedAt,
  },
  relationships: { event: eventOf },
  policy: {
    ...records,
    scope: (ctx, t) => and(inVisibleEvent(ctx, t.eventId!), inManagedEvent(ctx.caller, t.eventId!)),
    list: loggedIn,
    read: (ctx, row: Row) => requireRole(ctx, row.eventId as number, 'coorganizer'),
  },
  hooks: {
    async beforeCreate(ctx, values) {
      if (await nameTaken(ctx, values.eventId as number, values.name as string)) throw taken();
    },
    async beforeUpdate(ctx, row, values) {
      if (row.isReadOnly && values.isReadOnly === false)
        throw conflict('A read-only tag stays read-only', '/data/attributes/is-read-only');
      if (values.name === undefined || values.name === row.name) return;
      if (row.isReadOnly) throw conflict('A read-only tag keeps its name', '/data/attributes/name');
      if (await nameTaken(ctx, row.eventId as number, values.name as string, row.id as number)) throw taken();
    },
    async beforeDelete(ctx, row) {
      await ctx.db
        .update(attendees)
        .set({ tagId: null })
        .where(eq(attendees.tagId, row.id as number));
    },
  },
});

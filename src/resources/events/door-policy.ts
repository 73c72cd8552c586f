/**
 * The door's records (stations, their head counts, check-ins, badge layouts): the business of those who hold the
 * door right on the event (access.ts: its owner, organizers, coorganizers and registrars), the one thing registrars
 * may write. Everyone else finds nothing (404), as the reference answers a non-organizer naming the event;
 * administrators pass.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { integerId, notFound, type Ctx, type Policy, type Row, type WriteInput } from '../../jsonapi/index.js';
import { inDoorEvent, inLiveEvent, requireDoor } from './access.js';

export { requireDoor };

/** Records (`eventId`) of live events where the caller works at the door (all of them for administrators). */
export function atTheDoor(ctx: Pick<Ctx, 'caller' | 'trashed'>, eventId: PgColumn): SQL | undefined {
  const live = inLiveEvent(ctx, eventId);
  return isStaff(ctx.caller) ? live : and(live, inDoorEvent(ctx.caller, eventId));
}

/** The event of the live parent record a write names (a station, a badge form); 404 when there is none. */
async function eventOfParent(ctx: Ctx, table: PgTable, type: string, named: unknown): Promise<number> {
  const missing = `Related ${type} "${String(named)}" not found`;
  const id = integerId(named);
  if (id === undefined) throw notFound(missing);
  const t = table as unknown as { id: PgColumn; eventId: PgColumn; deletedAt: PgColumn };
  const [row] = await ctx.db
    .select({ eventId: t.eventId })
    .from(table)
    .where(and(eq(t.id, id), sql`${t.deletedAt} is null`))
    .limit(1);
  if (!row) throw notFound(missing);
  await requireDoor(ctx, row.eventId as number, missing);
  return row.eventId as number;
}

/**
 * The door's policy. A record of an event names it on create (`parent` absent); a record under another (a station's
 * head count, a badge form's field) names that parent, whose event becomes its own (`event`, read-only).
 */
export function doorPolicy(parent?: { name: string; type: string; table: PgTable }): Policy {
  const check = async (ctx: Ctx, input: WriteInput, row?: Row) => {
    if (!parent) return;
    const named = input.relationships[parent.name];
    if (named === undefined || named === null) return;
    const eventId = await eventOfParent(ctx, parent.table, parent.type, named);
    if (row) {
      if (eventId !== row.eventId) throw notFound(`Related ${parent.type} "${String(named)}" not found`);
    } else input.relationships.event = String(eventId);
  };
  return {
    scope: (ctx, t) => atTheDoor(ctx, t.eventId!),
    existsFor: (ctx, t) => atTheDoor(ctx, t.eventId!),
    list: loggedIn,
    read() {},
    async create(ctx, input) {
      loggedIn(ctx);
      if (parent) return check(ctx, input);
      const named = input.relationships.event;
      const eventId = integerId(named);
      if (eventId === undefined) throw notFound(`Related event "${String(named)}" not found`);
      await requireDoor(ctx, eventId, `Related event "${String(named)}" not found`);
    },
    async update(ctx, row, input) {
      await requireDoor(ctx, row.eventId as number);
      await check(ctx, input, row);
    },
    delete: (ctx, row) => requireDoor(ctx, row.eventId as number),
  };
}

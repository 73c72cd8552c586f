import { sql } from 'drizzle-orm';
import { loggedIn } from '../../auth/caller.js';
import type { Ctx, Policy, Row } from '../../jsonapi/index.js';
import { inVisibleEvent, namedEvent, requireRole } from './access.js';

/**
 * The policy of a record that belongs to an event (column `eventId`, relationship `event`): readable
 * where its event is, written by the event's organizers and coorganizers (and administrators).
 */
export function eventRecordPolicy(options: { readersMustLogIn?: boolean } = {}): Policy {
  const mayRead = (ctx: Ctx) => {
    if (options.readersMustLogIn) loggedIn(ctx);
  };
  return {
    scope: (ctx, t) => (options.readersMustLogIn && !ctx.caller ? sql`false` : inVisibleEvent(ctx, t.eventId!)),
    existsFor: (ctx, t) => inVisibleEvent(ctx, t.eventId!),
    list: mayRead,
    read: mayRead,
    async create(ctx, input) {
      loggedIn(ctx);
      const named = input.relationships.event;
      await requireRole(ctx, namedEvent(named), 'coorganizer', `Related event "${String(named)}" not found`);
    },
    update: (ctx, row: Row) => requireRole(ctx, row.eventId as number, 'coorganizer'),
    delete: (ctx, row: Row) => requireRole(ctx, row.eventId as number, 'coorganizer'),
  };
}

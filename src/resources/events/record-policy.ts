import { sql } from 'drizzle-orm';
import { loggedIn } from '../../auth/caller.js';
import type { Ctx, Policy, Row } from '../../jsonapi/index.js';
import { inVisibleEvent, namedEvent, requireRole } from './access.js';
import { requireService, type Operation, type Service } from './service-rights.js';

/**
 * The policy of a record that belongs to an event (column `eventId`, relationship `event`): readable
 * where its event is, written by the event's organizers and coorganizers (and administrators); with
 * `service`, written by the roles the event role permissions grant it (service-rights.ts).
 */
export function eventRecordPolicy(options: { readersMustLogIn?: boolean; service?: Service } = {}): Policy {
  const { service } = options;
  const mayRead = (ctx: Ctx) => {
    if (options.readersMustLogIn) loggedIn(ctx);
  };
  const mayWrite = (ctx: Ctx, eventId: number, operation: Operation, missing?: string) =>
    service
      ? requireService(ctx, eventId, service, operation, missing)
      : requireRole(ctx, eventId, 'coorganizer', missing);
  return {
    scope: (ctx, t) => (options.readersMustLogIn && !ctx.caller ? sql`false` : inVisibleEvent(ctx, t.eventId!)),
    existsFor: (ctx, t) => inVisibleEvent(ctx, t.eventId!),
    list: mayRead,
    read: mayRead,
    async create(ctx, input) {
      loggedIn(ctx);
      const named = input.relationships.event;
      await mayWrite(ctx, namedEvent(named), 'create', `Related event "${String(named)}" not found`);
    },
    update: (ctx, row: Row) => mayWrite(ctx, row.eventId as number, 'update'),
    delete: (ctx, row: Row) => mayWrite(ctx, row.eventId as number, 'delete'),
  };
}

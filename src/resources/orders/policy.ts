import { and, eq, or, sql } from 'drizzle-orm';
import { isStaff, loggedIn, requireStaff } from '../../auth/caller.js';
import { forbidden, type Ctx, type Policy } from '../../jsonapi/index.js';
import { holdsRole, inLiveEvent, inManagedEvent, namedEvent, roleIn } from '../events/access.js';

/** Orders the buyer may still change; past these the order is the organizers' to change. */
const OPEN = ['initializing', 'pending'];

const statusByOrganizers = () =>
  forbidden('Only organizers of the event or administrators may set the status', '/data/attributes/status');
const noteByOrganizers = () =>
  forbidden('Only organizers of the event or administrators may write the cancel note', '/data/attributes/cancel-note');

/** The buyer, the event's owner, organizers and coorganizers, and administrators handle an order. */
export async function handlesOrder(ctx: Ctx, order: { userId: number; eventId: number }): Promise<boolean> {
  return order.userId === loggedIn(ctx).id || holdsRole(ctx, order.eventId, 'coorganizer');
}

/**
 * Orders are private: the buyer sees their own, the event's organizers and coorganizers see the
 * event's, administrators see all. Only organizers set the status and the cancel note; the buyer may change an order
 * while it is open; administrators delete.
 */
export const orderPolicy: Policy = {
  scope(ctx, t) {
    if (isStaff(ctx.caller)) return inLiveEvent(ctx, t.eventId!);
    if (!ctx.caller) return sql`false`;
    return and(inLiveEvent(ctx, t.eventId!), or(eq(t.userId!, ctx.caller.id), inManagedEvent(ctx.caller, t.eventId!)));
  },
  // The orders of a deleted event go with it.
  existsFor: (ctx, t) => inLiveEvent(ctx, t.eventId!),
  list: loggedIn,
  async read(ctx, row) {
    if (await handlesOrder(ctx, { userId: row.userId as number, eventId: row.eventId as number })) return;
    throw forbidden('Only the buyer, the organizers of the event or an administrator may see this order');
  },
  async create(ctx, input) {
    loggedIn(ctx);
    const named = input.relationships.event;
    const eventId = namedEvent(named);
    await roleIn(ctx, eventId, `Related event "${String(named)}" not found`);
    // The front end sends its default status, initializing, with every new order.
    const status = input.attributes.status;
    const note = input.attributes['cancel-note'];
    const organizer = () => holdsRole(ctx, eventId, 'coorganizer');
    if (status !== undefined && status !== 'initializing' && !(await organizer())) throw statusByOrganizers();
    if (note !== undefined && note !== null && !(await organizer())) throw noteByOrganizers();
  },
  async update(ctx, row, input) {
    const caller = loggedIn(ctx);
    if (await holdsRole(ctx, row.eventId as number, 'coorganizer')) return;
    if (row.userId !== caller.id)
      throw forbidden('Only the buyer, the organizers of the event or an administrator may change this order');
    // ember-data sends the status it read back with every save.
    if (input.attributes.status !== undefined && input.attributes.status !== row.status) throw statusByOrganizers();
    const note = input.attributes['cancel-note'];
    if (note !== undefined && note !== row.cancelNote) throw noteByOrganizers();
    if (!OPEN.includes(row.status as string))
      throw forbidden(`The order is ${String(row.status)}; only organizers may change it now`);
  },
  delete: requireStaff,
};

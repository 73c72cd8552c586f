/**
 * Who may do what with discount codes. Ticket codes (used-for ticket) are their event's: its organizers,
 * coorganizers and administrators write and list them. Event codes (used-for event: an administrator's code that
 * lowers the platform's fee of the events it names) are the administrators'. A code's marketer (the user who made
 * it) still sees it. Buyers read one ticket code by its text on the lookup route, while it can be used; anyone else
 * finds nothing (404). The reference let any logged-in user read, update and delete any code by id (its permission
 * checks were commented out or named no event) and answered 422 for permission failures.
 */
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { isStaff, loggedIn, requireStaff } from '../../auth/caller.js';
import {
  conflict,
  constant,
  forbidden,
  unprocessable,
  type Columns,
  type Ctx,
  type Policy,
  type Row,
  type WriteInput,
} from '../../jsonapi/index.js';
import { inLiveEvent, inManagedEvent, namedEvent, requireRole } from '../events/access.js';
import { presentedCode } from '../code-rules.js';
import { checkEvents, checkTickets } from './rules.js';

export const DISCOUNT = 'discount code';

/** Codes that exist for the caller: see the module's comment. */
export function discountCodeVisible(ctx: Ctx, t: Columns): SQL | undefined {
  const live = or(isNull(t.eventId!), inLiveEvent(ctx, t.eventId!) ?? sql`true`);
  if (isStaff(ctx.caller)) return ctx.trashed ? undefined : live;
  const { caller } = ctx;
  const seen = or(
    caller ? and(eq(t.usedFor!, constant('ticket')), inManagedEvent(caller, t.eventId!)) : undefined,
    caller ? sql`${t.marketerId!} = ${caller.id}` : undefined,
    presentedCode(ctx, DISCOUNT, t),
  );
  return and(live, seen ?? sql`false`);
}

/** Writes a stored code: its event's organizers and coorganizers for a ticket code, administrators for an event code. */
async function mayWrite(ctx: Ctx, row: Row) {
  if (row.usedFor === 'event') {
    if (!isStaff(loggedIn(ctx))) throw forbidden('Only administrators change event discount codes');
    return;
  }
  await requireRole(ctx, row.eventId as number, 'coorganizer');
}

const named = (ids: string | null | string[] | undefined) => (Array.isArray(ids) ? ids : []);

/** What a code of `usedFor` may link: a ticket code its event's tickets, an event code the events it lowers. */
function checkLinks(usedFor: unknown, input: WriteInput) {
  if (usedFor === 'event') {
    if (typeof input.relationships.event === 'string')
      throw unprocessable(
        'An event discount code belongs to no event: name the events it applies to',
        '/data/relationships/event',
      );
    if (named(input.relationships.tickets).length > 0)
      throw unprocessable('An event discount code applies to events, not tickets', '/data/relationships/tickets');
  } else if (named(input.relationships.events).length > 0)
    throw unprocessable('Only event discount codes (used-for event) apply to events', '/data/relationships/events');
}

export const discountCodePolicy: Policy = {
  scope: discountCodeVisible,
  existsFor: discountCodeVisible,
  list: (ctx) => requireStaff(ctx),
  listRelated: (ctx) => void loggedIn(ctx),
  read: () => {},
  async create(ctx, input) {
    loggedIn(ctx);
    const usedFor = input.attributes['used-for'] ?? 'ticket';
    checkLinks(usedFor, input);
    if (usedFor === 'event') {
      requireStaff(ctx);
      return;
    }
    const event = input.relationships.event;
    if (typeof event !== 'string')
      throw unprocessable('A ticket discount code needs its event', '/data/relationships/event');
    await requireRole(ctx, namedEvent(event), 'coorganizer', `Related event "${event}" not found`);
  },
  async update(ctx, row, input) {
    await mayWrite(ctx, row);
    const usedFor = input.attributes['used-for'];
    if (usedFor !== undefined && usedFor !== row.usedFor)
      throw conflict('The use of a discount code (used-for) cannot change', '/data/attributes/used-for');
    checkLinks(row.usedFor, input);
    // A change of the tickets alone (the relationship routes); a write with attributes is checked by the hooks.
    // Removing links breaks no rule: the events or tickets removed are the ones this code does not hold after it.
    if (input.change === 'remove') return;
    if (row.usedFor === 'event' && Object.keys(input.attributes).length === 0)
      await checkEvents(ctx, input, row.id as number);
    if (row.usedFor === 'ticket' && Object.keys(input.attributes).length === 0 && input.relationships.tickets)
      await checkTickets(
        ctx,
        { eventId: row.eventId, type: row.type, value: row.value },
        named(input.relationships.tickets),
      );
  },
  delete: mayWrite,
};

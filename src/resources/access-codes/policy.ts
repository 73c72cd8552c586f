/**
 * Who may do what with access codes: its event's organizers, coorganizers and administrators write and list them;
 * a code's marketer (its creator) still sees it; a buyer reads one by its text on the lookup route while it can be
 * used, and with it the hidden tickets it shows (see `unlockedTickets`); anyone else finds nothing (404). The
 * reference let any logged-in user read every code's relationships and list them unchecked.
 */
import { and, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { accessCodes, accessCodesTickets, tickets } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { integerId, unprocessable, type Columns, type Ctx, type Policy } from '../../jsonapi/index.js';
import { presentedCode, presentedText } from '../code-rules.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { inLiveEvent, inManagedEvent } from '../events/access.js';

export const ACCESS = 'access code';

export function accessCodeVisible(ctx: Ctx, t: Columns): SQL | undefined {
  const live = inLiveEvent(ctx, t.eventId!);
  if (isStaff(ctx.caller)) return live;
  const { caller } = ctx;
  const seen = or(
    caller ? inManagedEvent(caller, t.eventId!) : undefined,
    caller ? sql`${t.marketerId!} = ${caller.id}` : undefined,
    presentedCode(ctx, ACCESS, t),
  );
  return and(live, seen ?? sql`false`);
}

/** The hidden tickets the access code a request presented shows (ticket columns `t`), if it presented one. */
export function unlockedTickets(ctx: Pick<Ctx, 'request'>, t: Columns): SQL | undefined {
  const named = ctx.request && presentedText(ctx.request, ACCESS);
  if (!named) return undefined;
  return sql`${t.id!} in (select ${accessCodesTickets.ticketId} from ${accessCodesTickets}
    join ${accessCodes} on ${accessCodes.id} = ${accessCodesTickets.accessCodeId}
    where ${accessCodes.eventId} = ${named.eventId} and lower(${accessCodes.code}) = lower(${named.code})
    and ${accessCodes.deletedAt} is null)`;
}

/** An access code shows hidden tickets of its event: others are refused (the reference: 409 for a public one). */
export async function checkAccessTickets(ctx: Ctx, eventId: unknown, ids: unknown[]) {
  const wanted = ids.map((id) => (typeof id === 'number' ? id : integerId(id))).filter((id) => id !== undefined);
  if (wanted.length === 0) return;
  const rows = await ctx.db
    .select({ id: tickets.id, eventId: tickets.eventId, isHidden: tickets.isHidden })
    .from(tickets)
    .where(and(inArray(tickets.id, wanted as number[]), isNull(tickets.deletedAt)));
  for (const ticket of rows) {
    if (ticket.eventId !== eventId)
      throw unprocessable(
        `Ticket ${ticket.id} is not a ticket of the access code's event`,
        '/data/relationships/tickets',
      );
    if (!ticket.isHidden)
      throw unprocessable(
        `Ticket ${ticket.id} is public: an access code shows hidden tickets only`,
        '/data/relationships/tickets',
      );
  }
}

const records = eventRecordPolicy();

export const accessCodePolicy: Policy = {
  ...records,
  scope: accessCodeVisible,
  existsFor: accessCodeVisible,
  list: (ctx) => void loggedIn(ctx),
  read: () => {},
  async update(ctx, row, input) {
    await records.update(ctx, row, input);
    // A change of the tickets alone (the relationship routes); a write with attributes is checked by the hooks.
    const sent = input.relationships.tickets;
    if (input.change !== 'remove' && Object.keys(input.attributes).length === 0 && Array.isArray(sent))
      await checkAccessTickets(ctx, row.eventId, sent);
  },
};

import { sql } from 'drizzle-orm';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { forbidden, type Ctx, type Policy, type Row, type WriteInput } from '../../jsonapi/index.js';
import { inManagedEvent, namedEvent, roleIn } from '../events/access.js';
import { mayDo } from '../events/service-rights.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { checkSubmittedSessions, keepOrganizerMembers, namesCaller, requireOpenSubmissions } from '../submissions.js';

const records = eventRecordPolicy({ service: 'speaker' });

/** What only the event's organizers set on a speaker: featuring, order, the mail override. */
const ORGANIZER_MEMBERS = {
  attributes: {
    'is-featured': { column: 'isFeatured', initial: false },
    order: { column: 'order', initial: 0, nullIs: 0 },
    'is-email-overridden': { column: 'isEmailOverridden', initial: false },
  },
};

/** A submitter's speaker carries their own address (or none), as the reference fills it in. */
function ownAddress(ctx: Ctx, input: WriteInput, row?: Row) {
  const sent = input.attributes.email;
  if (sent === undefined || sent === null) return;
  const address = (sent as string).trim().toLowerCase();
  const stored = typeof row?.email === 'string' ? row.email.toLowerCase() : undefined;
  if (address !== loggedIn(ctx).email.toLowerCase() && address !== stored)
    throw forbidden("A speaker you submit carries your own account's email address", '/data/attributes/email');
}

/**
 * Speakers follow the event-record rules, and a signed-in user may also submit themself as a speaker
 * of a visible event (the call for speakers) and edit that speaker afterwards: its user is the caller,
 * its email the caller's, its sessions ones the caller created, and featuring, order and the email
 * override stay the organizers'.
 */
export const speakerPolicy: Policy = {
  ...records,
  seesPrivate: (ctx, t) =>
    isStaff(ctx.caller) || !ctx.caller
      ? inManagedEvent(ctx.caller, t.eventId!)
      : sql`(${t.userId} = ${ctx.caller.id} or ${inManagedEvent(ctx.caller, t.eventId!)})`,
  async create(ctx, input) {
    loggedIn(ctx);
    const named = input.relationships.event;
    const eventId = namedEvent(named);
    await roleIn(ctx, eventId, `Related event "${String(named)}" not found`);
    if (await mayDo(ctx, eventId, 'speaker', 'create')) return;
    await requireOpenSubmissions(ctx, eventId);
    namesCaller(ctx, input, 'user');
    ownAddress(ctx, input);
    keepOrganizerMembers(input, ORGANIZER_MEMBERS);
    await checkSubmittedSessions(ctx, input);
  },
  async update(ctx, row, input) {
    const caller = loggedIn(ctx);
    if ((await mayDo(ctx, row.eventId as number, 'speaker', 'update')) || row.userId !== caller.id)
      return records.update(ctx, row, input);
    namesCaller(ctx, input, 'user');
    ownAddress(ctx, input, row);
    keepOrganizerMembers(input, ORGANIZER_MEMBERS, row);
    await checkSubmittedSessions(ctx, input, row);
  },
};

/** A submitter's speaker is theirs even when the form leaves its user out. */
export async function submitterIsUser(ctx: Ctx, values: Record<string, unknown>) {
  if (values.userId !== undefined) return;
  if (!(await mayDo(ctx, values.eventId as number, 'speaker', 'create'))) values.userId = loggedIn(ctx).id;
}

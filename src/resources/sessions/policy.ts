import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { speakerInvites, speakers, speakersSessions } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import {
  constant,
  forbidden,
  unprocessable,
  type Columns,
  type Ctx,
  type Policy,
  type Row,
  type WriteInput,
} from '../../jsonapi/index.js';
import { inManagedEvent, inVisibleEvent, namedEvent, roleIn } from '../events/access.js';
import { mayDo } from '../events/service-rights.js';
import { eventRecordPolicy } from '../events/record-policy.js';
import { provenAddress, spokenSessions } from '../speaker-invites/access.js';
import { checkSubmittedSpeakers, keepOrganizerMembers, requireOpenSubmissions } from '../submissions.js';
import { ORGANIZER_MOVES, PUBLIC_STATES, SPEAKER_MOVES, type SessionState } from './states.js';

/** The caller is the user of one of the session's speakers (or, with `creator`, created the session). */
async function speaksAt(ctx: Ctx, row: Row, creator: boolean): Promise<boolean> {
  const caller = loggedIn(ctx);
  if (creator && row.creatorId === caller.id) return true;
  const [found] = await ctx.db
    .select({ one: sql`1` })
    .from(speakersSessions)
    .innerJoin(speakers, eq(speakers.id, speakersSessions.speakerId))
    .where(
      and(eq(speakersSessions.sessionId, row.id as number), eq(speakers.userId, caller.id), isNull(speakers.deletedAt)),
    )
    .limit(1);
  return !!found;
}

/**
 * Refuses a move the caller may not make: `organizer` and `speaker` say which tables apply (an
 * organizer may also speak at the session, and then withdraw it).
 */
function checkMove(from: SessionState, to: SessionState | undefined, organizer: boolean, speaker: boolean) {
  if (to === undefined || to === from) return;
  const byOrganizers = ORGANIZER_MOVES[from].includes(to);
  const bySpeakers = SPEAKER_MOVES[from].includes(to);
  if ((organizer && byOrganizers) || (speaker && bySpeakers)) return;
  if (byOrganizers || bySpeakers)
    throw forbidden(
      `Only ${byOrganizers ? 'organizers' : "the session's speakers"} may move a session from ${from} to ${to}`,
    );
  throw unprocessable(`A session cannot move from ${from} to ${to}`, '/data/attributes/state');
}

const records = eventRecordPolicy({ service: 'session' });

/**
 * Sessions (columns `t`) that exist for the caller: those of visible events that are accepted or
 * confirmed, that the caller created or speaks at, or whose event the caller manages (all for staff).
 * A condition, not a check per row, so lists, counts, includes and linkage all follow it.
 */
function sessionVisible(ctx: Ctx, t: Columns): SQL | undefined {
  const { caller } = ctx;
  const event = inVisibleEvent(ctx, t.eventId!);
  if (isStaff(caller)) return event;
  // The other states are the business of the event's staff and the session's own people.
  const publicState = inArray(t.state!, PUBLIC_STATES.map(constant));
  if (!caller) return and(event, publicState);
  // The reference shows a session to those invited to speak at it while the invite is pending (app/api/sessions.py),
  // here once they have verified the invited address.
  const invitedAddress = provenAddress(speakerInvites.email, caller);
  const invited =
    invitedAddress &&
    ctx.db
      .select({ id: speakerInvites.sessionId })
      .from(speakerInvites)
      .where(and(eq(speakerInvites.status, constant('pending')), invitedAddress));
  return and(
    event,
    or(
      publicState,
      eq(t.creatorId!, caller.id),
      sql`${t.id} in ${spokenSessions(caller)}`,
      invited && inArray(t.id!, invited),
      inManagedEvent(caller, t.eventId!),
    ),
  );
}

/** What only the event's organizers set on a session: its schedule, its room, the lock and the mail flag. */
const ORGANIZER_MEMBERS = {
  attributes: {
    'is-locked': { column: 'isLocked', initial: false },
    'is-mail-sent': { column: 'isMailSent', initial: false },
    'starts-at': { column: 'startsAt', initial: null },
    'ends-at': { column: 'endsAt', initial: null },
  },
  relationships: { microlocation: { column: 'microlocationId', initial: null } },
};

/**
 * Sessions follow the event-record rules, except that sessions in other states than accepted and
 * confirmed are hidden from everyone but their event's staff, creator and speakers; that a signed-in
 * user may submit a session to a visible event (the call for speakers) as its creator, with their own
 * speakers; and that the session's speakers and creator may edit it, except what only organizers set
 * (schedule, room, is-locked, is-mail-sent), and move its state along the speaker moves of the
 * transition table, until organizers lock it.
 */
export const sessionPolicy: Policy = {
  ...records,
  scope: sessionVisible,
  existsFor: sessionVisible,
  async update(ctx, row, input: WriteInput) {
    loggedIn(ctx);
    const to = (input.attributes.state ?? undefined) as SessionState | undefined;
    const from = row.state as SessionState;
    if (await mayDo(ctx, row.eventId as number, 'session', 'update')) {
      // Organizers create every session, so being its creator makes no organizer a speaker of it.
      const organizerMove = to === undefined || to === from || ORGANIZER_MOVES[from].includes(to);
      return checkMove(from, to, true, !organizerMove && (await speaksAt(ctx, row, false)));
    }
    if (!(await speaksAt(ctx, row, true))) return records.update(ctx, row, input);
    if (row.isLocked) throw forbidden('Locked sessions cannot be edited', '/data/attributes/is-locked');
    keepOrganizerMembers(input, ORGANIZER_MEMBERS, row);
    await checkSubmittedSpeakers(ctx, input, row);
    checkMove(from, to, false, true);
  },
  async create(ctx, input) {
    loggedIn(ctx);
    const named = input.relationships.event;
    const eventId = namedEvent(named);
    await roleIn(ctx, eventId, `Related event "${String(named)}" not found`);
    const state = (input.attributes.state ?? 'draft') as SessionState;
    if (await mayDo(ctx, eventId, 'session', 'create')) {
      if (state !== 'draft' && !ORGANIZER_MOVES.draft.includes(state))
        throw unprocessable(`A session cannot start in ${state}`, '/data/attributes/state');
      return;
    }
    // A submission: the caller's own session, in draft or submitted for review, to an event that takes them.
    await requireOpenSubmissions(ctx, eventId);
    if (state !== 'draft' && !SPEAKER_MOVES.draft.includes(state))
      throw forbidden(`Only organizers may create a session in ${state}`, '/data/attributes/state');
    keepOrganizerMembers(input, ORGANIZER_MEMBERS);
    await checkSubmittedSpeakers(ctx, input);
  },
};

import { and, eq, or, sql } from 'drizzle-orm';
import { sessions, speakers, speakersSessions, speakerInvites } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import {
  DateTime,
  Email,
  Nullable,
  conflict,
  defineResource,
  forbidden,
  integerId,
  notFound,
  unprocessable,
  type Columns,
  type Ctx,
  type Policy,
  type Row,
  type WriteInput,
} from '../../jsonapi/index.js';
import { choice, eventOf } from '../attributes.js';
import { inManagedEvent } from '../events/access.js';
import { sessionPolicy } from '../sessions/policy.js';
import { provenAddress, sameAddress, speaksForSession, spokenSessions } from './access.js';

export const INVITE_STATES = ['pending', 'accepted', 'rejected'] as const;

/**
 * Invitations (columns `t`) the caller reads: those to their verified address, those of sessions they speak at,
 * and all of the events they hold a role in (all for staff).
 */
function inviteVisible(ctx: Ctx, t: Columns) {
  const { caller } = ctx;
  if (isStaff(caller)) return undefined;
  if (!caller) return sql`false`;
  return or(
    provenAddress(t.email!, caller),
    sql`${t.sessionId} in ${spokenSessions(caller)}`,
    inManagedEvent(caller, t.eventId!),
  );
}

/** The session a write names, if the caller sees it; else 404. */
async function namedSession(ctx: Ctx, named: unknown) {
  const id = integerId(named);
  const missing = `Related session "${String(named)}" not found`;
  if (id === undefined) throw notFound(missing);
  const [row] = await ctx.db
    .select({ id: sessions.id, eventId: sessions.eventId })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, id),
        sql`${sessions.deletedAt} is null`,
        sessionPolicy.scope(ctx, sessions as unknown as Columns),
      ),
    )
    .limit(1);
  if (!row) throw notFound(missing);
  return row;
}

/** The reference's rules (app/api/speaker_invites.py): a speaker of the session (or its event's staff) invites, once per pending address. */
async function checkCreate(ctx: Ctx, input: WriteInput) {
  const caller = loggedIn(ctx);
  const status = input.attributes.status;
  if (status !== undefined && status !== 'pending')
    throw unprocessable(
      'A speaker invite starts pending; the invitee accepts or rejects it',
      '/data/attributes/status',
    );
  const named = input.relationships.session;
  if (typeof named !== 'string')
    throw unprocessable('A speaker invite names its session', '/data/relationships/session');
  const session = await namedSession(ctx, named);
  if (!(await speaksForSession(ctx, caller, session.id, session.eventId)))
    throw forbidden("Only the session's speakers and its event's organizers may invite speakers to it");
  const email = String(input.attributes.email ?? '');
  const [already] = await ctx.db
    .select({ id: speakers.id })
    .from(speakersSessions)
    .innerJoin(speakers, eq(speakers.id, speakersSessions.speakerId))
    .where(
      and(
        eq(speakersSessions.sessionId, session.id),
        sql`${speakers.deletedAt} is null`,
        sameAddress(speakers.email, email),
      ),
    )
    .limit(1);
  if (already) throw conflict('The invitee is already a speaker of this session', '/data/attributes/email');
}

const invitePolicy: Policy = {
  scope: inviteVisible,
  // Anonymous callers reach the read check (401); others are told of no record they may not read (404).
  existsFor: (ctx, t) => (ctx.caller ? inviteVisible(ctx, t) : undefined),
  list: loggedIn,
  read(ctx) {
    loggedIn(ctx);
  },
  create: checkCreate,
  update(ctx) {
    loggedIn(ctx);
    throw forbidden(
      'A speaker invite is answered at /v1/speaker-invites/{id}/accept-invite or /reject-invite, never changed',
    );
  },
  async delete(ctx, row: Row) {
    const caller = loggedIn(ctx);
    if (!(await speaksForSession(ctx, caller, row.sessionId as number, row.eventId as number)))
      throw forbidden("Only the session's speakers and its event's organizers may withdraw an invite");
    if (row.status === 'accepted')
      throw conflict('You cannot delete an accepted speaker invite', '/data/attributes/status');
  },
};

export const speakerInviteResource = defineResource({
  type: 'speaker-invite',
  path: 'speaker-invites',
  name: 'SpeakerInvite',
  tag: 'Speaker invites',
  description:
    "An invitation, by address, to become a co-speaker of a session. The session's speakers and its event's " +
    'organizers and coorganizers create it (one pending invite per address and session, 409; never for a current ' +
    'speaker, 409) and withdraw it unless accepted; the invitee gets a mail with the link to answer it. Signed in ' +
    'with the invited, verified address, the invitee accepts (`GET /v1/speaker-invites/{id}/accept-invite`: their ' +
    'speaker record of the event joins the session) or rejects it (`/reject-invite`). Read by the invitee, the ' +
    "session's speakers and the event's organizers and coorganizers.",
  table: speakerInvites,
  attributes: {
    email: {
      column: 'email',
      schema: Email({ description: 'whom to invite; surrounding blanks are trimmed' }),
      required: true,
      write: (v) => ({ email: (v as string).trim() }),
    },
    status: {
      column: 'status',
      schema: choice(INVITE_STATES, 'pending until the invitee accepts or rejects it; created pending'),
    },
    'created-at': {
      column: 'createdAt',
      schema: DateTime({ description: 'set by the server' }),
      // The front end's model sends its own clock's time on create (app/models/speaker-invite.js:12): ignored.
      input: Nullable(DateTime({ description: 'set by the server: a value sent is ignored' })),
      write: () => ({}),
    },
  },
  relationships: {
    event: eventOf,
    session: {
      kind: 'toOne',
      type: 'session',
      column: 'sessionId',
      required: true,
      immutable: true,
      within: 'event',
      description: "the session the invitee is asked to speak at; of the invite's event",
    },
  },
  policy: invitePolicy,
  hooks: {
    beforeCreate(ctx, values) {
      values.inviterId = loggedIn(ctx).id;
    },
    // The mail is a job sent in the create's transaction, counted against the mail limits (429 past them).
    async afterCreate(ctx, row) {
      await ctx.request.server.accountMail.queue(
        ctx.db,
        { kind: 'speaker-invite', inviteId: row.id as number },
        { recipient: row.email as string, ip: ctx.request.ip, whenLimited: 'refuse' },
      );
    },
  },
  createFailures: {
    429: 'Too many mails to this address or from this client address (MAIL_RATE_*); `Retry-After` says when to try again',
  },
  unique: {
    speaker_invites_pending_key: {
      pointer: '/data/attributes/email',
      detail: 'Speaker Invite has already been sent for this email',
    },
  },
});

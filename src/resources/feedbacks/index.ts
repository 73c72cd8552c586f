import { Type } from '@sinclair/typebox';
import { and, eq, or, sql } from 'drizzle-orm';
import { feedback, sessions } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import {
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
import { deletedAt, flexibleNumber, optionalText } from '../attributes.js';
import { inManagedEvent, namedEvent, requireRole, roleIn } from '../events/access.js';
import { sessionPolicy } from '../sessions/policy.js';

/** Feedback (columns `t`) the caller reads: their own, and all of the events they hold a role in; all for staff. */
function feedbackVisible(ctx: Ctx, t: Columns) {
  const { caller } = ctx;
  if (isStaff(caller)) return undefined;
  if (!caller) return sql`false`;
  return or(eq(t.userId!, caller.id), inManagedEvent(caller, t.eventId!));
}

/** The event of the session a write names, if the caller may see that session; else 404. */
async function eventOfSession(ctx: Ctx, named: string): Promise<number> {
  const id = integerId(named);
  const missing = `Related session "${named}" not found`;
  if (id === undefined) throw notFound(missing);
  const [row] = await ctx.db
    .select({ eventId: sessions.eventId })
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
  return row.eventId;
}

/**
 * The reference's rules (app/api/feedbacks.py): the author is the caller; a feedback rates a session (by
 * the organizers and coorganizers of its event: the organizer dashboard's rating column) or, naming
 * no session, the event itself (by any signed-in user who sees it). The event of a session's feedback
 * is the session's.
 */
async function checkCreate(ctx: Ctx, input: WriteInput) {
  const caller = loggedIn(ctx);
  const { user, session, event } = input.relationships;
  if (user !== undefined && String(user) !== String(caller.id))
    throw forbidden(
      'Feedback is written by its author only: name yourself as its user, or leave user out',
      '/data/relationships/user',
    );
  input.relationships.user = String(caller.id);
  if (typeof session === 'string') {
    const eventId = await eventOfSession(ctx, session);
    if (typeof event === 'string' && namedEvent(event) !== eventId)
      throw unprocessable("The event of a session's feedback is the session's event", '/data/relationships/event');
    await requireRole(ctx, eventId, 'coorganizer');
    input.relationships.event = String(eventId);
  } else if (typeof event === 'string') {
    await roleIn(ctx, namedEvent(event), `Related event "${event}" not found`);
  } else {
    throw unprocessable('A feedback names the session it rates, or the event', '/data/relationships');
  }
}

function authorOnly(ctx: Ctx, row: Row, what: string) {
  const caller = loggedIn(ctx);
  if (row.userId !== caller.id && !(what === 'delete' && isStaff(caller)))
    throw forbidden(`Only its author may ${what} a feedback`);
}

const feedbackPolicy: Policy = {
  scope: feedbackVisible,
  // Anonymous callers reach the read check (401); others are told of no record they may not read (404).
  existsFor: (ctx, t) => (ctx.caller ? feedbackVisible(ctx, t) : undefined),
  list: loggedIn,
  read(ctx) {
    loggedIn(ctx);
  },
  create: checkCreate,
  async update(ctx, row) {
    authorOnly(ctx, row, 'change');
    if (row.sessionId !== null) await requireRole(ctx, row.eventId as number, 'coorganizer');
  },
  delete(ctx, row) {
    authorOnly(ctx, row, 'delete');
  },
};

export const feedbackResource = defineResource({
  type: 'feedback',
  path: 'feedbacks',
  name: 'Feedback',
  tag: 'Feedback',
  description:
    'A rating (1 to 5, rounded to halves) with an optional comment, of a session or of an event. The caller is its ' +
    "author. Organizers and coorganizers rate their event's sessions (one live feedback per user and session); any " +
    'signed-in user who sees an event rates the event itself (one per user and event). Authors read, change and ' +
    "delete their own; organizers and coorganizers read all of their event's. A session's average-rating is the " +
    'mean of its live feedback.',
  table: feedback,
  softDelete: 'deletedAt',
  attributes: {
    rating: flexibleNumber({
      column: 'rating',
      schema: Type.Number({ minimum: 1, maximum: 5, description: '1 to 5; stored rounded to the nearest half' }),
      required: true,
      write: (value) => ({ rating: Math.round((value as number) * 2) / 2 }),
    }),
    comment: optionalText('comment', 10_000),
    'deleted-at': deletedAt,
  },
  relationships: {
    session: {
      kind: 'toOne',
      type: 'session',
      column: 'sessionId',
      immutable: true,
      description: 'the session rated; none for feedback on the event',
    },
    event: {
      kind: 'toOne',
      type: 'event',
      column: 'eventId',
      immutable: true,
      description: "the event rated, or the rated session's event (set from the session when left out)",
    },
    user: {
      kind: 'toOne',
      type: 'user',
      column: 'userId',
      immutable: true,
      description: 'the author: the caller (set when left out; naming anyone else is refused)',
    },
  },
  policy: feedbackPolicy,
  unique: {
    feedback_session_user_key: {
      pointer: '/data/relationships/session',
      detail: 'You have already rated this session',
    },
    feedback_event_user_key: { pointer: '/data/relationships/event', detail: 'You have already rated this event' },
  },
});

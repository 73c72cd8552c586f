import { eq, or, sql } from 'drizzle-orm';
import { sessions, userFavouriteSessions } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { defineResource, forbidden, type Columns, type Ctx, type Policy, type Row } from '../../jsonapi/index.js';
import { createdAt } from '../attributes.js';
import { holdsRole, inManagedEvent } from '../events/access.js';

/** Sessions of the events the caller holds a role in. */
const managedSessions = (ctx: Ctx) =>
  sql`(select ${sessions.id} from ${sessions} where ${inManagedEvent(ctx.caller, sessions.eventId)})`;

/**
 * Favourites (columns `t`) the caller reads: their own, and those of sessions of events they hold a role
 * in (all for staff). A personal schedule is private member data: nobody else sees whose it is.
 */
function favouriteVisible(ctx: Ctx, t: Columns) {
  const { caller } = ctx;
  if (isStaff(caller)) return undefined;
  if (!caller) return sql`false`;
  return or(eq(t.userId!, caller.id), sql`${t.sessionId} in ${managedSessions(ctx)}`);
}

/** The caller's own favourites only: a session's `favourite`. */
export const callersFavourite = (ctx: Ctx, t: Columns) => (ctx.caller ? eq(t.userId!, ctx.caller.id) : sql`false`);

const favouritePolicy: Policy = {
  scope: favouriteVisible,
  // Anonymous callers reach the read check (401); others are told of no record they may not read (404).
  existsFor: (ctx, t) => (ctx.caller ? favouriteVisible(ctx, t) : undefined),
  // The public session page lists a session's favourites for anyone (app/routes/public/session/view.js:25):
  // anonymous visitors get an empty list, not a 401.
  list() {},
  read(ctx) {
    loggedIn(ctx);
  },
  // The session must be one the caller sees (the engine checks what a write names against the session's scope).
  create(ctx) {
    loggedIn(ctx);
  },
  update(ctx) {
    loggedIn(ctx);
    throw forbidden('A favourite is added and removed, never changed');
  },
  // The reference lets the user and the event's coorganizers remove it (app/api/user_favourite_sessions.py).
  async delete(ctx, row: Row) {
    const caller = loggedIn(ctx);
    if (row.userId === caller.id || isStaff(caller)) return;
    const [session] = await ctx.db
      .select({ eventId: sessions.eventId })
      .from(sessions)
      .where(eq(sessions.id, row.sessionId as number));
    if (!session || !(await holdsRole(ctx, session.eventId, 'coorganizer')))
      throw forbidden("Only its user or the event's organizers may remove a favourite");
  },
};

export const userFavouriteSessionResource = defineResource({
  type: 'user-favourite-session',
  path: 'user-favourite-sessions',
  name: 'UserFavouriteSession',
  tag: 'Favourites',
  description:
    'A session on a signed-in user\'s personal schedule ("Add to My Schedule"): created by the user for a session ' +
    "they see, at most once per session (409), removed by its user (or the event's coorganizers). Read by its user " +
    "and the organizers and coorganizers of the session's event. A session's `favourite` is the caller's own, its " +
    '`favourite-count` the number of users who added it.',
  table: userFavouriteSessions,
  attributes: {
    'created-at': createdAt,
  },
  relationships: {
    session: {
      kind: 'toOne',
      type: 'session',
      column: 'sessionId',
      required: true,
      immutable: true,
      description: 'the session added',
    },
    user: {
      kind: 'toOne',
      type: 'user',
      column: 'userId',
      readOnly: true,
      description: 'whose schedule: the caller who added it',
    },
  },
  policy: favouritePolicy,
  hooks: {
    beforeCreate(ctx, values) {
      values.userId = loggedIn(ctx).id;
    },
  },
  unique: {
    user_favourite_sessions_session_user_key: {
      pointer: '/data/relationships/session',
      detail: 'Session already favourited',
    },
  },
});

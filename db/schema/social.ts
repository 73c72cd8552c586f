import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  pgView,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events } from './events.js';
import { sessions } from './sessions.js';
import { users } from './users.js';

/** A user's rating (1 to 5, in halves) of a session, or of an event when no session is named. */
export const feedback = pgTable(
  'feedback',
  {
    id: serial('id').primaryKey(),
    rating: doublePrecision('rating').notNull(),
    comment: text('comment'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('feedback_event_id_idx').on(t.eventId),
    index('feedback_session_id_idx').on(t.sessionId),
    index('feedback_user_id_idx').on(t.userId),
    // One live rating per user and session, and per user and event for the event's own feedback.
    uniqueIndex('feedback_session_user_key')
      .on(t.sessionId, t.userId)
      .where(sql`${t.deletedAt} is null and ${t.sessionId} is not null`),
    uniqueIndex('feedback_event_user_key')
      .on(t.eventId, t.userId)
      .where(sql`${t.deletedAt} is null and ${t.sessionId} is null`),
    check('feedback_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);

/** A session on a user's personal schedule. */
export const userFavouriteSessions = pgTable(
  'user_favourite_sessions',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_favourite_sessions_session_user_key').on(t.sessionId, t.userId),
    index('user_favourite_sessions_user_id_idx').on(t.userId),
  ],
);

/** An invitation, by address, to become a co-speaker of a session. */
export const speakerInvites = pgTable(
  'speaker_invites',
  {
    id: serial('id').primaryKey(),
    email: varchar('email', { length: 254 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    inviterId: integer('inviter_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('speaker_invites_event_id_idx').on(t.eventId),
    index('speaker_invites_session_id_idx').on(t.sessionId),
    index('speaker_invites_email_idx').on(sql`lower(${t.email})`),
    // One pending invitation per address and session.
    uniqueIndex('speaker_invites_pending_key')
      .on(t.sessionId, sql`lower(${t.email})`)
      .where(sql`${t.status} = 'pending'`),
    check('speaker_invites_status', sql`${t.status} in ('pending', 'accepted', 'rejected')`),
  ],
);

/** The favourites of each event's sessions: what an event's `session-favourites` relationship lists. */
export const eventSessionFavourites = pgView('event_session_favourites', {
  eventId: integer('event_id').notNull(),
  favouriteId: integer('favourite_id').notNull(),
}).as(sql`select ${sessions.eventId} as event_id, ${userFavouriteSessions.id} as favourite_id
  from ${userFavouriteSessions} inner join ${sessions} on ${sessions.id} = ${userFavouriteSessions.sessionId}`);

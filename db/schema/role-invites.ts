import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events, roles } from './events.js';

/**
 * An invitation of an address to a role in an event. Each mail of it carries a new token, which the invitee
 * posts back to accept (or decline) it; `hash` keeps only that token's SHA-256 (hex), and the token works
 * until `expires_at` (INVITE_EXPIRES_IN after the mail). Both are null until the first mail is composed.
 */
export const roleInvites = pgTable(
  'role_invites',
  {
    id: serial('id').primaryKey(),
    email: varchar('email', { length: 254 }).notNull(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    role: varchar('role', { length: 32 })
      .notNull()
      .references(() => roles.id),
    hash: varchar('hash', { length: 64 }),
    expiresAt: stamp('expires_at'),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('role_invites_hash_key').on(t.hash),
    uniqueIndex('role_invites_event_email_role_key').on(t.eventId, sql`lower(${t.email})`, t.role),
    index('role_invites_event_id_idx').on(t.eventId),
    check('role_invites_status', sql`${t.status} in ('pending', 'accepted', 'declined')`),
  ],
);

import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { bytea } from './site.js';
import { users } from './users.js';

/**
 * One login (`POST /v1/auth/login`): the family of its refresh tokens and of the access tokens issued
 * with them (claim `sid`). Ending it (logout, reuse of a replaced refresh token, a password change, the
 * account's deletion) ends them all at once. Its `oe_change` trigger fires only when `ended_at` is set
 * (migration 0012): access token checks are memoized by the read cache, logins and refreshes are not reads.
 */
export const logins = pgTable(
  'logins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: stamp('created_at').notNull().defaultNow(),
    /** When none of its tokens can be live any more (moved on by every refresh); rows past it are deleted. */
    expiresAt: stamp('expires_at').notNull(),
    endedAt: stamp('ended_at'),
    endReason: varchar('end_reason', { length: 16 }),
  },
  (t) => [
    check('logins_end_reason', sql`${t.endReason} in ('logout', 'reuse', 'password', 'deleted', 'blocked')`),
    index('logins_user_id_idx').on(t.userId),
    index('logins_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Refresh tokens, stored as the SHA-256 of the token (256 random bits: no slow hash is needed, and the
 * table never holds a usable token). A token issued by a refresh names the token it was issued for
 * (`parent_id`); the first use of a child retires its parent (`retired_by`). No `oe_change` trigger: no
 * read serves this table, and every refresh writes it.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    loginId: uuid('login_id')
      .notNull()
      .references(() => logins.id, { onDelete: 'cascade' }),
    parentId: bigint('parent_id', { mode: 'number' }).references((): AnyPgColumn => refreshTokens.id, {
      onDelete: 'cascade',
    }),
    tokenHash: bytea('token_hash').notNull().unique('refresh_tokens_token_hash_key'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    expiresAt: stamp('expires_at').notNull(),
    /** The child whose first use retired this token; presenting a retired token ends the login. */
    retiredBy: bigint('retired_by', { mode: 'number' }),
  },
  (t) => [index('refresh_tokens_login_id_idx').on(t.loginId), index('refresh_tokens_parent_id_idx').on(t.parentId)],
);

/**
 * The single-use tokens of the links the account mails carry (e-mail verification, password reset),
 * stored as their SHA-256. A use deletes the token and every other of its purpose for that account. No
 * `oe_change` trigger: no read serves this table.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    tokenHash: bytea('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 16 }).notNull(),
    /** The address the link was mailed to: a verification proves only that one. */
    email: varchar('email', { length: 254 }).notNull(),
    createdAt: stamp('created_at').notNull().defaultNow(),
    expiresAt: stamp('expires_at').notNull(),
  },
  (t) => [
    check('account_tokens_purpose', sql`${t.purpose} in ('verify-email', 'reset-password')`),
    index('account_tokens_user_id_idx').on(t.userId, t.purpose),
    index('account_tokens_expires_at_idx').on(t.expiresAt),
  ],
);

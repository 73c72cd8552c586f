import { bigserial, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';

/**
 * What the rate limits count (failed logins, mails asked for, app builds), shared by every API process.
 * A hit counts until `expires_at` (the window in force when it was made) and is deleted a little later
 * by the function that records hits (`rate_limit_take`, migration 0011), so no sweeper process is needed.
 * No `oe_change` trigger: no read serves this table, and a trigger would let anyone flush every API
 * process's read cache with failed logins.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** What is counted, e.g. `login-email`, `mail-client`. */
    bucket: varchar('bucket', { length: 32 }).notNull(),
    /** Whose it is: a lower-cased e-mail address, a mailbox, a client address. */
    key: text('key').notNull(),
    /** How many it counts for (a request sending ten mails is ten). */
    weight: integer('weight').notNull().default(1),
    expiresAt: stamp('expires_at').notNull(),
  },
  (t) => [
    index('rate_limit_hits_key_idx').on(t.bucket, t.key, t.expiresAt),
    index('rate_limit_hits_expires_at_idx').on(t.expiresAt),
  ],
);

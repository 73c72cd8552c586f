import { index, integer, jsonb, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { users } from './users.js';

/** Drafts of the bot builder (storeDraft): one JSON object per user and draft id. */
export const assistantDrafts = pgTable(
  'assistant_drafts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    id: varchar('id', { length: 64 }).notNull(),
    object: jsonb('object').notNull(),
    createdAt: stamp('created_at').notNull().defaultNow(),
    modifiedAt: stamp('modified_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] }), index('assistant_drafts_modified_idx').on(t.userId, t.modifiedAt)],
);

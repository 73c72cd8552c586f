import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events } from './events.js';
import { bytea } from './site.js';
import { users } from './users.js';

/**
 * Background tasks a client polls at /v1/tasks/<id>: event exports, imports and app builds. An export names the
 * event it reads; an import names the event it created once it succeeded.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: varchar('kind', { length: 16 }).notNull(),
    /** The requester; null for app builds, which anyone may ask for (the task URL is their capability). */
    userId: integer('user_id').references(() => users.id),
    eventId: integer('event_id').references(() => events.id),
    state: varchar('state', { length: 8 }).notNull().default('WAITING'),
    /** Progress while waiting, e.g. `Importing sessions (2/9)`. */
    status: text('status'),
    /** What the export was asked for (media flags). */
    options: jsonb('options').notNull().default({}),
    result: jsonb('result'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('tasks_kind', sql`${t.kind} in ('export', 'import', 'app')`),
    check('tasks_requester', sql`${t.kind} = 'app' or ${t.userId} is not null`),
    check('tasks_state', sql`${t.state} in ('WAITING', 'SUCCESS', 'FAILED', 'FAILURE')`),
    index('tasks_user_id_idx').on(t.userId),
    index('tasks_event_id_idx').on(t.eventId),
  ],
);

/** The archive an import reads, kept with its task until the import ends (any worker can read it). */
export const importArchives = pgTable('import_archives', {
  taskId: uuid('task_id')
    .primaryKey()
    .references(() => tasks.id, { onDelete: 'cascade' }),
  data: bytea('data').notNull(),
});

/** In-app notifications of a user (an import that finished, ...). */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    title: varchar('title', { length: 255 }).notNull(),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [index('notifications_user_id_idx').on(t.userId, t.id)],
);

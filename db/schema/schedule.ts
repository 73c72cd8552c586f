import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events } from './events.js';

/**
 * When the public schedule of an event last changed (src/schedule/documents.ts): the digest of what it held,
 * and the time a process first saw another one. The schedule documents' `Last-Modified`.
 */
export const scheduleStamps = pgTable('schedule_stamps', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  digest: text('digest').notNull(),
  changedAt: stamp('changed_at').notNull().defaultNow(),
});

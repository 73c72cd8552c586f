import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { events } from './events.js';

/**
 * A video stream (online room) of an event: either the event's own stream (`event_id`, at most one per
 * event) or one linked to rooms (microlocations.video_stream_id). `owner_event_id` is the event it
 * belongs to in both cases, so who may read and write it never depends on which rooms are linked.
 */
export const videoStreams = pgTable(
  'video_streams',
  {
    id: serial('id').primaryKey(),
    ownerEventId: integer('owner_event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 255 }).notNull(),
    url: text('url').notNull(),
    password: varchar('password', { length: 255 }),
    additionalInformation: text('additional_information'),
    bgImgUrl: text('bg_img_url'),
    extra: jsonb('extra'),
    isChatEnabled: boolean('is_chat_enabled').notNull().default(false),
    isGlobalEventRoom: boolean('is_global_event_room').notNull().default(false),
    /** The chat room's name, as the reference derives it: the name with other characters as '-', then the id. */
    chatRoomName: text('chat_room_name').generatedAlwaysAs(
      sql`regexp_replace(name, '[^0-9a-zA-Z!]', '-', 'g') || '-' || id`,
    ),
  },
  (t) => [
    uniqueIndex('video_streams_event_id_key').on(t.eventId),
    index('video_streams_owner_event_id_idx').on(t.ownerEventId),
    // The event's own stream belongs to that event.
    check('video_streams_event_is_owner', sql`${t.eventId} is null or ${t.eventId} = ${t.ownerEventId}`),
  ],
);

import { sql } from 'drizzle-orm';
import {
  check, doublePrecision, index, integer, pgTable, pgView, primaryKey, serial, text, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { users } from './users.js';

export const eventTopics = pgTable('event_topics', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  slug: varchar('slug', { length: 255 }).notNull(),
  systemImageUrl: text('system_image_url'),
  deletedAt: stamp('deleted_at'),
});

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    identifier: varchar('identifier', { length: 16 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    startsAt: stamp('starts_at').notNull(),
    endsAt: stamp('ends_at').notNull(),
    timezone: varchar('timezone', { length: 64 }).notNull(),
    description: text('description'),
    locationName: varchar('location_name', { length: 255 }),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    logoUrl: text('logo_url'),
    originalImageUrl: text('original_image_url'),
    largeImageUrl: text('large_image_url'),
    thumbnailImageUrl: text('thumbnail_image_url'),
    iconImageUrl: text('icon_image_url'),
    externalEventUrl: text('external_event_url'),
    ticketUrl: text('ticket_url'),
    privacy: varchar('privacy', { length: 16 }).notNull().default('public'),
    state: varchar('state', { length: 16 }).notNull().default('draft'),
    codeOfConduct: text('code_of_conduct'),
    eventTopicId: integer('event_topic_id').references(() => eventTopics.id),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('events_identifier_key').on(t.identifier),
    index('events_owner_id_idx').on(t.ownerId),
    index('events_event_topic_id_idx').on(t.eventTopicId),
    index('events_state_idx').on(t.state, t.id),
    check('events_ends_after_starts', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * The event roles (`roles.id` is the role's name): a fixed list, seeded by the migration. `owner` is
 * `events.owner_id`; the others are granted in `event_roles`.
 */
export const roles = pgTable('roles', {
  id: varchar('id', { length: 32 }).primaryKey(),
  titleName: varchar('title_name', { length: 64 }).notNull(),
});

/**
 * Who holds which role in an event (the reference's users_events_roles). The owner's row is kept by a
 * trigger from `events.owner_id` (the one truth); organizers, coorganizers, track organizers, registrars
 * and moderators are granted here. A user may hold several roles.
 */
export const eventRoles = pgTable(
  'event_roles',
  {
    /**
     * The row's id (users-events-role). Not called `id` in SQL: correlated subqueries over event_roles
     * name an outer table's unqualified "id" (drizzle leaves single-table columns unqualified).
     */
    id: serial('event_role_id').notNull(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** A `roles.id`; the check below keeps it one (a foreign key could not be added to a filled table before the seed). */
    role: varchar('role', { length: 32 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.userId, t.role] }),
    uniqueIndex('event_roles_id_key').on(t.id),
    index('event_roles_user_id_idx').on(t.userId),
    check('event_roles_role', sql`${t.role} in ('owner', 'organizer', 'coorganizer', 'track_organizer', 'registrar', 'moderator')`),
  ],
);

/**
 * The events a user holds any role in, as the owner (`events.owner_id`) or through `event_roles`, once
 * each: what a user's `events` relationship lists (the reference's users_events_roles). A view: the
 * tables stay the one truth.
 */
export const userEvents = pgView('user_events', {
  userId: integer('user_id').notNull(),
  eventId: integer('event_id').notNull(),
}).as(sql`select ${events.ownerId} as user_id, ${events.id} as event_id from ${events}
  union select ${eventRoles.userId}, ${eventRoles.eventId} from ${eventRoles}`);

import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events } from './events.js';
import { videoStreams } from './streams.js';

/** The column every record of an event has. */
const eventId = () =>
  integer('event_id')
    .notNull()
    .references(() => events.id);

export const eventCopyrights = pgTable(
  'event_copyrights',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    holder: varchar('holder', { length: 255 }),
    holderUrl: text('holder_url'),
    licence: varchar('licence', { length: 255 }).notNull(),
    licenceUrl: text('licence_url'),
    year: integer('year'),
    logoUrl: text('logo_url'),
    deletedAt: stamp('deleted_at'),
  },
  // One live copyright per event.
  (t) => [uniqueIndex('event_copyrights_event_id_key').on(t.eventId).where(sql`${t.deletedAt} is null`)],
);

export const socialLinks = pgTable(
  'social_links',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }).notNull(),
    link: text('link').notNull(),
    identifier: varchar('identifier', { length: 255 }),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('social_links_event_id_idx').on(t.eventId, t.id)],
);

export const microlocations = pgTable(
  'microlocations',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }).notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    floor: integer('floor'),
    room: varchar('room', { length: 255 }),
    position: integer('position').notNull().default(0),
    hiddenInScheduler: boolean('hidden_in_scheduler').notNull().default(false),
    videoStreamId: integer('video_stream_id').references(() => videoStreams.id, { onDelete: 'set null' }),
    isChatEnabled: boolean('is_chat_enabled').notNull().default(false),
    isGlobalEventRoom: boolean('is_global_event_room').notNull().default(false),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('microlocations_event_id_idx').on(t.eventId, t.id),
    index('microlocations_video_stream_id_idx').on(t.videoStreamId),
  ],
);

export const sponsors = pgTable(
  'sponsors',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }).notNull(),
    description: text('description'),
    url: text('url'),
    level: integer('level'),
    logoUrl: text('logo_url'),
    type: varchar('type', { length: 255 }),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('sponsors_event_id_idx').on(t.eventId, t.id)],
);

export const tracks = pgTable(
  'tracks',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }).notNull(),
    color: varchar('color', { length: 7 }).notNull(),
    fontColor: varchar('font_color', { length: 7 }).notNull(),
    description: text('description'),
    position: integer('position').notNull().default(0),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('tracks_event_id_idx').on(t.eventId, t.id)],
);

export const sessionTypes = pgTable(
  'session_types',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }).notNull(),
    length: varchar('length', { length: 5 }).notNull(),
    position: integer('position').notNull().default(0),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('session_types_event_id_idx').on(t.eventId, t.id)],
);

export const customForms = pgTable(
  'custom_forms',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    form: varchar('form', { length: 16 }).notNull(),
    fieldIdentifier: varchar('field_identifier', { length: 255 }).notNull(),
    type: varchar('type', { length: 16 }).notNull().default('text'),
    name: varchar('name', { length: 255 }),
    description: text('description'),
    isRequired: boolean('is_required').notNull().default(false),
    isIncluded: boolean('is_included').notNull().default(false),
    isFixed: boolean('is_fixed').notNull().default(false),
    isPublic: boolean('is_public').notNull().default(false),
    position: integer('position').notNull().default(0),
    isComplex: boolean('is_complex').notNull().default(false),
    isAllowEdit: boolean('is_allow_edit').notNull().default(false),
    formId: varchar('form_id', { length: 255 }),
    min: integer('min').default(0),
    max: integer('max').default(10),
    translations: jsonb('translations').$type<Record<string, unknown>[]>(),
    mainLanguage: varchar('main_language', { length: 35 }).default('en'),
  },
  (t) => [uniqueIndex('custom_forms_field_key').on(t.eventId, t.form, t.fieldIdentifier)],
);

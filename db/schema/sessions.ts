import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { microlocations, sessionTypes, tracks } from './event-records.js';
import { events } from './events.js';
import { users } from './users.js';

export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    title: varchar('title', { length: 255 }).notNull(),
    subtitle: varchar('subtitle', { length: 255 }),
    level: varchar('level', { length: 32 }),
    shortAbstract: text('short_abstract'),
    longAbstract: text('long_abstract'),
    comments: text('comments'),
    startsAt: stamp('starts_at'),
    endsAt: stamp('ends_at'),
    language: varchar('language', { length: 64 }),
    slidesUrl: text('slides_url'),
    videoUrl: text('video_url'),
    audioUrl: text('audio_url'),
    signupUrl: text('signup_url'),
    website: text('website'),
    twitter: text('twitter'),
    facebook: text('facebook'),
    github: text('github'),
    gitlab: text('gitlab'),
    linkedin: text('linkedin'),
    instagram: text('instagram'),
    mastodon: text('mastodon'),
    slides: jsonb('slides').$type<{ name: string; link: string }[]>(),
    complexFieldValues: jsonb('complex_field_values').$type<Record<string, string | number | boolean | null>>(),
    sendEmail: boolean('send_email').notNull().default(false),
    isLocked: boolean('is_locked').notNull().default(false),
    isMailSent: boolean('is_mail_sent').notNull().default(false),
    state: varchar('state', { length: 16 }).notNull().default('draft'),
    submittedAt: stamp('submitted_at'),
    trackId: integer('track_id').references(() => tracks.id),
    microlocationId: integer('microlocation_id').references(() => microlocations.id),
    sessionTypeId: integer('session_type_id').references(() => sessionTypes.id),
    creatorId: integer('creator_id').references(() => users.id),
    // Kept by triggers on feedback and user_favourite_sessions (migration, hand-written block of fe-social).
    averageRating: doublePrecision('average_rating').notNull().default(0),
    favouriteCount: integer('favourite_count').notNull().default(0),
    createdAt: stamp('created_at').notNull().defaultNow(),
    // Kept by a trigger (see the migration's hand-written block): every update of the row sets it.
    lastModifiedAt: stamp('last_modified_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('sessions_event_id_idx').on(t.eventId, t.id),
    // The live sessions of an event, in id order: an event's list and its count read only this
    // index (index-only scans, no visit of deleted rows).
    index('sessions_live_event_idx').on(t.eventId, t.id).where(sql`${t.deletedAt} is null`),
    index('sessions_track_id_idx').on(t.trackId),
    index('sessions_microlocation_id_idx').on(t.microlocationId),
    index('sessions_session_type_id_idx').on(t.sessionTypeId),
    index('sessions_creator_id_idx').on(t.creatorId),
    check('sessions_ends_after_starts', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

export const speakers = pgTable(
  'speakers',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    userId: integer('user_id').references(() => users.id),
    name: varchar('name', { length: 255 }).notNull(),
    email: varchar('email', { length: 254 }),
    mobile: varchar('mobile', { length: 64 }),
    photoUrl: text('photo_url'),
    thumbnailImageUrl: text('thumbnail_image_url'),
    smallImageUrl: text('small_image_url'),
    iconImageUrl: text('icon_image_url'),
    shortBiography: text('short_biography'),
    longBiography: text('long_biography'),
    speakingExperience: text('speaking_experience'),
    website: text('website'),
    twitter: text('twitter'),
    facebook: text('facebook'),
    github: text('github'),
    linkedin: text('linkedin'),
    instagram: text('instagram'),
    mastodon: text('mastodon'),
    organisation: varchar('organisation', { length: 255 }),
    isFeatured: boolean('is_featured').notNull().default(false),
    position: varchar('position', { length: 255 }),
    country: varchar('country', { length: 255 }),
    city: varchar('city', { length: 255 }),
    gender: varchar('gender', { length: 32 }),
    heardFrom: varchar('heard_from', { length: 255 }),
    sponsorshipRequired: text('sponsorship_required'),
    location: varchar('location', { length: 255 }),
    order: integer('order').notNull().default(0),
    isEmailOverridden: boolean('is_email_overridden').notNull().default(false),
    complexFieldValues: jsonb('complex_field_values').$type<Record<string, string | number | boolean | null>>(),
    speakerPositions: jsonb('speaker_positions').$type<Record<string, number>>(),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('speakers_event_id_idx').on(t.eventId, t.id),
    index('speakers_live_event_idx').on(t.eventId, t.id).where(sql`${t.deletedAt} is null`),
    index('speakers_user_id_idx').on(t.userId),
    // One live speaker per address in an event.
    uniqueIndex('speakers_event_email_key')
      .on(t.eventId, sql`lower(${t.email})`)
      .where(sql`${t.deletedAt} is null and ${t.email} is not null`),
  ],
);

export const speakersSessions = pgTable(
  'speakers_sessions',
  {
    speakerId: integer('speaker_id')
      .notNull()
      .references(() => speakers.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.speakerId, t.sessionId] }),
    index('speakers_sessions_session_id_idx').on(t.sessionId),
  ],
);

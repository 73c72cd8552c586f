import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, pgView, serial, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { microlocations } from './event-records.js';
import { events } from './events.js';
import { sessions } from './sessions.js';
import { attendees } from './tickets.js';

/** The reference's station types (app/api/helpers/static.py STATION_CHOICES). */
export const STATION_TYPES = ['registration', 'daily', 'check in', 'check out'] as const;

/**
 * The places where an event's registrars register and check in its ticket holders (the reference's `station`):
 * a registration or daily desk, or the door of a room (`check in`, `check out`) at one of its microlocations.
 */
export const stations = pgTable(
  'stations',
  {
    id: serial('id').primaryKey(),
    stationName: varchar('station_name', { length: 255 }).notNull(),
    stationType: varchar('station_type', { length: 16 }),
    microlocationId: integer('microlocation_id').references(() => microlocations.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('stations_event_id_idx').on(t.eventId),
    index('stations_microlocation_idx').on(t.microlocationId),
    check('stations_station_type_check', sql`${t.stationType} in ('registration', 'daily', 'check in', 'check out')`),
  ],
);

/**
 * How many people a station counted in a session's room (the reference's `station_store_paxs`); the event is the
 * station's, kept here so that the record's access and change notices go by event.
 */
export const stationStorePaxs = pgTable(
  'station_store_paxs',
  {
    id: serial('id').primaryKey(),
    stationId: integer('station_id')
      .notNull()
      .references(() => stations.id),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id),
    currentPax: integer('current_pax').notNull().default(0),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    modifiedAt: stamp('modified_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('station_store_paxs_event_id_idx').on(t.eventId),
    index('station_store_paxs_station_idx').on(t.stationId),
    index('station_store_paxs_session_idx').on(t.sessionId),
  ],
);

/**
 * A ticket holder registered or checked in or out at a station (the reference's `user_check_in`), with the
 * session's track, type and speakers' names as they were then; the event is the station's.
 */
export const userCheckIns = pgTable(
  'user_check_ins',
  {
    id: serial('id').primaryKey(),
    ticketHolderId: integer('ticket_holder_id')
      .notNull()
      .references(() => attendees.id),
    sessionId: integer('session_id').references(() => sessions.id),
    stationId: integer('station_id')
      .notNull()
      .references(() => stations.id),
    trackName: varchar('track_name', { length: 255 }),
    sessionName: varchar('session_name', { length: 255 }),
    speakerName: varchar('speaker_name', { length: 2048 }),
    checkInOutAt: stamp('check_in_out_at'),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at'),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    // The registration stats count an event's check-ins of the day.
    index('user_check_ins_event_day_idx').on(t.eventId, t.createdAt),
    index('user_check_ins_station_idx').on(t.stationId),
    index('user_check_ins_ticket_holder_idx').on(t.ticketHolderId),
  ],
);

/** The check-ins at the stations of each room: what a microlocation's `user-check-in` relationship lists. */
export const microlocationUserCheckIns = pgView('microlocation_user_check_ins', {
  microlocationId: integer('microlocation_id').notNull(),
  userCheckInId: integer('user_check_in_id').notNull(),
}).as(sql`select ${stations.microlocationId} as microlocation_id, ${userCheckIns.id} as user_check_in_id
  from ${userCheckIns} inner join ${stations} on ${stations.id} = ${userCheckIns.stationId}
  where ${stations.microlocationId} is not null`);

/** The badge layout of an event's tickets (the reference's `badge_forms`): size, colour, background, orientation. */
export const badgeForms = pgTable(
  'badge_forms',
  {
    id: serial('id').primaryKey(),
    badgeId: varchar('badge_id', { length: 255 }).notNull(),
    badgeSize: varchar('badge_size', { length: 255 }),
    badgeColor: varchar('badge_color', { length: 255 }),
    badgeImageUrl: varchar('badge_image_url', { length: 2048 }),
    badgeOrientation: varchar('badge_orientation', { length: 255 }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('badge_forms_event_id_idx').on(t.eventId)],
);

/** One field printed on a badge (the reference's `badge_field_forms`); the event is the badge form's. */
export const badgeFieldForms = pgTable(
  'badge_field_forms',
  {
    id: serial('id').primaryKey(),
    badgeFormId: integer('badge_form_id')
      .notNull()
      .references(() => badgeForms.id),
    badgeId: varchar('badge_id', { length: 255 }).notNull(),
    fieldIdentifier: varchar('field_identifier', { length: 255 }),
    customField: varchar('custom_field', { length: 255 }),
    sampleText: varchar('sample_text', { length: 2048 }),
    fontSize: integer('font_size'),
    fontName: varchar('font_name', { length: 255 }),
    fontWeight: jsonb('font_weight').$type<Record<string, string>[]>(),
    fontColor: varchar('font_color', { length: 255 }),
    textRotation: integer('text_rotation'),
    textAlignment: varchar('text_alignment', { length: 255 }),
    textType: varchar('text_type', { length: 255 }),
    isDeleted: boolean('is_deleted').default(false),
    marginTop: integer('margin_top'),
    marginBottom: integer('margin_bottom'),
    marginLeft: integer('margin_left'),
    marginRight: integer('margin_right'),
    qrCustomField: varchar('qr_custom_field', { length: 255 }).array(),
    isFieldExpanded: boolean('is_field_expanded').default(false),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('badge_field_forms_event_id_idx').on(t.eventId),
    index('badge_field_forms_badge_form_idx').on(t.badgeFormId),
  ],
);

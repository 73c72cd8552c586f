import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { groups } from './groups.js';
import { discountCodes } from './ticketing.js';
import { users } from './users.js';

export const eventTopics = pgTable('event_topics', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  slug: varchar('slug', { length: 255 }).notNull(),
  systemImageUrl: text('system_image_url'),
  deletedAt: stamp('deleted_at'),
});

/** Kinds of event (conference, meetup, ...): an admin-managed list, like topics. */
export const eventTypes = pgTable('event_types', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  slug: varchar('slug', { length: 255 }).notNull(),
  deletedAt: stamp('deleted_at'),
});

/** Sub-topics of a topic: an admin-managed list; each belongs to one topic. */
export const eventSubTopics = pgTable(
  'event_sub_topics',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    slug: varchar('slug', { length: 255 }).notNull(),
    eventTopicId: integer('event_topic_id')
      .notNull()
      .references(() => eventTopics.id),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('event_sub_topics_event_topic_id_idx').on(t.eventTopicId)],
);

/** Settings of an event the Open Event front end edits (wizard, dashboard): flags, payment and owner details. */
const eventOptions = {
  afterOrderMessage: text('after_order_message'),
  searchableLocationName: varchar('searchable_location_name', { length: 255 }),
  publicStreamLink: text('public_stream_link'),
  streamLoop: boolean('stream_loop').notNull().default(false),
  streamAutoplay: boolean('stream_autoplay').notNull().default(false),
  online: boolean('online').notNull().default(false),
  isMapShown: boolean('is_map_shown').notNull().default(true),
  isOneclickSignupEnabled: boolean('is_oneclick_signup_enabled').notNull().default(false),
  isSponsorsEnabled: boolean('is_sponsors_enabled').notNull().default(false),
  isTicketFormEnabled: boolean('is_ticket_form_enabled').notNull().default(false),
  isBadgesEnabled: boolean('is_badges_enabled').notNull().default(false),
  isCfsEnabled: boolean('is_cfs_enabled').notNull().default(false),
  isVideoroomEnabled: boolean('is_videoroom_enabled').notNull().default(false),
  isSessionsSpeakersEnabled: boolean('is_sessions_speakers_enabled').notNull().default(false),
  isFeatured: boolean('is_featured').notNull().default(false),
  isPromoted: boolean('is_promoted').notNull().default(false),
  isDemoted: boolean('is_demoted').notNull().default(false),
  isChatEnabled: boolean('is_chat_enabled').notNull().default(false),
  isBillingInfoMandatory: boolean('is_billing_info_mandatory').notNull().default(false),
  isDocumentEnabled: boolean('is_document_enabled').notNull().default(false),
  documentLinks: jsonb('document_links'),
  isAnnounced: boolean('is_announced').notNull().default(false),
  isTaxEnabled: boolean('is_tax_enabled').notNull().default(false),
  canPayByPaypal: boolean('can_pay_by_paypal').notNull().default(false),
  canPayByPaytm: boolean('can_pay_by_paytm').notNull().default(false),
  canPayByStripe: boolean('can_pay_by_stripe').notNull().default(false),
  isStripeLinked: boolean('is_stripe_linked').notNull().default(false),
  canPayByCheque: boolean('can_pay_by_cheque').notNull().default(false),
  canPayByInvoice: boolean('can_pay_by_invoice').notNull().default(false),
  canPayByBank: boolean('can_pay_by_bank').notNull().default(false),
  canPayByOmise: boolean('can_pay_by_omise').notNull().default(false),
  canPayByAlipay: boolean('can_pay_by_alipay').notNull().default(false),
  canPayOnsite: boolean('can_pay_onsite').notNull().default(false),
  paymentCountry: varchar('payment_country', { length: 255 }),
  paymentCurrency: varchar('payment_currency', { length: 3 }).default('USD'),
  paypalEmail: varchar('paypal_email', { length: 254 }),
  chequeDetails: text('cheque_details'),
  invoiceDetails: text('invoice_details'),
  bankDetails: text('bank_details'),
  onsiteDetails: text('onsite_details'),
  refundPolicy: text('refund_policy'),
  schedulePublishedOn: stamp('schedule_published_on'),
  hasOwnerInfo: boolean('has_owner_info').notNull().default(false),
  ownerName: varchar('owner_name', { length: 255 }),
  ownerDescription: text('owner_description'),
  chatRoomName: varchar('chat_room_name', { length: 255 }),
};

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
    ...eventOptions,
    eventTopicId: integer('event_topic_id').references(() => eventTopics.id),
    eventTypeId: integer('event_type_id').references(() => eventTypes.id),
    eventSubTopicId: integer('event_sub_topic_id').references(() => eventSubTopics.id),
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'set null' }),
    /** An administrator's discount code (used for events) that the event's organizers applied. */
    discountCodeId: integer('discount_code_id').references((): AnyPgColumn => discountCodes.id),
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
    index('events_event_type_id_idx').on(t.eventTypeId),
    index('events_event_sub_topic_id_idx').on(t.eventSubTopicId),
    index('events_group_id_idx').on(t.groupId),
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
    check(
      'event_roles_role',
      sql`${t.role} in ('owner', 'organizer', 'coorganizer', 'track_organizer', 'registrar', 'moderator')`,
    ),
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

import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { events } from './events.js';
import { orders } from './orders.js';
import { users } from './users.js';

export const TICKET_TYPES = ['free', 'paid', 'donation'] as const;
export const CFS_PRIVACIES = ['public', 'private'] as const;

const eventId = () =>
  integer('event_id')
    .notNull()
    .references(() => events.id);
const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

/** The kinds of ticket an event sells. */
export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }).notNull(),
    type: varchar('type', { length: 16 }).notNull().default('free'),
    description: text('description'),
    price: money('price'),
    quantity: integer('quantity'),
    minOrder: integer('min_order'),
    maxOrder: integer('max_order'),
    minPrice: money('min_price'),
    maxPrice: money('max_price'),
    position: integer('position'),
    isDescriptionVisible: boolean('is_description_visible').notNull().default(true),
    isHidden: boolean('is_hidden').notNull().default(false),
    isFeeAbsorbed: boolean('is_fee_absorbed').notNull().default(false),
    salesStartsAt: stamp('sales_starts_at').notNull(),
    salesEndsAt: stamp('sales_ends_at').notNull(),
    formId: varchar('form_id', { length: 255 }),
    badgeId: varchar('badge_id', { length: 255 }),
    /** Holders of this ticket are checked in only at the stations and times the ticket allows. */
    isCheckinRestricted: boolean('is_checkin_restricted').notNull().default(false),
    /** Holders of this ticket are checked in when their order completes. */
    autoCheckinEnabled: boolean('auto_checkin_enabled').notNull().default(false),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('tickets_event_id_idx').on(t.eventId, t.id),
    check('tickets_type', sql`${t.type} in ('free', 'paid', 'donation')`),
    check('tickets_sales_period', sql`${t.salesEndsAt} > ${t.salesStartsAt}`),
  ],
);

/** The tax of an event's tickets: at most one live record per event. */
export const taxes = pgTable(
  'taxes',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    name: varchar('name', { length: 255 }),
    rate: doublePrecision('rate'),
    taxId: varchar('tax_id', { length: 255 }),
    country: varchar('country', { length: 255 }),
    registeredCompany: varchar('registered_company', { length: 255 }),
    contactName: varchar('contact_name', { length: 255 }),
    email: varchar('email', { length: 255 }),
    phone: varchar('phone', { length: 64 }),
    address: varchar('address', { length: 1024 }),
    city: varchar('city', { length: 255 }),
    state: varchar('state', { length: 255 }),
    zip: varchar('zip', { length: 32 }),
    invoiceFooter: text('invoice_footer'),
    shouldSendInvoice: boolean('should_send_invoice').notNull().default(false),
    isInvoiceSent: boolean('is_invoice_sent').notNull().default(false),
    isTaxIncludedInPrice: boolean('is_tax_included_in_price').notNull().default(false),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('taxes_event_id_key').on(t.eventId).where(sql`${t.deletedAt} is null`),
    check('taxes_rate', sql`${t.rate} between 0 and 100`),
  ],
);

/** The call for speakers of an event: at most one live record per event. */
export const speakersCalls = pgTable(
  'speakers_calls',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    announcement: text('announcement'),
    startsAt: stamp('starts_at').notNull(),
    softEndsAt: stamp('soft_ends_at'),
    endsAt: stamp('ends_at').notNull(),
    privacy: varchar('privacy', { length: 16 }).notNull().default('public'),
    hash: varchar('hash', { length: 255 }),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('speakers_calls_event_id_key').on(t.eventId).where(sql`${t.deletedAt} is null`),
    check('speakers_calls_privacy', sql`${t.privacy} in ('public', 'private')`),
    check('speakers_calls_period', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * An event's Stripe Connect authorization. This server has no Stripe integration, so no row is ever
 * written: the table gives the event's `stripe-authorization` relationship its (empty) target.
 */
export const stripeAuthorizations = pgTable(
  'stripe_authorizations',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    stripePublishableKey: varchar('stripe_publishable_key', { length: 255 }),
  },
  (t) => [uniqueIndex('stripe_authorizations_event_id_key').on(t.eventId)],
);

/** A ticket holder: one ticket of an order, with the holder's details. */
export const attendees = pgTable(
  'attendees',
  {
    id: serial('id').primaryKey(),
    eventId: eventId(),
    orderId: integer('order_id').references(() => orders.id),
    ticketId: integer('ticket_id').references(() => tickets.id),
    userId: integer('user_id').references(() => users.id),
    firstname: varchar('firstname', { length: 255 }),
    lastname: varchar('lastname', { length: 255 }),
    email: varchar('email', { length: 254 }),
    city: varchar('city', { length: 255 }),
    state: varchar('state', { length: 255 }),
    country: varchar('country', { length: 255 }),
    address: varchar('address', { length: 1024 }),
    jobTitle: varchar('job_title', { length: 255 }),
    phone: varchar('phone', { length: 64 }),
    company: varchar('company', { length: 255 }),
    taxBusinessInfo: varchar('tax_business_info', { length: 1024 }),
    billingAddress: varchar('billing_address', { length: 1024 }),
    homeAddress: varchar('home_address', { length: 1024 }),
    shippingAddress: varchar('shipping_address', { length: 1024 }),
    workAddress: varchar('work_address', { length: 1024 }),
    workPhone: varchar('work_phone', { length: 64 }),
    website: varchar('website', { length: 2048 }),
    blog: varchar('blog', { length: 2048 }),
    twitter: varchar('twitter', { length: 2048 }),
    facebook: varchar('facebook', { length: 2048 }),
    github: varchar('github', { length: 2048 }),
    instagram: varchar('instagram', { length: 2048 }),
    linkedin: varchar('linkedin', { length: 2048 }),
    gender: varchar('gender', { length: 255 }),
    ageGroup: varchar('age_group', { length: 255 }),
    birthDate: stamp('birth_date'),
    pdfUrl: text('pdf_url'),
    checkinTimes: text('checkin_times'),
    checkoutTimes: text('checkout_times'),
    isCheckedIn: boolean('is_checked_in').notNull().default(false),
    // Registration (a badge handed out) is another step than check-in at the door, as in the reference.
    isRegistered: boolean('is_registered').notNull().default(false),
    registerTimes: text('register_times'),
    sameAsBuyer: boolean('same_as_buyer').notNull().default(false),
    acceptReceiveEmails: boolean('accept_receive_emails').notNull().default(false),
    acceptVideoRecording: boolean('accept_video_recording').notNull().default(false),
    acceptShareDetails: boolean('accept_share_details').notNull().default(false),
    complexFieldValues: jsonb('complex_field_values'),
    isConsentOfRefundPolicy: boolean('is_consent_of_refund_policy').notNull().default(false),
    nativeLanguage: varchar('native_language', { length: 255 }),
    fluentLanguage: varchar('fluent_language', { length: 255 }),
    homeWiki: varchar('home_wiki', { length: 255 }),
    isConsentFormField: boolean('is_consent_form_field').notNull().default(false),
    isConsentFormFieldPhoto: boolean('is_consent_form_field_photo').notNull().default(false),
    isConsentFormFieldEmail: boolean('is_consent_form_field_email').notNull().default(false),
    wikiScholarship: varchar('wiki_scholarship', { length: 255 }),
    tagId: integer('tag_id'),
    /** The ticket's own identifier: the QR code of the ticket PDF names it. */
    identifier: varchar('identifier', { length: 36 }).notNull().default(sql`gen_random_uuid()::text`),
    /** What this holder's ticket costs before any discount: the ticket's price, or the amount given for a donation. */
    price: money('price'),
    isDiscountApplied: boolean('is_discount_applied').notNull().default(false),
    isAccessCodeApplied: boolean('is_access_code_applied').notNull().default(false),
    isCheckedOut: boolean('is_checked_out').notNull().default(false),
    deviceNameCheckin: varchar('device_name_checkin', { length: 255 }),
    attendeeNotes: text('attendee_notes'),
    isBadgePrinted: boolean('is_badge_printed').notNull().default(false),
    badgePrintedAt: stamp('badge_printed_at'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    index('attendees_event_id_idx').on(t.eventId, t.id),
    index('attendees_order_id_idx').on(t.orderId),
    index('attendees_ticket_id_idx').on(t.ticketId),
    uniqueIndex('attendees_identifier_key').on(t.identifier),
    // The door's search (GET /v1/events/{id}/attendees/search): a part of the name or of the e-mail (pg_trgm).
    index('attendees_name_trgm_idx').using(
      'gin',
      sql`(coalesce(${t.firstname}, '') || ' ' || coalesce(${t.lastname}, '')) gin_trgm_ops`,
    ),
    index('attendees_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
  ],
);

/** The tickets of each order: those its live ticket holders hold, once each (an order's `tickets`). */
export const orderTickets = pgView('order_tickets', {
  orderId: integer('order_id').notNull(),
  ticketId: integer('ticket_id').notNull(),
}).as(sql`select distinct ${attendees.orderId} as order_id, ${attendees.ticketId} as ticket_id from ${attendees}
  where ${attendees.deletedAt} is null and ${attendees.orderId} is not null and ${attendees.ticketId} is not null`);

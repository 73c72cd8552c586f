import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { customForms } from './event-records.js';
import { events } from './events.js';
import { tickets } from './tickets.js';
import { users } from './users.js';

export const DISCOUNT_TYPES = ['amount', 'percent'] as const;
/** `ticket`: a code of an event's organizers that lowers ticket prices; `event`: an administrator's code for organizers. */
export const DISCOUNT_USES = ['event', 'ticket'] as const;

const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });

/** What limits the use of a discount or access code. */
const codeLimits = () => ({
  isActive: boolean('is_active').notNull().default(true),
  ticketsNumber: integer('tickets_number'),
  minQuantity: integer('min_quantity').default(1),
  maxQuantity: integer('max_quantity').default(100),
  validFrom: stamp('valid_from'),
  validTill: stamp('valid_till'),
});

/** Who made a code and when, and when it was deleted. */
const codeRecord = () => ({
  marketerId: integer('marketer_id').references(() => users.id),
  createdAt: stamp('created_at').notNull().defaultNow(),
  deletedAt: stamp('deleted_at'),
});

/**
 * Discount codes (the reference's `discount_codes`): an event's codes for its tickets (`used_for` ticket) and the
 * administrators' codes for events (`used_for` event, no event), either a percent or an amount off. A code is
 * unique per event among live codes, whatever its case.
 */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 100 }).notNull(),
    discountUrl: varchar('discount_url', { length: 2048 }),
    value: money('value').notNull(),
    type: varchar('type', { length: 8 }).notNull(),
    ...codeLimits(),
    usedFor: varchar('used_for', { length: 8 }).notNull().default('ticket'),
    eventId: integer('event_id').references(() => events.id),
    ...codeRecord(),
  },
  (t) => [
    uniqueIndex('discount_codes_event_code_key')
      .on(sql`coalesce(${t.eventId}, 0)`, sql`lower(${t.code})`)
      .where(sql`${t.deletedAt} is null`),
    index('discount_codes_event_id_idx').on(t.eventId),
    check('discount_codes_type', sql`${t.type} in ('amount', 'percent')`),
    check('discount_codes_used_for', sql`${t.usedFor} in ('event', 'ticket')`),
    check('discount_codes_value', sql`${t.value} >= 0 and (${t.type} <> 'percent' or ${t.value} <= 100)`),
  ],
);

/** The tickets a discount code lowers. */
export const discountCodesTickets = pgTable(
  'discount_codes_tickets',
  {
    discountCodeId: integer('discount_code_id')
      .notNull()
      .references(() => discountCodes.id),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
  },
  (t) => [
    primaryKey({ columns: [t.discountCodeId, t.ticketId] }),
    index('discount_codes_tickets_ticket_idx').on(t.ticketId),
  ],
);

/** Access codes (the reference's `access_codes`): a code that shows an event's hidden tickets to who knows it. */
export const accessCodes = pgTable(
  'access_codes',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 100 }).notNull(),
    accessUrl: varchar('access_url', { length: 2048 }),
    ...codeLimits(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    ...codeRecord(),
  },
  (t) => [
    uniqueIndex('access_codes_event_code_key').on(t.eventId, sql`lower(${t.code})`).where(sql`${t.deletedAt} is null`),
  ],
);

/** The hidden tickets an access code shows. */
export const accessCodesTickets = pgTable(
  'access_codes_tickets',
  {
    accessCodeId: integer('access_code_id')
      .notNull()
      .references(() => accessCodes.id),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
  },
  (t) => [
    primaryKey({ columns: [t.accessCodeId, t.ticketId] }),
    index('access_codes_tickets_ticket_idx').on(t.ticketId),
  ],
);

/**
 * The platform's service fee on ticket sales (the reference's `ticket_fees`), per currency and country: a percent of
 * each ticket line, at most `maximum_fee`. Administrators keep them.
 */
export const ticketFees = pgTable(
  'ticket_fees',
  {
    id: serial('id').primaryKey(),
    currency: varchar('currency', { length: 3 }).notNull(),
    country: varchar('country', { length: 255 }).notNull(),
    serviceFee: money('service_fee').notNull().default(0),
    maximumFee: money('maximum_fee').notNull().default(0),
  },
  (t) => [
    uniqueIndex('ticket_fees_currency_country_key').on(t.currency, t.country),
    check('ticket_fees_amounts', sql`${t.serviceFee} between 0 and 100 and ${t.maximumFee} >= 0`),
  ],
);

/** Labels an event's organizers put on its tickets (the reference's `ticket_tag`). */
export const ticketTags = pgTable(
  'ticket_tags',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('ticket_tags_event_id_idx').on(t.eventId)],
);

/** Which ticket carries which tag. */
export const ticketTagging = pgTable(
  'ticket_tagging',
  {
    ticketTagId: integer('ticket_tag_id')
      .notNull()
      .references(() => ticketTags.id),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id),
  },
  (t) => [primaryKey({ columns: [t.ticketTagId, t.ticketId] }), index('ticket_tagging_ticket_idx').on(t.ticketId)],
);

/** Tags an event's organizers put on its attendees (the reference's `tags`: a name and a colour). */
export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    color: varchar('color', { length: 32 }),
    isReadOnly: boolean('is_read_only').notNull().default(false),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('tags_event_id_idx').on(t.eventId)],
);

/** The choices of a custom form field of type select, radio or checkbox (the reference's `custom_form_options`). */
export const customFormOptions = pgTable(
  'custom_form_options',
  {
    id: serial('id').primaryKey(),
    value: varchar('value', { length: 1024 }).notNull(),
    customFormId: integer('custom_form_id')
      .notNull()
      .references(() => customForms.id),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('custom_form_options_form_idx').on(t.customFormId)],
);

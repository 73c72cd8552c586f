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
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { eventSubTopics, events, roles } from './events.js';
import { users } from './users.js';

/*
 * The administrator's console (the reference's custom_system_role.py, panel_permission.py, user_permission.py,
 * permission.py, service.py, message_setting.py, email_notification.py, activity.py, image_size.py,
 * custom_placeholder.py, event_invoice.py).
 */

/** System roles an administrator defines (the reference seeds "Sales Admin" and "Marketer"). */
export const customSysRoles = pgTable('custom_sys_roles', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull().unique(),
});

/** Who holds a custom system role (optionally for one event only). */
export const userSystemRoles = pgTable(
  'user_system_roles',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => customSysRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [index('user_system_roles_user_idx').on(t.userId), index('user_system_roles_role_idx').on(t.roleId)],
);

/** The admin panel's sections (sales, admin, events, sessions, users, permissions, messages, reports, settings, content). */
export const panelPermissions = pgTable('panel_permissions', {
  id: serial('id').primaryKey(),
  panelName: varchar('panel_name', { length: 64 }).notNull().unique(),
  canAccess: boolean('can_access').notNull().default(true),
});

/** Which custom system roles see which panel. */
export const rolesPanels = pgTable(
  'roles_panels',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => customSysRoles.id, { onDelete: 'cascade' }),
    panelPermissionId: integer('panel_permission_id')
      .notNull()
      .references(() => panelPermissions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.panelPermissionId] }),
    index('roles_panels_panel_idx').on(t.panelPermissionId),
  ],
);

/**
 * What users who are not verified, or not logged in, may do (`create_event`, `publish_event`, ...). Soft-deleted as
 * the reference's: a live row's name is unique.
 */
export const userPermissions = pgTable(
  'user_permissions',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    description: text('description'),
    unverifiedUser: boolean('unverified_user').notNull().default(false),
    anonymousUser: boolean('anonymous_user').notNull().default(false),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [uniqueIndex('user_permissions_live_name_idx').on(t.name).where(sql`${t.deletedAt} is null`)],
);

/** The kinds of event records an event role's permissions are about (track, session, speaker, sponsor, microlocation). */
export const services = pgTable('services', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull().unique(),
});

/** What each event role may do with each service (the reference's `permissions`). */
export const eventRolePermissions = pgTable(
  'permissions',
  {
    id: serial('id').primaryKey(),
    roleId: varchar('role_id', { length: 32 })
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    canCreate: boolean('can_create').notNull().default(true),
    canRead: boolean('can_read').notNull().default(true),
    canUpdate: boolean('can_update').notNull().default(true),
    canDelete: boolean('can_delete').notNull().default(true),
  },
  (t) => [uniqueIndex('permissions_role_service_idx').on(t.roleId, t.serviceId)],
);

/** Whether the service sends the mails (and notifications) of an action. */
export const messageSettings = pgTable('message_settings', {
  id: serial('id').primaryKey(),
  action: varchar('action', { length: 64 }).notNull().unique(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: stamp('created_at').notNull().defaultNow(),
  modifiedAt: stamp('modified_at').notNull().defaultNow(),
});

/** A user's choice of the mails it receives about one event. */
export const emailNotifications = pgTable(
  'email_notifications',
  {
    id: serial('id').primaryKey(),
    nextEvent: boolean('next_event').notNull().default(false),
    newPaper: boolean('new_paper').notNull().default(false),
    sessionAcceptReject: boolean('session_accept_reject').notNull().default(false),
    sessionSchedule: boolean('session_schedule').notNull().default(false),
    afterTicketPurchase: boolean('after_ticket_purchase').notNull().default(true),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('email_notifications_user_event_idx').on(t.userId, t.eventId),
    index('email_notifications_event_idx').on(t.eventId),
  ],
);

/** The activity log: who did what, written in the transaction of the change. */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    /** The user's e-mail and id (`admin@example.com (1)`), or `system`. */
    actor: varchar('actor', { length: 320 }),
    time: stamp('time').notNull().defaultNow(),
    action: text('action').notNull(),
  },
  (t) => [index('activities_time_idx').on(t.time)],
);

/** Variant sizes and quality of event images (`event-image`) and speaker/profile images (`speaker-image`). */
export const imageSizes = pgTable(
  'image_sizes',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 32 }).notNull().unique(),
    fullWidth: integer('full_width'),
    fullHeight: integer('full_height'),
    fullAspect: boolean('full_aspect').notNull().default(false),
    fullQuality: integer('full_quality'),
    iconWidth: integer('icon_width'),
    iconHeight: integer('icon_height'),
    iconAspect: boolean('icon_aspect').notNull().default(false),
    iconQuality: integer('icon_quality'),
    thumbnailWidth: integer('thumbnail_width'),
    thumbnailHeight: integer('thumbnail_height'),
    thumbnailAspect: boolean('thumbnail_aspect').notNull().default(false),
    thumbnailQuality: integer('thumbnail_quality'),
    logoWidth: integer('logo_width'),
    logoHeight: integer('logo_height'),
    smallSizeWidthHeight: integer('small_size_width_height'),
    smallSizeQuality: integer('small_size_quality'),
    thumbnailSizeWidthHeight: integer('thumbnail_size_width_height'),
    thumbnailSizeQuality: integer('thumbnail_size_quality'),
    iconSizeWidthHeight: integer('icon_size_width_height'),
    iconSizeQuality: integer('icon_size_quality'),
  },
  (t) => [check('image_sizes_type', sql`${t.type} in ('event-image', 'speaker-image')`)],
);

/** Placeholder images for events without one, by sub-topic, with their variants. */
export const customPlaceholders = pgTable(
  'custom_placeholders',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }),
    originalImageUrl: text('original_image_url').notNull(),
    thumbnailImageUrl: text('thumbnail_image_url'),
    largeImageUrl: text('large_image_url'),
    iconImageUrl: text('icon_image_url'),
    copyright: text('copyright'),
    origin: text('origin'),
    eventSubTopicId: integer('event_sub_topic_id').references(() => eventSubTopics.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('custom_placeholders_sub_topic_idx').on(t.eventSubTopicId)],
);

/** The monthly invoice of an event's ticket fees (what its organiser owes the platform). */
export const eventInvoices = pgTable(
  'event_invoices',
  {
    id: serial('id').primaryKey(),
    identifier: varchar('identifier', { length: 32 }).notNull().unique(),
    amount: numeric('amount', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'set null' }),
    /** The month whose sales it bills, `YYYY-MM` (in UTC). */
    month: varchar('month', { length: 7 }).notNull(),
    createdAt: stamp('created_at').notNull().defaultNow(),
    issuedAt: stamp('issued_at').notNull().defaultNow(),
    completedAt: stamp('completed_at'),
    transactionId: varchar('transaction_id', { length: 255 }),
    paidVia: varchar('paid_via', { length: 32 }),
    paymentMode: varchar('payment_mode', { length: 32 }),
    brand: varchar('brand', { length: 32 }),
    expMonth: integer('exp_month'),
    expYear: integer('exp_year'),
    last4: varchar('last4', { length: 4 }),
    stripeToken: varchar('stripe_token', { length: 255 }),
    paypalToken: varchar('paypal_token', { length: 255 }),
    status: varchar('status', { length: 16 }).notNull().default('due'),
    invoicePdfUrl: text('invoice_pdf_url'),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    uniqueIndex('event_invoices_event_month_idx').on(t.eventId, t.month),
    index('event_invoices_user_idx').on(t.userId),
    check('event_invoices_amount', sql`${t.amount} >= 0`),
    check('event_invoices_status', sql`${t.status} in ('due', 'paid', 'refunding', 'refunded', 'failed', 'resolved')`),
  ],
);

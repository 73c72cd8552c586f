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
import { stamp } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: varchar('email', { length: 254 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    name: varchar('name', { length: 255 }),
    firstName: varchar('first_name', { length: 255 }),
    lastName: varchar('last_name', { length: 255 }),
    details: text('details'),
    contact: text('contact'),
    avatarUrl: text('avatar_url'),
    facebookUrl: text('facebook_url'),
    twitterUrl: text('twitter_url'),
    instagramUrl: text('instagram_url'),
    googlePlusUrl: text('google_plus_url'),
    originalImageUrl: text('original_image_url'),
    thumbnailImageUrl: text('thumbnail_image_url'),
    smallImageUrl: text('small_image_url'),
    iconImageUrl: text('icon_image_url'),
    isAdmin: boolean('is_admin').notNull().default(false),
    isSuperAdmin: boolean('is_super_admin').notNull().default(false),
    /** The account's address was proven by a link mailed to it (or an administrator said so). */
    isVerified: boolean('is_verified').notNull().default(false),
    publicName: varchar('public_name', { length: 255 }),
    wasRegisteredWithOrder: boolean('was_registered_with_order').notNull().default(false),
    /** Set by an administrator: the account cannot log in and its tokens end (spam). */
    isBlocked: boolean('is_blocked').notNull().default(false),
    /** The user lets others see what they follow (favourite sessions). */
    isProfilePublic: boolean('is_profile_public').notNull().default(false),
    isSalesAdmin: boolean('is_sales_admin').notNull().default(false),
    isMarketer: boolean('is_marketer').notNull().default(false),
    /** Spelled as the web front end spells it. */
    languagePrefrence: varchar('language_prefrence', { length: 35 }),
    company: varchar('company', { length: 255 }),
    billingContactName: varchar('billing_contact_name', { length: 255 }),
    billingPhone: varchar('billing_phone', { length: 64 }),
    billingCountry: varchar('billing_country', { length: 255 }),
    billingState: varchar('billing_state', { length: 255 }),
    billingCity: varchar('billing_city', { length: 255 }),
    billingAddress: text('billing_address'),
    billingZipCode: varchar('billing_zip_code', { length: 64 }),
    billingTaxInfo: text('billing_tax_info'),
    billingAdditionalInfo: text('billing_additional_info'),
    /**
     * Raised by every password change: access tokens that belong to no login (the assistant's) carry the
     * generation they were issued in and end when it moves on (src/auth/plugin.ts).
     */
    tokenGeneration: integer('token_generation').notNull().default(0),
    /** The assistant's role below admin (`user`, `reviewer`, `operator`); admins are the flags above. */
    assistantRole: varchar('assistant_role', { length: 16 }).notNull().default('user'),
    /** The assistant's personal store: name -> value. */
    stores: jsonb('stores').$type<Record<string, string>>().notNull().default({}),
    /** The assistant's user settings (`/aaa/listUserSettings.json`): name -> value. */
    assistantSettings: jsonb('assistant_settings').$type<Record<string, string>>().notNull().default({}),
    /** The assistant's devices of the account (`/aaa/modifyUserDevices.json`): mac id -> {name, room, ...}. */
    assistantDevices: jsonb('assistant_devices').$type<Record<string, Record<string, string>>>().notNull().default({}),
    lastLoginAt: stamp('last_login_at'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [
    // One live account per address; a deleted account frees its address.
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    index('users_created_at_idx').on(t.createdAt, t.id),
    check('users_assistant_role', sql`${t.assistantRole} in ('user', 'reviewer', 'operator')`),
  ],
);

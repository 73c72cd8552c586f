import { sql } from 'drizzle-orm';
import { boolean, check, customType, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';

export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

export const pages = pgTable(
  'pages',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    title: varchar('title', { length: 255 }),
    url: text('url').notNull(),
    description: text('description').notNull(),
    language: varchar('language', { length: 35 }),
    index: integer('index').notNull().default(0),
    place: varchar('place', { length: 16 }),
  },
  (t) => [
    check('pages_place', sql`${t.place} in ('footer', 'event')`),
    index('pages_place_index').on(t.place, t.index),
  ],
);

/** The one settings row (id 1); the migration inserts it with every default. */
export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().default(1),
    appName: varchar('app_name', { length: 255 }).notNull().default('Open Event'),
    tagline: varchar('tagline', { length: 255 }),
    frontendUrl: text('frontend_url'),
    supportUrl: text('support_url'),
    facebookUrl: text('facebook_url'),
    twitterUrl: text('twitter_url'),
    instagramUrl: text('instagram_url'),
    githubUrl: text('github_url'),
    youtubeUrl: text('youtube_url'),
    largeImageWidth: integer('large_image_width').notNull().default(1300),
    largeImageHeight: integer('large_image_height').notNull().default(500),
    thumbnailImageWidth: integer('thumbnail_image_width').notNull().default(500),
    thumbnailImageHeight: integer('thumbnail_image_height').notNull().default(200),
    iconImageWidth: integer('icon_image_width').notNull().default(75),
    iconImageHeight: integer('icon_image_height').notNull().default(30),
    imageKeepAspect: boolean('image_keep_aspect').notNull().default(true),
    profileThumbnailSize: integer('profile_thumbnail_size').notNull().default(500),
    profileSmallSize: integer('profile_small_size').notNull().default(50),
    profileIconSize: integer('profile_icon_size').notNull().default(35),
    storagePlace: varchar('storage_place', { length: 8 }).notNull().default('local'),
    s3Endpoint: text('s3_endpoint'),
    s3Bucket: varchar('s3_bucket', { length: 63 }),
    s3Region: varchar('s3_region', { length: 64 }),
    s3AccessKey: varchar('s3_access_key', { length: 255 }),
    s3SecretKey: varchar('s3_secret_key', { length: 255 }),
    emailService: varchar('email_service', { length: 8 }),
    emailFrom: varchar('email_from', { length: 254 }),
    emailFromName: varchar('email_from_name', { length: 255 }),
    smtpHost: varchar('smtp_host', { length: 255 }),
    smtpPort: integer('smtp_port'),
    smtpUsername: varchar('smtp_username', { length: 255 }),
    smtpPassword: varchar('smtp_password', { length: 255 }),
    smtpEncryption: varchar('smtp_encryption', { length: 8 }).notNull().default('none'),
  },
  (t) => [
    check('settings_single_row', sql`${t.id} = 1`),
    check('settings_storage_place', sql`${t.storagePlace} in ('local', 's3')`),
    check('settings_email_service', sql`${t.emailService} in ('smtp')`),
    check('settings_smtp_encryption', sql`${t.smtpEncryption} in ('none', 'ssl', 'tls')`),
  ],
);

/**
 * Every message the mailer accepted. `pending` rows keep the composed message (`raw`) until it is
 * delivered, so a failed delivery is retried from exactly what was composed; `sent_at` is what the
 * mail statistics count.
 */
export const mails = pgTable(
  'mails',
  {
    id: serial('id').primaryKey(),
    recipient: varchar('recipient', { length: 254 }).notNull(),
    subject: text('subject').notNull(),
    action: varchar('action', { length: 64 }).notNull(),
    status: varchar('status', { length: 8 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    raw: bytea('raw'),
    /** A delivery in progress holds the mail until then, so a retry never sends it a second time. */
    sendingUntil: stamp('sending_until'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    sentAt: stamp('sent_at'),
  },
  (t) => [
    check('mails_status', sql`${t.status} in ('pending', 'sent', 'failed')`),
    index('mails_sent_at_index').on(t.sentAt),
  ],
);

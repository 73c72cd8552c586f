import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { bytea } from './site.js';
import { users } from './users.js';

/** Skills of the assistant: the text lives in the skill repository, everything else here. */
export const skills = pgTable(
  'skills',
  {
    id: serial('id').primaryKey(),
    model: varchar('model', { length: 100 }).notNull(),
    group: varchar('group_name', { length: 100 }).notNull(),
    language: varchar('language', { length: 100 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    authorId: integer('author_id').references(() => users.id),
    authorEmail: varchar('author_email', { length: 254 }),
    image: varchar('image', { length: 100 }),
    staffPick: boolean('staff_pick').notNull().default(false),
    reviewed: boolean('reviewed').notNull().default(false),
    editable: boolean('editable').notNull().default(true),
    /** A skill the assistant itself relies on (the reference's systemSkill status). */
    systemSkill: boolean('system_skill').notNull().default(false),
    createdAt: stamp('created_at').notNull().defaultNow(),
    modifiedAt: stamp('modified_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('skills_path_key').on(t.model, t.group, t.language, t.name),
    index('skills_author_id_idx').on(t.authorId),
  ],
);

/** Uses of a skill per day. */
export const skillUsage = pgTable(
  'skill_usage',
  {
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.day] })],
);

/** One five-star rating and one feedback text per user and skill (both changeable). */
export const skillRatings = pgTable(
  'skill_ratings',
  {
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    stars: integer('stars'),
    feedback: text('feedback'),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
    /** When the stars and the feedback were last given (rows older than these columns: `updated_at`). */
    starsAt: stamp('stars_at'),
    feedbackAt: stamp('feedback_at'),
  },
  (t) => [
    primaryKey({ columns: [t.skillId, t.userId] }),
    index('skill_ratings_user_id_idx').on(t.userId),
    check('skill_ratings_stars', sql`${t.stars} between 1 and 5`),
  ],
);

/** Uses of a skill per client device type (the chat request's `device_type`, `Others` when not given). */
export const skillDeviceUsage = pgTable(
  'skill_device_usage',
  {
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    deviceType: varchar('device_type', { length: 100 }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.deviceType] })],
);

/** Uses of a skill per country (two-letter code) of the chat requests that named one. */
export const skillCountryUsage = pgTable(
  'skill_country_usage',
  {
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    countryCode: varchar('country_code', { length: 2 }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.countryCode] })],
);

/** Positive and negative votes (rateSkill): one per signed-in user, or per address for anonymous callers. */
export const skillVotes = pgTable(
  'skill_votes',
  {
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    /** `user:<id>` or `ip:<address>` */
    voter: varchar('voter', { length: 100 }).notNull(),
    positive: boolean('positive').notNull(),
    votedAt: stamp('voted_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.voter] })],
);

/** Reports of a skill (reportSkill): one per user and skill. */
export const skillReports = pgTable(
  'skill_reports',
  {
    skillId: integer('skill_id')
      .notNull()
      .references(() => skills.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    feedback: text('feedback').notNull(),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.skillId, t.userId] }), index('skill_reports_user_id_idx').on(t.userId)],
);

/**
 * The skill repository as every process shares it: its git commits as bundles, one row per change in
 * commit order (what each process's local repository, a mirror, catches up with before it answers). A
 * `full` row holds the whole history; the rows before it are then dropped.
 */
export const skillRepoBundles = pgTable('skill_repo_bundles', {
  seq: serial('seq').primaryKey(),
  /** The commit the repository's branch points to after this row. */
  head: varchar('head', { length: 40 }).notNull(),
  full: boolean('full').notNull().default(false),
  bundle: bytea('bundle').notNull(),
  createdAt: stamp('created_at').notNull().defaultNow(),
});

import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, primaryKey, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
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
  (t) => [uniqueIndex('skills_path_key').on(t.model, t.group, t.language, t.name), index('skills_author_id_idx').on(t.authorId)],
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
  },
  (t) => [
    primaryKey({ columns: [t.skillId, t.userId] }),
    index('skill_ratings_user_id_idx').on(t.userId),
    check('skill_ratings_stars', sql`${t.stars} between 1 and 5`),
  ],
);

import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { stamp } from './columns.js';
import { users } from './users.js';

export interface GroupSocialLink {
  name: string;
  link: string;
  is_custom?: boolean;
}

/** A group of events run by one user (its owner), which other users follow. */
export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    about: text('about'),
    logoUrl: text('logo_url'),
    bannerUrl: text('banner_url'),
    thumbnailImageUrl: text('thumbnail_image_url'),
    socialLinks: jsonb('social_links').$type<GroupSocialLink[]>(),
    isPromoted: boolean('is_promoted').notNull().default(false),
    /** Kept by the follow and unfollow writes, in their transactions. */
    followerCount: integer('follower_count').notNull().default(0),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
    modifiedAt: stamp('modified_at').notNull().defaultNow(),
    deletedAt: stamp('deleted_at'),
  },
  (t) => [index('groups_user_id_idx').on(t.userId)],
);

/** A user following a group: at most once per user and group. */
export const userFollowGroups = pgTable(
  'user_follow_groups',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: stamp('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_follow_groups_group_user_key').on(t.groupId, t.userId),
    index('user_follow_groups_user_id_idx').on(t.userId),
  ],
);

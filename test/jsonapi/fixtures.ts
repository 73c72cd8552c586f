/**
 * Fixture resources for the engine's own tests: authors (soft delete) write articles (soft delete,
 * hidden from anonymous callers until published), articles carry tags through a join table and
 * have comments. They exercise every kind of relationship the engine supports. Reviews of articles
 * carry the read-only members (attributes and a relationship only the server sets).
 */
import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import type { Test } from 'tap';
import { isStaff } from '../../src/auth/caller.js';
import {
  DateTime,
  Nullable,
  Text,
  defineResource,
  notFound,
  unauthorized,
  type Ctx,
  type Policy,
} from '../../src/jsonapi/index.js';
import { userResource } from '../../src/resources/users/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type TestUser } from '../helpers/users.js';

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

export const authors = pgTable('authors', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  deletedAt: stamp('deleted_at'),
});

export const articles = pgTable('articles', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 200 }).notNull(),
  body: text('body'),
  rating: integer('rating'),
  published: boolean('published').notNull().default(false),
  publishedAt: stamp('published_at'),
  authorId: integer('author_id'),
  deletedAt: stamp('deleted_at'),
});

export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  label: varchar('label', { length: 50 }).notNull(),
});

export const articleTags = pgTable(
  'article_tags',
  { articleId: integer('article_id').notNull(), tagId: integer('tag_id').notNull() },
  (t) => [primaryKey({ columns: [t.articleId, t.tagId] })],
);

export const comments = pgTable('comments', {
  id: serial('id').primaryKey(),
  articleId: integer('article_id').notNull(),
  text: text('text').notNull(),
});

export const reviews = pgTable('reviews', {
  id: serial('id').primaryKey(),
  articleId: integer('article_id').notNull(),
  verdict: text('verdict').notNull(),
  code: text('code').notNull(),
  scores: jsonb('scores'),
  note: text('note'),
  reviewerId: integer('reviewer_id'),
  createdAt: stamp('created_at').notNull(),
});

// The fixture database is a copy of the migrated one: the service's own attendee tags give their table name to these.
export const setupSql = `
  DROP TABLE tags;
  CREATE TABLE authors (id serial PRIMARY KEY, name varchar(100) NOT NULL, deleted_at timestamptz(3));
  CREATE TABLE articles (
    id serial PRIMARY KEY, title varchar(200) NOT NULL, body text, rating integer,
    published boolean NOT NULL DEFAULT false, published_at timestamptz(3),
    author_id integer REFERENCES authors(id), deleted_at timestamptz(3));
  CREATE TABLE tags (id serial PRIMARY KEY, label varchar(50) NOT NULL);
  -- A tag still in use cannot be deleted (no cascade): the engine must answer that as a conflict.
  CREATE TABLE article_tags (
    article_id integer NOT NULL REFERENCES articles(id) ON DELETE CASCADE,
    tag_id integer NOT NULL REFERENCES tags(id),
    PRIMARY KEY (article_id, tag_id));
  CREATE TABLE comments (id serial PRIMARY KEY, article_id integer NOT NULL REFERENCES articles(id), text text NOT NULL);
  CREATE TABLE reviews (
    id serial PRIMARY KEY, article_id integer NOT NULL REFERENCES articles(id), verdict text NOT NULL,
    code text NOT NULL DEFAULT 'rv-' || substr(md5(random()::text), 1, 8), scores jsonb, note text,
    reviewer_id integer REFERENCES authors(id), created_at timestamptz(3) NOT NULL DEFAULT now());
`;

/**
 * Authors 1 Ann, 2 Bob, 3 Cid (soft-deleted), 4 Dee (no articles). Articles: 1 Alpha, 2 Beta (Ann),
 * 3 Gamma (Bob, unpublished), 4 Delta (Bob), 5 Epsilon (Cid), 6 Zeta (no author), 7 Eta (Ann,
 * soft-deleted). Tags 1 news, 2 tech, 3 life, 4 unused. Reviews: 1 of Alpha by Bob, 2 of Beta by
 * Cid (soft-deleted, so its reviewer reads as null).
 */
export const seedSql = `
  INSERT INTO authors (name, deleted_at) VALUES ('Ann', NULL), ('Bob', NULL), ('Cid', now()), ('Dee', NULL);
  INSERT INTO articles (title, body, rating, published, published_at, author_id, deleted_at) VALUES
    ('Alpha', 'a body', 5, true, '2024-01-01T00:00:00Z', 1, NULL),
    ('Beta', 'b body', 3, true, '2024-02-01T00:00:00Z', 1, NULL),
    ('Gamma', NULL, NULL, false, NULL, 2, NULL),
    ('Delta', 'd body', 3, true, '2024-03-01T00:00:00Z', 2, NULL),
    ('Epsilon', 'e body', 1, true, '2024-04-01T00:00:00Z', 3, NULL),
    ('Zeta', 'z body', 4, true, '2024-05-01T00:00:00Z', NULL, NULL),
    ('Eta', 'h body', 2, true, '2024-06-01T00:00:00Z', 1, now());
  INSERT INTO tags (label) VALUES ('news'), ('tech'), ('life'), ('unused');
  INSERT INTO article_tags VALUES (1, 1), (1, 2), (2, 2), (3, 1), (4, 3), (7, 1);
  INSERT INTO comments (article_id, text) VALUES (1, 'first'), (1, 'second'), (3, 'hidden'), (4, 'on delta'), (7, 'gone');
  INSERT INTO reviews (article_id, verdict, code, scores, note, reviewer_id, created_at) VALUES
    (1, 'good', 'rv-one', '{"style": 4, "facts": [5, 3]}', 'for staff', 2, '2024-03-01T10:00:00.5Z'),
    (2, 'fine', 'rv-two', NULL, NULL, 3, '2024-03-02T10:00:00Z');
`;

const loggedIn = (ctx: Ctx) => {
  if (!ctx.caller) throw unauthorized();
};

/** Anyone reads; a logged-in caller writes. */
const openPolicy: Policy = {
  scope: () => undefined,
  list() {},
  read() {},
  create: loggedIn,
  update: loggedIn,
  delete: loggedIn,
};

/** Unpublished articles exist only for logged-in callers. */
const articlePolicy: Policy = {
  ...openPolicy,
  scope: (ctx, t) => (ctx.caller ? undefined : eq(t.published!, true)),
  read(ctx, row) {
    if (!ctx.caller && !row.published) throw notFound();
  },
};

export const authorResource = defineResource({
  type: 'author',
  path: 'authors',
  name: 'Author',
  tag: 'Authors',
  description: 'A fixture author.',
  table: authors,
  softDelete: 'deletedAt',
  attributes: { name: { column: 'name', schema: Text(100, { minLength: 1 }), required: true } },
  relationships: { articles: { kind: 'toMany', type: 'article', foreignKey: 'authorId' } },
  policy: openPolicy,
});

export const articleResource = defineResource({
  type: 'article',
  path: 'articles',
  name: 'Article',
  tag: 'Articles',
  description: 'A fixture article.',
  table: articles,
  softDelete: 'deletedAt',
  attributes: {
    title: { column: 'title', schema: Text(200, { minLength: 1 }), required: true },
    body: { column: 'body', schema: Nullable(Text(10_000)) },
    rating: { column: 'rating', schema: Nullable(Type.Integer({ minimum: 0, maximum: 5 })) },
    published: { column: 'published', schema: Type.Boolean() },
    'published-at': { column: 'publishedAt', schema: Nullable(DateTime()) },
  },
  relationships: {
    author: { kind: 'toOne', type: 'author', column: 'authorId' },
    tags: { kind: 'toMany', type: 'tag', through: { table: articleTags, from: 'articleId', to: 'tagId' } },
    comments: { kind: 'toMany', type: 'comment', foreignKey: 'articleId' },
  },
  policy: articlePolicy,
});

export const tagResource = defineResource({
  type: 'tag',
  path: 'tags',
  name: 'Tag',
  tag: 'Tags',
  description: 'A fixture tag.',
  table: tags,
  attributes: { label: { column: 'label', schema: Text(50, { minLength: 1 }), required: true } },
  relationships: {
    articles: { kind: 'toMany', type: 'article', through: { table: articleTags, from: 'tagId', to: 'articleId' } },
  },
  policy: openPolicy,
});

export const commentResource = defineResource({
  type: 'comment',
  path: 'comments',
  name: 'Comment',
  tag: 'Comments',
  description: 'A fixture comment.',
  table: comments,
  attributes: { text: { column: 'text', schema: Text(1000, { minLength: 1 }), required: true } },
  relationships: { article: { kind: 'toOne', type: 'article', column: 'articleId', required: true } },
  policy: openPolicy,
});

/** Reviews: `code`, `scores`, `created-at` and `note` (private: administrators only) are read-only; the server picks the reviewer. */
export const reviewResource = defineResource({
  type: 'review',
  path: 'reviews',
  name: 'Review',
  tag: 'Reviews',
  description: 'A fixture review.',
  table: reviews,
  attributes: {
    verdict: { column: 'verdict', schema: Text(100, { minLength: 1 }), required: true },
    code: { column: 'code', schema: Text(16, { description: 'generated' }), readOnly: true },
    scores: { column: 'scores', schema: Nullable(Type.Object({}, { additionalProperties: true })), readOnly: true },
    note: { column: 'note', schema: Nullable(Text(100)), readOnly: true, private: true },
    'created-at': { column: 'createdAt', schema: DateTime(), readOnly: true },
  },
  relationships: {
    article: { kind: 'toOne', type: 'article', column: 'articleId', required: true },
    reviewer: { kind: 'toOne', type: 'author', column: 'reviewerId', readOnly: true },
  },
  policy: { ...openPolicy, seesPrivate: (ctx) => (isStaff(ctx.caller) ? sql`true` : sql`false`) },
  hooks: {
    beforeCreate(_ctx, values) {
      values.reviewerId = 4;
    },
  },
});

// Users without their event-domain relationships, whose targets the fixtures do not declare.
export const fixtureResources = [
  authorResource,
  articleResource,
  tagResource,
  commentResource,
  reviewResource,
  { ...userResource, relationships: {} },
];

export interface FixtureApp extends TestApp {
  /** A logged-in (non-admin) caller: sees unpublished articles and may write. */
  user: TestUser;
  /** Runs raw SQL on the test database (the statement is counted in `queries`). */
  sql(query: string): Promise<Record<string, unknown>[]>;
  /** Number of rows in a table, soft-deleted ones included. */
  count(table: string): Promise<number>;
}

/** The app serving the fixtures on a database of its own, seeded unless `seed` is false. */
export async function fixtureApp(
  t: Test,
  { seed = true, extraSql = '', env = {} as Record<string, string> } = {},
): Promise<FixtureApp> {
  const test = await buildTestApp(t, env, {
    resources: fixtureResources,
    setupSql: setupSql + (seed ? seedSql : '') + extraSql,
  });
  const user = await createUser(test.app);
  const sql = async (query: string) => [...(await test.app.sql.unsafe(query))] as Record<string, unknown>[];
  const count = async (table: string) => Number((await sql(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
  return { ...test, user, sql, count };
}

/** The resource identifiers of a list of resource objects, in order. */
export const idsOf = (data: { id: string }[]) => data.map((r) => r.id);

/** The expected `relationships.<name>.links` of a resource. */
export const relLinks = (path: string, id: string | number, name: string) => ({
  self: `/v1/${path}/${id}/relationships/${name}`,
  related: `/v1/${path}/${id}/${name}`,
});

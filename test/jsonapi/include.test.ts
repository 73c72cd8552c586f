import t from 'tap';
import type { Test } from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, idsOf, relLinks } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;

interface Resource {
  type: string;
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { links: unknown; data?: unknown }>;
}

const keys = (resources: Resource[]) => resources.map((r) => `${r.type}:${r.id}`);
const ref = (type: string, id: string | number) => ({ type, id: String(id) });
const linkage = (resources: Resource[], name: string) => resources.map((r) => r.relationships[name]!.data);

async function get(t: Test, url: string, caller?: string) {
  const res = await call(app, { url, token: caller });
  assertDocument(t, res, 200);
  const data: Resource[] = Array.isArray(res.body.data) ? res.body.data : [res.body.data];
  const included: Resource[] = res.body.included;
  t.ok(Array.isArray(included), 'included is present when include is asked');
  const all = [...keys(data), ...keys(included)];
  t.equal(new Set(all).size, all.length, 'no resource appears twice, in included or in data');
  return { body: res.body, data, included };
}

t.test('to-one: included once per related resource, linkage on every primary resource', async (t) => {
  const { data, included } = await get(t, '/v1/articles?include=author');
  t.strictSame(idsOf(data), ['1', '2', '4', '5', '6']);
  t.strictSame(linkage(data, 'author'), [ref('author', 1), ref('author', 1), ref('author', 2), null, null]);
  t.strictSame(included, [
    {
      type: 'author',
      id: '1',
      attributes: { name: 'Ann' },
      relationships: { articles: { links: relLinks('authors', 1, 'articles') } },
      links: { self: '/v1/authors/1' },
    },
    {
      type: 'author',
      id: '2',
      attributes: { name: 'Bob' },
      relationships: { articles: { links: relLinks('authors', 2, 'articles') } },
      links: { self: '/v1/authors/2' },
    },
  ]);
});

t.test('to-many through a foreign key', async (t) => {
  const { data, included } = await get(t, '/v1/articles/1?include=comments');
  t.strictSame(data[0]!.relationships.comments, {
    links: relLinks('articles', 1, 'comments'),
    data: [ref('comment', 1), ref('comment', 2)],
  });
  t.strictSame(included, [
    {
      type: 'comment',
      id: '1',
      attributes: { text: 'first' },
      relationships: { article: { links: relLinks('comments', 1, 'article'), data: ref('article', 1) } },
      links: { self: '/v1/comments/1' },
    },
    {
      type: 'comment',
      id: '2',
      attributes: { text: 'second' },
      relationships: { article: { links: relLinks('comments', 2, 'article'), data: ref('article', 1) } },
      links: { self: '/v1/comments/2' },
    },
  ]);
});

t.test('to-many through a join table: empty linkage is [] and shared tags are included once', async (t) => {
  const { data, included } = await get(t, '/v1/articles?include=tags');
  t.strictSame(linkage(data, 'tags'), [[ref('tag', 1), ref('tag', 2)], [ref('tag', 2)], [ref('tag', 3)], [], []]);
  t.strictSame(keys(included), ['tag:1', 'tag:2', 'tag:3']);
  t.strictSame(
    included.map((r) => r.attributes.label),
    ['news', 'tech', 'life'],
  );
});

t.test('several paths at once, each with its linkage', async (t) => {
  const { data, included } = await get(t, '/v1/articles/1?include=author,tags,comments');
  const rels = data[0]!.relationships;
  t.strictSame(rels.author!.data, ref('author', 1));
  t.strictSame(rels.tags!.data, [ref('tag', 1), ref('tag', 2)]);
  t.strictSame(rels.comments!.data, [ref('comment', 1), ref('comment', 2)]);
  t.strictSame(keys(included).sort(), ['author:1', 'comment:1', 'comment:2', 'tag:1', 'tag:2']);
});

t.test('dotted paths: articles.tags from authors, with linkage on the included articles', async (t) => {
  const { data, included } = await get(t, '/v1/authors?include=articles.tags');
  t.strictSame(idsOf(data), ['1', '2', '4'], 'the soft-deleted author is not listed');
  t.strictSame(linkage(data, 'articles'), [[ref('article', 1), ref('article', 2)], [ref('article', 4)], []]);
  t.strictSame(keys(included), ['article:1', 'article:2', 'article:4', 'tag:1', 'tag:2', 'tag:3']);
  const articles = included.filter((r) => r.type === 'article');
  t.strictSame(linkage(articles, 'tags'), [[ref('tag', 1), ref('tag', 2)], [ref('tag', 2)], [ref('tag', 3)]]);
  t.strictSame(linkage(articles, 'author'), [ref('author', 1), ref('author', 1), ref('author', 2)]);
  t.notOk('data' in articles[0]!.relationships.comments!, 'a relationship that was not loaded has only links');
});

t.test('dotted paths back to the primary type never duplicate primary data', async (t) => {
  const { data, included } = await get(t, '/v1/articles?include=author.articles');
  t.strictSame(idsOf(data), ['1', '2', '4', '5', '6']);
  t.strictSame(keys(included), ['author:1', 'author:2'], "the authors' articles are all primary data already");
  t.strictSame(linkage(included, 'articles'), [[ref('article', 1), ref('article', 2)], [ref('article', 4)]]);
  const page = await get(t, '/v1/articles?include=author.articles&page[size]=1');
  t.strictSame(keys(page.included), ['author:1', 'article:2'], 'articles outside the page are included');
});

t.test('the same resource reached by two paths is included once', async (t) => {
  const { included } = await get(t, '/v1/tags/2?include=articles.author,articles.tags');
  t.strictSame(keys(included), ['article:1', 'article:2', 'author:1', 'tag:1']);
  const article1 = included.find((r) => r.type === 'article' && r.id === '1')!;
  t.strictSame(article1.relationships.author!.data, ref('author', 1));
  t.strictSame(article1.relationships.tags!.data, [ref('tag', 1), ref('tag', 2)], 'linkage from both paths');
});

t.test('soft-deleted and out-of-scope related rows are never included', async (t) => {
  const hidden = await get(t, '/v1/authors/2?include=articles');
  t.strictSame(hidden.data[0]!.relationships.articles!.data, [ref('article', 4)], 'unpublished Gamma is hidden');
  t.strictSame(keys(hidden.included), ['article:4']);
  const seen = await get(t, '/v1/authors/2?include=articles', token);
  t.strictSame(seen.data[0]!.relationships.articles!.data, [ref('article', 3), ref('article', 4)]);
  t.strictSame(keys(seen.included), ['article:3', 'article:4']);
  const deleted = await get(t, '/v1/authors/1?include=articles', token);
  t.strictSame(keys(deleted.included), ['article:1', 'article:2'], 'soft-deleted Eta is not included');
  const tag = await get(t, '/v1/tags/1?include=articles');
  t.strictSame(tag.data[0]!.relationships.articles!.data, [ref('article', 1)]);
  t.strictSame(keys(tag.included), ['article:1']);
  const gone = await get(t, '/v1/articles/5?include=author');
  t.strictSame(gone.data[0]!.relationships.author!.data, null, 'a soft-deleted author links as null');
  t.strictSame(gone.included, []);
  const deep = await get(t, '/v1/comments?include=article.author');
  t.strictSame(linkage(deep.data, 'article'), [ref('article', 1), ref('article', 1), null, ref('article', 4), null]);
  t.strictSame(keys(deep.included), ['article:1', 'article:4', 'author:1', 'author:2']);
});

t.test('included is an empty array when nothing is related', async (t) => {
  const { body } = await get(t, '/v1/articles/6?include=author,tags,comments');
  t.strictSame(body.included, []);
  t.strictSame(body.data.relationships.tags.data, []);
  t.strictSame(body.data.relationships.comments.data, []);
  t.strictSame(body.data.relationships.author.data, null);
});

t.test('include works on related endpoints', async (t) => {
  const one = await get(t, '/v1/articles/1/author?include=articles');
  t.strictSame(keys(one.data), ['author:1']);
  t.strictSame(keys(one.included), ['article:1', 'article:2']);
  const many = await get(t, '/v1/authors/1/articles?include=tags,author');
  t.strictSame(idsOf(many.data), ['1', '2']);
  t.strictSame(keys(many.included).sort(), ['author:1', 'tag:1', 'tag:2']);
});

t.test('include and fields together', async (t) => {
  const { data, included } = await get(t, '/v1/articles/2?include=author&fields[article]=title&fields[author]=name');
  t.strictSame(data[0]!.relationships, {}, 'the primary data keeps only its title');
  t.strictSame(data[0]!.attributes, { title: 'Beta' });
  t.strictSame(included, [
    { type: 'author', id: '1', attributes: { name: 'Ann' }, relationships: {}, links: { self: '/v1/authors/1' } },
  ]);
});

t.test('up to 20 include paths', async (t) => {
  const paths = ['author', 'tags', 'comments', 'author.articles', 'tags.articles', 'comments.article'];
  const include = Array.from({ length: 20 }, (_, i) => paths[i % paths.length]).join(',');
  const res = await call(app, { url: `/v1/articles/1?include=${include}` });
  assertDocument(t, res, 200);
  t.ok(res.body.included.length > 0);
});

t.test('an unknown or invalid include is 400 with source.parameter include', async (t) => {
  const paths = [
    'nothing',
    'author.nothing',
    'author.articles.nothing',
    'title',
    'Author',
    'author,',
    '',
    '.author',
    'author..articles',
    'author.articles.author.articles',
    Array.from({ length: 21 }, () => 'author').join(','),
  ];
  for (const include of paths) {
    const res = await call(app, { url: `/v1/articles?include=${encodeURIComponent(include)}` });
    assertError(t, res, 400, { parameter: 'include' });
  }
  assertError(t, await call(app, { url: '/v1/articles/1?include=nothing' }), 400, { parameter: 'include' });
  assertError(t, await call(app, { url: '/v1/articles/1/author?include=tags' }), 400, { parameter: 'include' });
  assertError(t, await call(app, { url: '/v1/authors/1/articles?include=articles' }), 400, { parameter: 'include' });
});

import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, idsOf } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;

const patch = (url: string, data: Record<string, unknown>, caller: string | null = token) =>
  call(app, { method: 'PATCH', url, token: caller ?? undefined, body: { data } });
const read = async (url: string) => (await call(app, { url, token })).body.data;
const tagsOf = async (article: number) =>
  (await f.sql(`SELECT tag_id FROM article_tags WHERE article_id = ${article} ORDER BY tag_id`)).map((r) => r.tag_id);

t.test('PATCH changes only the attributes it names', async (t) => {
  const before = await read('/v1/articles/2');
  const res = await patch('/v1/articles/2', { type: 'article', id: '2', attributes: { rating: 4 } });
  assertDocument(t, res, 200);
  const expected = { ...before, attributes: { ...before.attributes, rating: 4 } };
  t.strictSame(res.body, { data: expected, links: { self: '/v1/articles/2' }, jsonapi: { version: '1.0' } });
  t.strictSame(await read('/v1/articles/2'), expected, 'stored');
  t.strictSame(await tagsOf(2), [2], 'relationships not named are untouched');
});

t.test('PATCH sets nullable attributes to null, converts date-times, and accepts an empty change', async (t) => {
  const res = await patch('/v1/articles/4', {
    type: 'article',
    id: '4',
    attributes: { body: null, 'published-at': '2025-01-01T01:30:00+01:30' },
  });
  assertDocument(t, res, 200);
  t.equal(res.body.data.attributes.body, null);
  t.equal(res.body.data.attributes['published-at'], '2025-01-01T00:00:00.000Z');
  t.equal(res.body.data.attributes.title, 'Delta');
  const same = await patch('/v1/articles/4', { type: 'article', id: '4' });
  assertDocument(t, same, 200);
  t.strictSame(same.body.data, res.body.data);
  const empty = await patch('/v1/articles/4', { type: 'article', id: '4', attributes: {} });
  t.strictSame(empty.body.data, res.body.data);
});

t.test('PATCH relationships: to-one set and cleared, to-many fully replaced', async (t) => {
  const res = await patch('/v1/articles/1', {
    type: 'article',
    id: '1',
    relationships: { author: { data: { type: 'author', id: '4' } }, tags: { data: [{ type: 'tag', id: '3' }] } },
  });
  assertDocument(t, res, 200);
  t.strictSame(res.body.data.relationships.author.data, { type: 'author', id: '4' });
  t.strictSame(await tagsOf(1), [3], 'tags 1 and 2 were replaced');
  t.equal(res.body.data.attributes.title, 'Alpha', 'attributes not named are untouched');
  const cleared = await patch('/v1/articles/1', {
    type: 'article',
    id: '1',
    relationships: { author: { data: null }, tags: { data: [] } },
  });
  assertDocument(t, cleared, 200);
  t.strictSame(cleared.body.data.relationships.author.data, null);
  t.strictSame(await tagsOf(1), []);
  const moved = await patch('/v1/comments/4', {
    type: 'comment',
    id: '4',
    relationships: { article: { data: { type: 'article', id: '2' } } },
  });
  assertDocument(t, moved, 200);
  t.strictSame(moved.body.data.relationships.article.data, { type: 'article', id: '2' });
});

t.test("PATCH with an id other than the URL's, or another type, is 409; nothing changes", async (t) => {
  const before = await read('/v1/articles/5');
  const other = await patch('/v1/articles/5', { type: 'article', id: '6', attributes: { title: 'X' } });
  assertError(t, other, 409, { pointer: '/data/id' });
  const padded = await patch('/v1/articles/5', { type: 'article', id: '05', attributes: { title: 'X' } });
  assertError(t, padded, 409, { pointer: '/data/id' });
  const type = await patch('/v1/articles/5', { type: 'tag', id: '5', attributes: { title: 'X' } });
  assertError(t, type, 409, { pointer: '/data/type' });
  const relType = await patch('/v1/articles/5', {
    type: 'article',
    id: '5',
    relationships: { author: { data: { type: 'tag', id: '1' } } },
  });
  assertError(t, relType, 409, { pointer: '/data/relationships/author/data/type' });
  t.strictSame(await read('/v1/articles/5'), before);
});

t.test('PATCH refusals are 4xx with nothing changed', async (t) => {
  const before = await read('/v1/articles/6');
  const tags = await tagsOf(6);
  const noId = await patch('/v1/articles/6', { type: 'article', attributes: { title: 'X' } });
  assertError(t, noId, 422, { pointer: '/data/id' });
  assertError(t, await patch('/v1/articles/6', { type: 'article', id: '6', attributes: { title: '' } }), 422, {
    pointer: '/data/attributes/title',
  });
  assertError(t, await patch('/v1/articles/6', { type: 'article', id: '6', attributes: { nothing: 1 } }), 422, {
    pointer: '/data/attributes/nothing',
  });
  assertError(
    t,
    await patch('/v1/articles/6', { type: 'article', id: '6', attributes: { 'published-at': '0000-06-01T00:00:00Z' } }),
    422,
    {
      pointer: '/data/attributes/published-at',
    },
  );
  const missing = await patch('/v1/articles/6', {
    type: 'article',
    id: '6',
    attributes: { title: 'Changed' },
    relationships: {
      tags: {
        data: [
          { type: 'tag', id: '1' },
          { type: 'tag', id: '404' },
        ],
      },
    },
  });
  assertError(t, missing, 404, undefined, /"404" not found/);
  assertError(t, await patch('/v1/articles/6', { type: 'article', id: '6', attributes: { title: 'Y' } }, null), 401);
  t.strictSame(await read('/v1/articles/6'), before);
  t.strictSame(await tagsOf(6), tags);
});

t.test('a required to-one cannot be cleared', async (t) => {
  const res = await patch('/v1/comments/1', { type: 'comment', id: '1', relationships: { article: { data: null } } });
  assertError(t, res, 422, { pointer: '/data/relationships/article/data' });
  const [row] = await f.sql('SELECT article_id FROM comments WHERE id = 1');
  t.equal(row!.article_id, 1);
});

t.test('DELETE answers exactly the deletion meta document', async (t) => {
  const res = await call(app, { method: 'DELETE', url: '/v1/comments/2', token });
  t.equal(res.status, 200);
  t.equal(res.headers['content-type'], 'application/vnd.api+json');
  t.strictSame(res.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
});

t.test('hard delete removes the row', async (t) => {
  t.equal(await f.count('comments'), 4, 'comment 2 is gone from the table');
  assertError(t, await call(app, { url: '/v1/comments/2' }), 404, undefined, 'Object not found.');
  assertError(t, await call(app, { method: 'DELETE', url: '/v1/comments/2', token }), 404);
  const tag = await call(app, {
    method: 'POST',
    url: '/v1/tags',
    token,
    body: { data: { type: 'tag', attributes: { label: 'tmp' } } },
  });
  const del = await call(app, { method: 'DELETE', url: `/v1/tags/${tag.body.data.id}`, token });
  t.equal(del.status, 200);
  t.strictSame(await f.sql(`SELECT id FROM tags WHERE id = ${Number(tag.body.data.id)}`), []);
});

t.test('hard delete of a row others still reference is 409, and the row stays', async (t) => {
  const res = await call(app, { method: 'DELETE', url: '/v1/tags/2', token });
  assertError(t, res, 409, undefined, /still referenced/);
  assertDocument(t, await call(app, { url: '/v1/tags/2' }), 200);
});

t.test('soft delete keeps the row with deleted_at set; it is 404 and gone from lists and includes', async (t) => {
  const res = await call(app, { method: 'DELETE', url: '/v1/authors/2', token });
  t.strictSame(res.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  const [row] = await f.sql(
    "SELECT name, deleted_at > now() - interval '1 minute' AS just_deleted FROM authors WHERE id = 2",
  );
  t.strictSame(row, { name: 'Bob', just_deleted: true }, 'the row is kept, with deleted_at set just now');
  for (const url of ['/v1/authors/2', '/v1/authors/2/articles', '/v1/authors/2/relationships/articles']) {
    assertError(t, await call(app, { url, token }), 404, undefined, 'Object not found.');
  }
  const list = await call(app, { url: '/v1/authors', token });
  t.notOk(idsOf(list.body.data).includes('2'), 'not listed');
  t.equal(list.body.meta.count, 2, 'not counted');
  const article = await call(app, { url: '/v1/articles/3?include=author', token });
  t.strictSame(article.body.data.relationships.author.data, null, 'linkage through include is null');
  t.strictSame(article.body.included, []);
  const related = await call(app, { url: '/v1/articles/3/author', token });
  assertDocument(t, related, 200);
  t.strictSame(related.body.data, null, 'the related endpoint has no author');
  assertError(t, await patch('/v1/authors/2', { type: 'author', id: '2', attributes: { name: 'Back' } }), 404);
  assertError(t, await call(app, { method: 'DELETE', url: '/v1/authors/2', token }), 404);
  const link = await patch('/v1/articles/3', {
    type: 'article',
    id: '3',
    relationships: { author: { data: { type: 'author', id: '2' } } },
  });
  assertError(t, link, 404, undefined, /"2" not found/);
});

t.test('a soft-deleted article disappears from to-many includes and related lists', async (t) => {
  const res = await call(app, { method: 'DELETE', url: '/v1/articles/2', token });
  assertDocument(t, res, 200);
  const tag = await call(app, { url: '/v1/tags/2?include=articles', token });
  t.strictSame(tag.body.data.relationships.articles.data, [], 'article 1 lost its tags earlier, article 2 is deleted');
  const related = await call(app, { url: '/v1/tags/2/articles', token });
  t.strictSame(related.body.data, []);
  t.strictSame(related.body.meta, { count: 0 });
  t.equal((await f.sql('SELECT count(*)::int AS n FROM articles WHERE id = 2 AND deleted_at IS NOT NULL'))[0]!.n, 1);
});

t.test('an anonymous DELETE is 401 and deletes nothing', async (t) => {
  assertError(t, await call(app, { method: 'DELETE', url: '/v1/comments/1' }), 401);
  t.equal((await f.sql('SELECT count(*)::int AS n FROM comments WHERE id = 1'))[0]!.n, 1);
});

import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, relLinks } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;

type Method = 'GET' | 'PATCH' | 'POST' | 'DELETE';
const rel = (method: Method, url: string, data?: unknown, caller: string | null = token) =>
  call(app, { method, url, token: caller ?? undefined, ...(data !== undefined ? { body: { data } } : {}) });
const ref = (type: string, id: string | number) => ({ type, id: String(id) });
const tags = (...ids: number[]) => ids.map((id) => ref('tag', id));
const linkageDoc = (path: string, id: number, name: string, data: unknown) => ({
  links: relLinks(path, id, name),
  data,
  jsonapi: { version: '1.0' },
});
const tagsOf = async (article: number) =>
  (await f.sql(`SELECT tag_id FROM article_tags WHERE article_id = ${article} ORDER BY tag_id`)).map((r) => r.tag_id);
const authorOf = async (article: number) =>
  (await f.sql(`SELECT author_id FROM articles WHERE id = ${article}`))[0]!.author_id;

t.test('GET linkage of a to-one relationship', async (t) => {
  const res = await rel('GET', '/v1/articles/1/relationships/author', undefined, null);
  assertDocument(t, res, 200);
  t.strictSame(res.body, linkageDoc('articles', 1, 'author', ref('author', 1)));
  const none = await rel('GET', '/v1/articles/6/relationships/author', undefined, null);
  t.strictSame(none.body, linkageDoc('articles', 6, 'author', null));
  const deleted = await rel('GET', '/v1/articles/5/relationships/author', undefined, null);
  t.strictSame(deleted.body, linkageDoc('articles', 5, 'author', null), 'a soft-deleted author is no linkage');
});

t.test('GET linkage of to-many relationships, by join table and by foreign key, within the scope', async (t) => {
  const join = await rel('GET', '/v1/articles/1/relationships/tags', undefined, null);
  assertDocument(t, join, 200);
  t.strictSame(join.body, linkageDoc('articles', 1, 'tags', tags(1, 2)));
  const fk = await rel('GET', '/v1/articles/1/relationships/comments', undefined, null);
  t.strictSame(fk.body, linkageDoc('articles', 1, 'comments', [ref('comment', 1), ref('comment', 2)]));
  const scoped = await rel('GET', '/v1/authors/2/relationships/articles', undefined, null);
  t.strictSame(scoped.body, linkageDoc('authors', 2, 'articles', [ref('article', 4)]), 'unpublished hidden');
  const seen = await rel('GET', '/v1/authors/2/relationships/articles');
  t.strictSame(seen.body.data, [ref('article', 3), ref('article', 4)]);
  const empty = await rel('GET', '/v1/tags/4/relationships/articles', undefined, null);
  t.strictSame(empty.body, linkageDoc('tags', 4, 'articles', []));
});

t.test('PATCH a to-one: set it, then clear it with null', async (t) => {
  const set = await rel('PATCH', '/v1/articles/6/relationships/author', ref('author', 2));
  assertDocument(t, set, 200);
  t.strictSame(set.body, linkageDoc('articles', 6, 'author', ref('author', 2)));
  t.equal(await authorOf(6), 2);
  const cleared = await rel('PATCH', '/v1/articles/6/relationships/author', null);
  assertDocument(t, cleared, 200);
  t.strictSame(cleared.body, linkageDoc('articles', 6, 'author', null));
  t.equal(await authorOf(6), null);
});

t.test('PATCH a to-many join relationship replaces it entirely', async (t) => {
  const res = await rel('PATCH', '/v1/articles/2/relationships/tags', tags(3, 1));
  assertDocument(t, res, 200);
  t.strictSame(res.body, linkageDoc('articles', 2, 'tags', tags(1, 3)));
  t.strictSame(await tagsOf(2), [1, 3]);
  const empty = await rel('PATCH', '/v1/articles/2/relationships/tags', []);
  t.strictSame(empty.body.data, []);
  t.strictSame(await tagsOf(2), []);
  const other = await rel('PATCH', '/v1/tags/4/relationships/articles', [ref('article', 2)]);
  t.strictSame(
    other.body,
    linkageDoc('tags', 4, 'articles', [ref('article', 2)]),
    'the join table works from both sides',
  );
  t.strictSame(await tagsOf(2), [4]);
});

t.test('POST adds to a to-many (idempotently), DELETE removes', async (t) => {
  await rel('PATCH', '/v1/articles/4/relationships/tags', tags(3));
  const added = await rel('POST', '/v1/articles/4/relationships/tags', tags(1, 3, 4));
  assertDocument(t, added, 200);
  t.strictSame(added.body, linkageDoc('articles', 4, 'tags', tags(1, 3, 4)));
  const again = await rel('POST', '/v1/articles/4/relationships/tags', tags(1, 1));
  assertDocument(t, again, 200);
  t.strictSame(again.body.data, tags(1, 3, 4), 'adding a linked tag again changes nothing');
  const removed = await rel('DELETE', '/v1/articles/4/relationships/tags', tags(1, 4));
  assertDocument(t, removed, 200);
  t.strictSame(removed.body, linkageDoc('articles', 4, 'tags', tags(3)));
  const absent = await rel('DELETE', '/v1/articles/4/relationships/tags', tags(2));
  assertDocument(t, absent, 200);
  t.strictSame(absent.body.data, tags(3), 'removing an unlinked tag changes nothing');
  t.strictSame(await tagsOf(4), [3]);
});

t.test('POST and DELETE on a to-one are 405 with Allow', async (t) => {
  for (const method of ['POST', 'DELETE'] as const) {
    const res = await rel(method, '/v1/articles/1/relationships/author', ref('author', 2));
    assertError(t, res, 405);
    t.equal(res.headers.allow, 'GET, HEAD, PATCH');
  }
  t.equal(await authorOf(1), 1);
});

t.test('a to-many through a foreign key is read-only: 405 with Allow', async (t) => {
  for (const method of ['PATCH', 'POST', 'DELETE'] as const) {
    for (const url of ['/v1/articles/1/relationships/comments', '/v1/authors/1/relationships/articles']) {
      const res = await rel(method, url, []);
      assertError(t, res, 405, undefined, 'Allowed methods: GET, HEAD');
      t.equal(res.headers.allow, 'GET, HEAD');
    }
  }
  t.equal(await f.count('comments'), 5);
});

t.test('a wrong identifier type is 409, and nothing changes', async (t) => {
  assertError(t, await rel('PATCH', '/v1/articles/1/relationships/author', ref('tag', 1)), 409, {
    pointer: '/data/type',
  });
  for (const method of ['PATCH', 'POST', 'DELETE'] as const) {
    const res = await rel(method, '/v1/articles/1/relationships/tags', [ref('tag', 3), ref('author', 1)]);
    assertError(t, res, 409, { pointer: '/data/1/type' });
  }
  t.equal(await authorOf(1), 1);
  t.strictSame(await tagsOf(1), [1, 2]);
});

t.test('a related id that does not exist is 404, and nothing changes', async (t) => {
  assertError(
    t,
    await rel('PATCH', '/v1/articles/1/relationships/author', ref('author', 999)),
    404,
    undefined,
    /"999" not found/,
  );
  assertError(
    t,
    await rel('PATCH', '/v1/articles/1/relationships/author', ref('author', 3)),
    404,
    undefined,
    /"3" not found/,
  );
  assertError(t, await rel('PATCH', '/v1/articles/1/relationships/author', ref('author', 'x')), 404);
  assertError(
    t,
    await rel('PATCH', '/v1/articles/1/relationships/tags', tags(3, 999)),
    404,
    undefined,
    /"999" not found/,
  );
  assertError(
    t,
    await rel('POST', '/v1/articles/1/relationships/tags', tags(3, 999)),
    404,
    undefined,
    /"999" not found/,
  );
  assertError(t, await rel('PATCH', '/v1/comments/1/relationships/article', ref('article', 7)), 404);
  t.equal(await authorOf(1), 1);
  t.strictSame(await tagsOf(1), [1, 2]);
});

t.test('a malformed relationship body is 422; a required to-one cannot be cleared', async (t) => {
  assertError(t, await rel('PATCH', '/v1/articles/1/relationships/author', tags(1)), 422, { pointer: '/data' });
  assertError(t, await rel('PATCH', '/v1/articles/1/relationships/tags', ref('tag', 1)), 422, { pointer: '/data' });
  assertError(t, await rel('POST', '/v1/articles/1/relationships/tags', null), 422, { pointer: '/data' });
  assertError(t, await rel('PATCH', '/v1/articles/1/relationships/tags', [{ type: 'tag' }]), 422, {
    pointer: '/data/0/id',
  });
  const noData = await call(app, { method: 'PATCH', url: '/v1/articles/1/relationships/tags', token, body: {} });
  assertError(t, noData, 422, { pointer: '/data' });
  const required = await rel('PATCH', '/v1/comments/1/relationships/article', null);
  assertError(t, required, 422, { pointer: '/data' });
  t.equal((await f.sql('SELECT article_id FROM comments WHERE id = 1'))[0]!.article_id, 1);
  t.strictSame(await tagsOf(1), [1, 2]);
});

t.test('relationship writes need a caller and an existing, visible parent', async (t) => {
  assertError(t, await rel('PATCH', '/v1/articles/1/relationships/tags', [], null), 401);
  assertError(t, await rel('PATCH', '/v1/articles/7/relationships/tags', []), 404, undefined, 'Object not found.');
  assertError(t, await rel('POST', '/v1/articles/999/relationships/tags', []), 404, undefined, 'Object not found.');
  t.strictSame(await tagsOf(7), [1], 'the soft-deleted article kept its tag');
});

t.test('a to-many related endpoint is a full list limited to the parent', async (t) => {
  const res = await call(app, { url: '/v1/authors/1/articles' });
  assertDocument(t, res, 200);
  t.strictSame(
    res.body.data.map((r: { id: string }) => r.id),
    ['1', '2'],
  );
  t.strictSame(res.body.data[0].relationships.author.data, ref('author', 1));
  t.strictSame(res.body.meta, { count: 2 });
  t.equal(res.body.links.self, '/v1/authors/1/articles?page%5Bsize%5D=20&page%5Bnumber%5D=1');
  const paged = await call(app, { url: '/v1/authors/1/articles?page[size]=1&page[number]=2&sort=-title' });
  t.strictSame(
    paged.body.data.map((r: { id: string }) => r.id),
    ['1'],
  );
  t.strictSame(paged.body.meta, { count: 2 });
  t.equal(paged.body.links.next, null);
  t.match(paged.body.links.prev, /^\/v1\/authors\/1\/articles\?sort=-title&/);
  const filtered = await call(app, {
    url: `/v1/authors/1/articles?filter=${encodeURIComponent('[{"name":"title","op":"eq","val":"Delta"}]')}`,
  });
  t.strictSame(filtered.body.data, [], "Bob's article is not Ann's");
  t.strictSame(filtered.body.meta, { count: 0 });
  const join = await call(app, { url: '/v1/tags/1/articles' });
  t.strictSame(
    join.body.data.map((r: { id: string }) => r.id),
    ['1'],
    'scope and soft delete apply',
  );
  const joinSeen = await call(app, { url: '/v1/tags/1/articles', token });
  t.strictSame(
    joinSeen.body.data.map((r: { id: string }) => r.id),
    ['1', '3'],
  );
  t.strictSame(joinSeen.body.meta, { count: 2 });
  const fk = await call(app, { url: '/v1/articles/1/comments?sort=-text' });
  t.strictSame(
    fk.body.data.map((r: { attributes: { text: string } }) => r.attributes.text),
    ['second', 'first'],
  );
  const none = await call(app, { url: '/v1/authors/4/articles' });
  assertDocument(t, none, 200);
  t.strictSame(none.body.data, []);
  t.strictSame(none.body.meta, { count: 0 });
});

t.test('a to-one related endpoint gives the related resource or null', async (t) => {
  const res = await call(app, { url: '/v1/articles/1/author' });
  assertDocument(t, res, 200);
  t.strictSame(res.body, {
    data: {
      type: 'author',
      id: '1',
      attributes: { name: 'Ann' },
      relationships: { articles: { links: relLinks('authors', 1, 'articles') } },
      links: { self: '/v1/authors/1' },
    },
    links: { self: '/v1/articles/1/author' },
    jsonapi: { version: '1.0' },
  });
  for (const [url, why] of [
    ['/v1/articles/6/author', 'no author'],
    ['/v1/articles/5/author', 'a soft-deleted author'],
    ['/v1/comments/3/article', 'an article the caller may not see'],
    ['/v1/comments/5/article', 'a soft-deleted article'],
  ]) {
    const none = await call(app, { url: url! });
    assertDocument(t, none, 200);
    t.strictSame(none.body, { data: null, links: { self: url }, jsonapi: { version: '1.0' } }, why);
  }
  const sparse = await call(app, { url: '/v1/comments/1/article?fields[article]=title' });
  t.strictSame(sparse.body.data.attributes, { title: 'Alpha' });
  // List clients send their page parameters to to-one related endpoints too (the front end's
  // `event.query('speakersCall', {'page[size]': 0})`): checked as a list checks them, no effect.
  const paged = await call(app, { url: '/v1/articles/1/author?page[size]=0&page[number]=2' });
  assertDocument(t, paged, 200);
  t.strictSame(paged.body.data, res.body.data, 'the page parameters change nothing');
  assertError(t, await call(app, { url: '/v1/articles/1/author?page[size]=-1' }), 400, { parameter: 'page[size]' });
  assertError(t, await call(app, { url: '/v1/articles/1/author?page[limit]=1' }), 400, { parameter: 'page[limit]' });
  // And sort and filter (the reference's blueprint reads an event's copyright with `sort=year&filter=[]`).
  const sorted = await call(app, { url: '/v1/articles/1/author?sort=name&filter=[]&page[size]=10' });
  assertDocument(t, sorted, 200);
  t.strictSame(sorted.body.data, res.body.data, 'sort and filter change nothing');
  assertError(t, await call(app, { url: `/v1/articles/1/author?sort=${'n'.repeat(501)}` }), 400, { parameter: 'sort' });
  assertError(t, await call(app, { url: '/v1/articles/999/author' }), 404, undefined, 'Object not found.');
});

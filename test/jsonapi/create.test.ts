import t from 'tap';
import type { Test } from 'tap';
import { assertDocument, assertError, call, JSONAPI } from '../helpers/app.js';
import { fixtureApp, relLinks } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;

const article = (attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>) => ({
  data: { type: 'article', attributes: { title: 'New', ...attributes }, ...(relationships ? { relationships } : {}) },
});
const post = (body: unknown, url = '/v1/articles', caller: string | null = token) =>
  call(app, { method: 'POST', url, token: caller ?? undefined, body });
const tables = ['articles', 'article_tags', 'comments', 'tags', 'authors'];
const counts = async () => Object.fromEntries(await Promise.all(tables.map(async (n) => [n, await f.count(n)])));

/** Runs a request that must fail and checks that no table changed. */
async function refused(t: Test, request: Promise<Awaited<ReturnType<typeof call>>>, before: Record<string, number>) {
  const res = await request;
  t.strictSame(await counts(), before, 'nothing was written');
  return res;
}

t.test('201 with Location equal to data.links.self and the whole stored resource', async (t) => {
  const res = await post(
    article({ body: 'text', rating: 2, published: true, 'published-at': '2024-07-01T12:00:00+02:00' }),
  );
  assertDocument(t, res, 201);
  const id = res.body.data.id as string;
  t.match(id, /^\d+$/, 'the server assigns a string id');
  t.equal(res.headers.location, `/v1/articles/${id}`);
  t.equal(res.headers.location, res.body.data.links.self);
  t.strictSame(res.body, {
    data: {
      type: 'article',
      id,
      attributes: {
        title: 'New',
        body: 'text',
        rating: 2,
        published: true,
        'published-at': '2024-07-01T10:00:00.000Z',
      },
      relationships: {
        author: { links: relLinks('articles', id, 'author'), data: null },
        tags: { links: relLinks('articles', id, 'tags') },
        comments: { links: relLinks('articles', id, 'comments') },
      },
      links: { self: `/v1/articles/${id}` },
    },
    links: { self: `/v1/articles/${id}` },
    jsonapi: { version: '1.0' },
  });
  const read = await call(app, { url: res.headers.location as string });
  assertDocument(t, read, 200);
  t.strictSame(read.body.data, res.body.data, 'reading it back gives the same resource');
});

t.test('optional attributes take their defaults', async (t) => {
  const res = await post(article());
  assertDocument(t, res, 201);
  t.strictSame(res.body.data.attributes, {
    title: 'New',
    body: null,
    rating: null,
    published: false,
    'published-at': null,
  });
});

t.test('relationships in the body are stored: to-one and to-many through a join table', async (t) => {
  const res = await post(
    article(
      { published: true },
      {
        author: { data: { type: 'author', id: '2' } },
        tags: {
          data: [
            { type: 'tag', id: '3' },
            { type: 'tag', id: '1' },
            { type: 'tag', id: '3' },
          ],
        },
      },
    ),
  );
  assertDocument(t, res, 201);
  const id = res.body.data.id as string;
  t.strictSame(res.body.data.relationships.author.data, { type: 'author', id: '2' });
  const [row] = await f.sql(`SELECT author_id FROM articles WHERE id = ${Number(id)}`);
  t.equal(row!.author_id, 2);
  t.strictSame(await f.sql(`SELECT tag_id FROM article_tags WHERE article_id = ${Number(id)} ORDER BY tag_id`), [
    { tag_id: 1 },
    { tag_id: 3 },
  ]);
  const read = await call(app, { url: `/v1/articles/${id}?include=tags,author` });
  t.strictSame(read.body.data.relationships.tags.data, [
    { type: 'tag', id: '1' },
    { type: 'tag', id: '3' },
  ]);
  const toOne = await post(
    {
      data: {
        type: 'comment',
        attributes: { text: 'hi' },
        relationships: { article: { data: { type: 'article', id } } },
      },
    },
    '/v1/comments',
  );
  assertDocument(t, toOne, 201);
  t.strictSame(toOne.body.data.relationships.article.data, { type: 'article', id });
  const empty = await post(article({}, { author: { data: null }, tags: { data: [] } }));
  assertDocument(t, empty, 201);
  t.strictSame(empty.body.data.relationships.author.data, null);
});

t.test('a client-generated id is 403, and nothing is written', async (t) => {
  const before = await counts();
  const res = await refused(t, post({ data: { ...article().data, id: '1000' } }), before);
  assertError(t, res, 403, { pointer: '/data/id' });
});

t.test('a wrong type is 409, in the resource or in a relationship', async (t) => {
  const before = await counts();
  for (const type of ['tag', 'articles', 'Article', '']) {
    const res = await refused(t, post({ data: { ...article().data, type } }), before);
    assertError(t, res, 409, { pointer: '/data/type' });
  }
  const author = await refused(t, post(article({}, { author: { data: { type: 'tag', id: '1' } } })), before);
  assertError(t, author, 409, { pointer: '/data/relationships/author/data/type' });
  const tags = await refused(
    t,
    post(
      article(
        {},
        {
          tags: {
            data: [
              { type: 'tag', id: '1' },
              { type: 'author', id: '1' },
            ],
          },
        },
      ),
    ),
    before,
  );
  assertError(t, tags, 409, { pointer: '/data/relationships/tags/data/1/type' });
});

t.test('a related id that does not exist (or is soft-deleted) is 404, and nothing is written', async (t) => {
  const before = await counts();
  const cases: [string, Record<string, unknown>][] = [
    ['999', { author: { data: { type: 'author', id: '999' } } }],
    ['abc', { author: { data: { type: 'author', id: 'abc' } } }],
    ['3', { author: { data: { type: 'author', id: '3' } } }],
    ['99999999999', { author: { data: { type: 'author', id: '99999999999' } } }],
    [
      '999',
      {
        tags: {
          data: [
            { type: 'tag', id: '1' },
            { type: 'tag', id: '999' },
          ],
        },
      },
    ],
    ['999', { author: { data: { type: 'author', id: '1' } }, tags: { data: [{ type: 'tag', id: '999' }] } }],
  ];
  for (const [id, relationships] of cases) {
    const res = await refused(t, post(article({}, relationships)), before);
    assertError(t, res, 404, undefined, new RegExp(`"${id}" not found`));
  }
  const comment = {
    data: {
      type: 'comment',
      attributes: { text: 'x' },
      relationships: { article: { data: { type: 'article', id: '7' } } },
    },
  };
  assertError(t, await refused(t, post(comment, '/v1/comments'), before), 404);
});

t.test('validation errors are 422 pointing at the attribute, and nothing is written', async (t) => {
  const before = await counts();
  const cases: [Record<string, unknown>, string][] = [
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ title: 5 }, 'title'],
    [{ title: null }, 'title'],
    [{ title: 'a\u0000b' }, 'title'],
    [{ body: 5 }, 'body'],
    [{ rating: 6 }, 'rating'],
    [{ rating: -1 }, 'rating'],
    [{ rating: 1.5 }, 'rating'],
    [{ rating: '3' }, 'rating'],
    [{ published: 'true' }, 'published'],
    [{ published: null }, 'published'],
    [{ 'published-at': 'yesterday' }, 'published-at'],
    [{ 'published-at': '2024-02-30T00:00:00Z' }, 'published-at'],
    [{ 'published-at': '0000-01-01T00:00:00Z' }, 'published-at'],
    [{ nothing: 1 }, 'nothing'],
    [{ publishedAt: '2024-01-01T00:00:00Z' }, 'publishedAt'],
  ];
  for (const [attributes, name] of cases) {
    const res = await refused(t, post(article(attributes)), before);
    assertError(t, res, 422, { pointer: `/data/attributes/${name}` });
  }
});

t.test('a missing required attribute or relationship is 422', async (t) => {
  const before = await counts();
  const noTitle = await refused(t, post({ data: { type: 'article', attributes: { body: 'x' } } }), before);
  assertError(t, noTitle, 422, { pointer: '/data/attributes/title' }, /required/);
  const noAttributes = await refused(t, post({ data: { type: 'article' } }), before);
  assertError(t, noAttributes, 422, { pointer: '/data/attributes' }, /required/);
  const comment = (relationships?: unknown) => ({
    data: { type: 'comment', attributes: { text: 'x' }, ...(relationships ? { relationships } : {}) },
  });
  assertError(t, await refused(t, post(comment(), '/v1/comments'), before), 422, { pointer: '/data/relationships' });
  assertError(t, await refused(t, post(comment({}), '/v1/comments'), before), 422, {
    pointer: '/data/relationships/article',
  });
  const cleared = await refused(t, post(comment({ article: { data: null } }), '/v1/comments'), before);
  assertError(t, cleared, 422, { pointer: '/data/relationships/article/data' });
});

t.test('a malformed document is 422, a read-only relationship cannot be written', async (t) => {
  const before = await counts();
  const cases: [unknown, string][] = [
    [{}, '/data'],
    [{ data: [article().data] }, '/data'],
    [{ data: null }, '/data'],
    [{ ...article(), meta: {} }, '/meta'],
    [{ data: { ...article().data, links: {} } }, '/data/links'],
    [article({}, { comments: { data: [{ type: 'comment', id: '1' }] } }), '/data/relationships/comments'],
    [article({}, { nothing: { data: null } }), '/data/relationships/nothing'],
    [article({}, { author: { type: 'author', id: '1' } }), '/data/relationships/author/data'],
    [article({}, { author: { data: { type: 'author', id: 1 } } }), '/data/relationships/author/data/id'],
    [article({}, { tags: { data: { type: 'tag', id: '1' } } }), '/data/relationships/tags/data'],
  ];
  for (const [body, pointer] of cases) {
    assertError(t, await refused(t, post(body), before), 422, { pointer });
  }
});

t.test('malformed JSON or an empty body is 400, and nothing is written', async (t) => {
  const before = await counts();
  for (const payload of ['{"data":', '{data: {}}', 'nope', '[1,']) {
    const res = await refused(t, post(payload), before);
    assertError(t, res, 400);
  }
  const empty = await app.inject({
    method: 'POST',
    url: '/v1/articles',
    headers: { 'content-type': JSONAPI, authorization: `JWT ${token}` },
  });
  assertError(t, { status: empty.statusCode, headers: empty.headers, body: empty.json() }, 400);
  t.strictSame(await counts(), before);
});

t.test('an anonymous create is 401, and nothing is written', async (t) => {
  const before = await counts();
  const res = await refused(
    t,
    post(article({}, { tags: { data: [{ type: 'tag', id: '1' }] } }), '/v1/articles', null),
    before,
  );
  assertError(t, res, 401);
  t.equal(res.headers['www-authenticate'], 'JWT');
});

t.test('a read-only attribute is refused in a create', async (t) => {
  const res = await post(
    {
      data: {
        type: 'user',
        attributes: { email: 'ro@example.com', password: 'long enough', 'created-at': '2024-01-01T00:00:00Z' },
      },
    },
    '/v1/users',
    null,
  );
  assertError(t, res, 422, { pointer: '/data/attributes/created-at' });
  t.equal((await f.sql(`SELECT count(*)::int AS n FROM users WHERE email = 'ro@example.com'`))[0]!.n, 0);
});

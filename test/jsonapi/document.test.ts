import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, relLinks } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;

/** Article 1 exactly as a client sees it without include. */
const alpha = {
  type: 'article',
  id: '1',
  attributes: {
    title: 'Alpha',
    body: 'a body',
    rating: 5,
    published: true,
    'published-at': '2024-01-01T00:00:00.000Z',
  },
  relationships: {
    author: { links: relLinks('articles', 1, 'author'), data: { type: 'author', id: '1' } },
    tags: { links: relLinks('articles', 1, 'tags') },
    comments: { links: relLinks('articles', 1, 'comments') },
  },
  links: { self: '/v1/articles/1' },
};

t.test('a single resource document: type, string id, attributes, relationships with links, self link', async (t) => {
  const res = await call(app, { url: '/v1/articles/1' });
  assertDocument(t, res, 200);
  t.strictSame(res.body, { data: alpha, links: { self: '/v1/articles/1' }, jsonapi: { version: '1.0' } });
});

t.test('to-one linkage is always present: null when there is no related resource', async (t) => {
  const res = await call(app, { url: '/v1/articles/6' });
  assertDocument(t, res, 200);
  t.strictSame(res.body.data.relationships.author, { links: relLinks('articles', 6, 'author'), data: null });
  t.equal(res.body.data.attributes.title, 'Zeta');
});

t.test('null attributes are present as null, not left out', async (t) => {
  const res = await call(app, { url: '/v1/articles/3', token });
  assertDocument(t, res, 200);
  t.strictSame(res.body.data.attributes, {
    title: 'Gamma',
    body: null,
    rating: null,
    published: false,
    'published-at': null,
  });
});

t.test('a resource without to-one relationships has only links in its relationships', async (t) => {
  const res = await call(app, { url: '/v1/tags/2' });
  assertDocument(t, res, 200);
  t.strictSame(res.body, {
    data: {
      type: 'tag',
      id: '2',
      attributes: { label: 'tech' },
      relationships: { articles: { links: relLinks('tags', 2, 'articles') } },
      links: { self: '/v1/tags/2' },
    },
    links: { self: '/v1/tags/2' },
    jsonapi: { version: '1.0' },
  });
});

t.test('a list document: data, links, meta.count and jsonapi, nothing else', async (t) => {
  const res = await call(app, { url: '/v1/articles?page[size]=1' });
  assertDocument(t, res, 200);
  t.same(Object.keys(res.body).sort(), ['data', 'jsonapi', 'links', 'meta']);
  t.strictSame(res.body.data, [alpha]);
  t.strictSame(res.body.meta, { count: 5 });
  t.same(Object.keys(res.body.links).sort(), ['first', 'last', 'next', 'prev', 'self']);
});

t.test('write-only attributes are never returned', async (t) => {
  const self = await call(app, { url: `/v1/users/${f.user.id}`, token });
  assertDocument(t, self, 200);
  t.notOk('password' in self.body.data.attributes);
  t.notOk('password-hash' in self.body.data.attributes);
  t.equal(self.body.data.attributes.email, f.user.email);
});

t.test('out-of-scope rows are 404 to callers that may not see them', async (t) => {
  assertError(t, await call(app, { url: '/v1/articles/3' }), 404, undefined, 'Object not found.');
  assertError(t, await call(app, { url: '/v1/articles/3/tags' }), 404, undefined, 'Object not found.');
  assertError(t, await call(app, { url: '/v1/articles/3/relationships/tags' }), 404);
  assertDocument(t, await call(app, { url: '/v1/articles/3', token }), 200);
});

t.test('soft-deleted rows are 404, even to a logged-in caller', async (t) => {
  for (const url of [
    '/v1/articles/7',
    '/v1/articles/7/tags',
    '/v1/articles/7/author',
    '/v1/articles/7/relationships/tags',
    '/v1/authors/3',
  ]) {
    assertError(t, await call(app, { url, token }), 404, undefined, 'Object not found.');
  }
});

t.test('unknown, non-numeric and out-of-range ids are 404 Object not found.', async (t) => {
  const ids = ['999', '0', '-1', 'abc', '1.5', '1e3', '%20', '2147483648', '99999999999', '00000000001x'];
  for (const id of ids) {
    for (const suffix of ['', '/tags', '/author', '/relationships/tags', '/relationships/author']) {
      const res = await call(app, { url: `/v1/articles/${id}${suffix}` });
      assertError(t, res, 404, undefined, 'Object not found.');
    }
  }
  const patch = await call(app, {
    method: 'PATCH',
    url: '/v1/articles/2147483648',
    token,
    body: { data: { type: 'article', id: '2147483648', attributes: { title: 'x' } } },
  });
  assertError(t, patch, 404, undefined, 'Object not found.');
  assertError(
    t,
    await call(app, { method: 'DELETE', url: '/v1/articles/abc', token }),
    404,
    undefined,
    'Object not found.',
  );
});

t.test('the largest int32 id is a valid id that simply does not exist', async (t) => {
  assertError(t, await call(app, { url: '/v1/articles/2147483647' }), 404, undefined, 'Object not found.');
});

t.test('unknown routes are 404 with the error document', async (t) => {
  for (const url of ['/v1/nowhere', '/v1/articles/1/nothing', '/v1/articles/1/relationships/nothing', '/v2/articles']) {
    assertError(t, await call(app, { url }), 404, undefined, /^No route for GET /);
  }
});

t.test('a wrong method on a known path is 405 with an Allow header', async (t) => {
  const cases: [string, 'PUT' | 'DELETE' | 'PATCH' | 'POST', string[]][] = [
    ['/v1/articles', 'PUT', ['GET', 'HEAD', 'POST']],
    ['/v1/articles', 'DELETE', ['GET', 'HEAD', 'POST']],
    ['/v1/articles/1', 'POST', ['GET', 'HEAD', 'PATCH', 'DELETE']],
    ['/v1/articles/1', 'PUT', ['GET', 'HEAD', 'PATCH', 'DELETE']],
    ['/v1/articles/1/tags', 'POST', ['GET', 'HEAD']],
    ['/v1/articles/1/relationships/tags', 'PUT', ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE']],
  ];
  for (const [url, method, allow] of cases) {
    const res = await call(app, { method, url, token, body: { data: [] } });
    assertError(t, res, 405, undefined, `Allowed methods: ${allow.join(', ')}`);
    t.equal(res.headers.allow, allow.join(', '), `${method} ${url}: Allow`);
  }
});

t.test('an unknown query parameter is 400 naming it', async (t) => {
  assertError(t, await call(app, { url: '/v1/articles/1?foo=bar' }), 400, { parameter: 'foo' });
  assertError(t, await call(app, { url: '/v1/articles?foo=bar' }), 400, { parameter: 'foo' });
  assertError(t, await call(app, { url: '/v1/articles/1?page[size]=2' }), 400, { parameter: 'page[size]' });
  assertError(t, await call(app, { url: '/v1/articles/1?fields[nothing]=x' }), 400, { parameter: 'fields[nothing]' });
});

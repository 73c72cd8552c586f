import t from 'tap';
import { assertDocument, assertError, call, JSONAPI } from '../helpers/app.js';
import { fixtureApp } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;
const newTag = { data: { type: 'tag', attributes: { label: 'media' } } };

t.test('a request body of another type or with media type parameters is 415, and nothing is written', async (t) => {
  const before = await f.count('tags');
  for (const type of [
    'application/json',
    'text/plain',
    `${JSONAPI}; charset=utf-8`,
    `${JSONAPI}; ext="https://jsonapi.org/ext/atomic"`,
    `${JSONAPI};profile=x`,
  ]) {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/tags',
      token,
      body: newTag,
      headers: { 'content-type': type },
    });
    assertError(t, res, 415, undefined, `Content-Type must be exactly ${JSONAPI}`);
  }
  t.equal(await f.count('tags'), before, 'no tag was created');
});

t.test('415 applies to PATCH and to relationship bodies as well', async (t) => {
  const patch = await call(app, {
    method: 'PATCH',
    url: '/v1/tags/1',
    token,
    body: { data: { type: 'tag', id: '1', attributes: { label: 'changed' } } },
    headers: { 'content-type': 'application/json' },
  });
  assertError(t, patch, 415);
  for (const method of ['PATCH', 'POST', 'DELETE'] as const) {
    const res = await call(app, {
      method,
      url: '/v1/articles/1/relationships/tags',
      token,
      body: { data: [{ type: 'tag', id: '4' }] },
      headers: { 'content-type': 'application/json' },
    });
    assertError(t, res, 415);
  }
  const [tag] = await f.sql('SELECT label FROM tags WHERE id = 1');
  t.equal(tag!.label, 'news', 'the tag kept its label');
  t.same(await f.sql('SELECT tag_id FROM article_tags WHERE article_id = 1 ORDER BY tag_id'), [
    { tag_id: 1 },
    { tag_id: 2 },
  ]);
});

t.test('a POST without Content-Type is 415', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/tags',
    headers: { accept: JSONAPI, authorization: `JWT ${token}` },
    payload: JSON.stringify(newTag),
  });
  const body = res.json();
  assertError(t, { status: res.statusCode, headers: res.headers, body }, 415);
});

t.test('an Accept that excludes the JSON:API media type is 406', async (t) => {
  for (const accept of [
    'application/json',
    'text/html',
    `${JSONAPI}; ext=x`,
    `${JSONAPI}; profile="https://example.com/p"`,
    `${JSONAPI}; ext=x, text/html`,
  ]) {
    const res = await call(app, { url: '/v1/articles', headers: { accept } });
    assertError(t, res, 406, undefined, `Accept must allow ${JSONAPI}`);
  }
});

t.test('406 is answered for a write too, before anything is written', async (t) => {
  const before = await f.count('tags');
  const res = await call(app, {
    method: 'POST',
    url: '/v1/tags',
    token,
    body: newTag,
    headers: { accept: 'application/json' },
  });
  assertError(t, res, 406);
  t.equal(await f.count('tags'), before);
});

t.test('a missing Accept, */*, application/* or a list that contains the media type are accepted', async (t) => {
  const missing = await app.inject({ method: 'GET', url: '/v1/tags/1' });
  t.equal(missing.statusCode, 200);
  t.equal(missing.headers['content-type'], JSONAPI);
  t.same(missing.json().jsonapi, { version: '1.0' });
  for (const accept of [
    '*/*',
    'application/*',
    `text/html, ${JSONAPI}`,
    `${JSONAPI}; ext=x, ${JSONAPI}`,
    `${JSONAPI};q=0.9`,
  ]) {
    const res = await call(app, { url: '/v1/tags/1', headers: { accept } });
    assertDocument(t, res, 200);
    t.equal(res.body.data.id, '1', `Accept: ${accept}`);
  }
});

t.test('every answer, success or failure, is exactly application/vnd.api+json with the jsonapi member', async (t) => {
  assertDocument(t, await call(app, { url: '/v1/articles' }), 200);
  assertDocument(t, await call(app, { url: '/v1/articles/1' }), 200);
  assertDocument(t, await call(app, { url: '/v1/articles/1/relationships/tags' }), 200);
  assertDocument(t, await call(app, { url: '/v1/articles/1/tags' }), 200);
  assertDocument(t, await call(app, { method: 'POST', url: '/v1/tags', token, body: newTag }), 201);
  assertError(t, await call(app, { url: '/v1/articles/999' }), 404, undefined, 'Object not found.');
  assertError(t, await call(app, { url: '/v1/nowhere' }), 404);
  assertError(t, await call(app, { method: 'PUT', url: '/v1/articles/1', body: {} }), 405);
  assertError(t, await call(app, { url: '/v1/articles?page[size]=10001' }), 400, { parameter: 'page[size]' });
  assertError(t, await call(app, { method: 'POST', url: '/v1/tags', body: newTag }), 401);
  assertError(t, await call(app, { method: 'POST', url: '/v1/tags', token, body: { data: {} } }), 422, {
    pointer: '/data/type',
  });
});

t.test('a DELETE without a body needs no Content-Type', async (t) => {
  const created = await call(app, { method: 'POST', url: '/v1/tags', token, body: newTag });
  const res = await app.inject({
    method: 'DELETE',
    url: `/v1/tags/${created.body.data.id}`,
    headers: { accept: JSONAPI, authorization: `JWT ${token}` },
  });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], JSONAPI);
});

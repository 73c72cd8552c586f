/**
 * Read-only members sent back: clients such as ember-data send every attribute they loaded on every
 * save (null for unset ones). A read-only attribute or relationship is ignored when it equals what the
 * caller reads of the record (on create: null, or an empty list) and refused (422, pointing at it)
 * when it would change it; unknown members stay errors. Fixture reviews (see fixtures.ts) carry
 * read-only attributes of every kind, a private one, and a read-only to-one relationship; articles a
 * to-many one (comments).
 */
import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { createUser } from '../helpers/users.js';
import { fixtureApp } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const admin = await createUser(app, { admin: true });
const { token } = f.user;

const READ_ONLY = /is read-only/;
const patch = (url: string, data: unknown, as = token) =>
  call(app, { method: 'PATCH', url, token: as, body: { data } });
const post = (url: string, data: unknown) => call(app, { method: 'POST', url, token, body: { data } });
const review = async (id: string) =>
  (await f.sql(`SELECT verdict, code, scores, note, reviewer_id, created_at FROM reviews WHERE id = ${id}`))[0];

/** The record as a client read it, turned into an update document carrying every member it read. */
async function sentBack(url: string, as = token) {
  const { data } = (await call(app, { url, token: as })).body;
  const relationships = Object.fromEntries(
    Object.entries(data.relationships as Record<string, { data?: unknown }>)
      .filter(([, r]) => r.data !== undefined)
      .map(([n, r]) => [n, { data: r.data }]),
  );
  return { type: data.type, id: data.id, attributes: data.attributes, relationships };
}

t.test('a whole record sent back with one change writes that change and ignores the read-only members', async (t) => {
  const before = await review('1');
  const doc = await sentBack('/v1/reviews/1');
  t.strictSame(
    Object.keys(doc.attributes).sort(),
    ['code', 'created-at', 'scores', 'verdict'],
    'a user does not read the private note',
  );
  t.strictSame(doc.relationships.reviewer, { data: { type: 'author', id: '2' } });
  const res = await patch('/v1/reviews/1', { ...doc, attributes: { ...doc.attributes, verdict: 'better' } });
  assertDocument(t, res, 200);
  t.equal(res.body.data.attributes.verdict, 'better');
  t.strictSame(await review('1'), { ...before, verdict: 'better' }, 'nothing else changed');
});

t.test('values equal to what was read are ignored, whatever their spelling', async (t) => {
  const same = [
    { 'created-at': '2024-03-01T12:00:00.500+02:00' },
    { 'created-at': '2024-03-01T10:00:00.5Z' },
    { scores: { facts: [5, 3], style: 4 } },
    { code: 'rv-one', note: null },
  ];
  for (const attributes of same)
    assertDocument(t, await patch('/v1/reviews/1', { type: 'review', id: '1', attributes }), 200);
  const ids = [
    { type: 'author', id: '2' },
    { type: 'author', id: '02' },
  ];
  for (const data of ids) {
    assertDocument(
      t,
      await patch('/v1/reviews/1', { type: 'review', id: '1', relationships: { reviewer: { data } } }),
      200,
    );
  }
  t.equal((await review('1'))!.reviewer_id, 2);
});

t.test('a change to a read-only member is 422 pointing at it, and nothing is written', async (t) => {
  const before = await review('1');
  const cases: [Record<string, unknown>, string][] = [
    [{ attributes: { code: 'rv-new' } }, '/data/attributes/code'],
    [{ attributes: { code: null } }, '/data/attributes/code'],
    [{ attributes: { 'created-at': '2024-03-01T10:00:00Z' } }, '/data/attributes/created-at'],
    [{ attributes: { scores: { style: 4, facts: [3, 5] } } }, '/data/attributes/scores'],
    [{ attributes: { scores: null } }, '/data/attributes/scores'],
    [{ attributes: { verdict: 'changed', code: 'rv-new' } }, '/data/attributes/code'],
    [{ relationships: { reviewer: { data: { type: 'author', id: '1' } } } }, '/data/relationships/reviewer'],
    [{ relationships: { reviewer: { data: null } } }, '/data/relationships/reviewer'],
  ];
  for (const [members, pointer] of cases) {
    const res = await patch('/v1/reviews/1', { type: 'review', id: '1', ...members });
    assertError(t, res, 422, { pointer }, /^\S+ is read-only: leave it out or send it back unchanged$/);
  }
  t.strictSame(await review('1'), before);
});

t.test('a private read-only attribute compares with what this caller reads', async (t) => {
  const note = (value: unknown, as: string) =>
    patch('/v1/reviews/1', { type: 'review', id: '1', attributes: { note: value } }, as);
  assertDocument(t, await note(null, token), 200);
  // The real value is refused as any other: a caller who may not read it learns nothing from the answer.
  assertError(t, await note('for staff', token), 422, { pointer: '/data/attributes/note' }, READ_ONLY);
  assertError(t, await note('a guess', token), 422, { pointer: '/data/attributes/note' }, READ_ONLY);
  assertDocument(t, await note('for staff', admin.token), 200);
  assertError(t, await note(null, admin.token), 422, { pointer: '/data/attributes/note' }, READ_ONLY);
  t.equal((await review('1'))!.note, 'for staff');
});

t.test('a relationship to a record the caller may not see reads as null, and compares so', async (t) => {
  const doc = await sentBack('/v1/reviews/2');
  t.strictSame(doc.relationships.reviewer, { data: null }, 'the reviewer is soft-deleted');
  assertDocument(t, await patch('/v1/reviews/2', doc), 200);
  const named = await patch('/v1/reviews/2', {
    type: 'review',
    id: '2',
    relationships: { reviewer: { data: { type: 'author', id: '3' } } },
  });
  assertError(t, named, 422, { pointer: '/data/relationships/reviewer' }, READ_ONLY);
  t.equal((await review('2'))!.reviewer_id, 3);
});

t.test('a read-only to-many relationship is ignored when it names the same records, in any order', async (t) => {
  const linkage = (...ids: string[]) => ({ comments: { data: ids.map((id) => ({ type: 'comment', id })) } });
  const read = await call(app, { url: '/v1/articles/1?include=comments' });
  t.strictSame(read.body.data.relationships.comments.data, linkage('1', '2').comments.data);
  for (const ids of [
    ['1', '2'],
    ['2', '1'],
    ['2', '1', '2'],
  ]) {
    assertDocument(t, await patch('/v1/articles/1', { type: 'article', id: '1', relationships: linkage(...ids) }), 200);
  }
  for (const ids of [['1'], ['1', '2', '3'], []]) {
    const res = await patch('/v1/articles/1', { type: 'article', id: '1', relationships: linkage(...ids) });
    assertError(t, res, 422, { pointer: '/data/relationships/comments' }, READ_ONLY);
  }
  t.strictSame(
    (await f.sql(`SELECT id FROM comments WHERE article_id = 1 ORDER BY id`)).map((r) => r.id),
    [1, 2],
  );
});

t.test('on create, read-only members are ignored when null or empty, refused otherwise', async (t) => {
  const attributes = { verdict: 'new', code: null, scores: null, note: null, 'created-at': null };
  const relationships = { article: { data: { type: 'article', id: '4' } }, reviewer: { data: null } };
  const res = await post('/v1/reviews', { type: 'review', attributes, relationships });
  assertDocument(t, res, 201);
  t.match(res.body.data.attributes.code, /^rv-[0-9a-f]{8}$/, 'the server set the code');
  t.strictSame(res.body.data.relationships.reviewer.data, { type: 'author', id: '4' }, 'and the reviewer');
  const empty = await call(app, {
    method: 'POST',
    url: '/v1/articles',
    token,
    body: { data: { type: 'article', attributes: { title: 'T' }, relationships: { comments: { data: [] } } } },
  });
  assertDocument(t, empty, 201);

  const before = await f.count('reviews');
  const refused: [Record<string, unknown>, Record<string, unknown>, string, RegExp][] = [
    [
      { code: 'mine' },
      {},
      '/data/attributes/code',
      /^code is read-only \(the server sets it\): leave it out or send null$/,
    ],
    [{ 'created-at': '2024-01-01T00:00:00Z' }, {}, '/data/attributes/created-at', READ_ONLY],
    [{ scores: {} }, {}, '/data/attributes/scores', READ_ONLY],
    // Even what the server would set: a client does not choose it.
    [
      {},
      { reviewer: { data: { type: 'author', id: '4' } } },
      '/data/relationships/reviewer',
      /^reviewer is read-only \(the server sets it\): leave it out or send null$/,
    ],
  ];
  for (const [extra, rels, pointer, detail] of refused) {
    const body = {
      type: 'review',
      attributes: { verdict: 'x', ...extra },
      relationships: { ...relationships, ...rels },
    };
    assertError(t, await post('/v1/reviews', body), 422, { pointer }, detail);
  }
  const comments = await call(app, {
    method: 'POST',
    url: '/v1/articles',
    token,
    body: {
      data: {
        type: 'article',
        attributes: { title: 'T' },
        relationships: { comments: { data: [{ type: 'comment', id: '1' }] } },
      },
    },
  });
  assertError(t, comments, 422, { pointer: '/data/relationships/comments' }, /send an empty list$/);
  t.equal(await f.count('reviews'), before, 'nothing written');
});

t.test('unknown members, wrong types and write-only members keep their rules', async (t) => {
  const res = await patch('/v1/reviews/1', { type: 'review', id: '1', attributes: { code: 'rv-one', nothing: 1 } });
  assertError(t, res, 422, { pointer: '/data/attributes/nothing' }, /is not allowed here/);
  assertError(t, await patch('/v1/reviews/1', { type: 'review', id: '1', attributes: { code: 5 } }), 422, {
    pointer: '/data/attributes/code',
  });
  const user = await sentBack(`/v1/users/${f.user.id}`);
  t.ok('created-at' in user.attributes && 'deleted-at' in user.attributes, 'users carry read-only dates');
  const withPassword = { ...user, attributes: { ...user.attributes, password: 'a new password' } };
  // The write-only password passes the read-only rule and meets its own: users change their own
  // password at /v1/auth/change-password.
  assertError(
    t,
    await patch(`/v1/users/${f.user.id}`, withPassword),
    403,
    { pointer: '/data/attributes/password' },
    /change-password/,
  );
});

t.test(
  'the request schemas list the read-only members, marked readOnly and saying they are ignored unchanged',
  async (t) => {
    const { components } = app.swagger() as { components: { schemas: Record<string, any> } };
    // Create and update share the members (ReviewRequestAttributes, ReviewRequestRelationships).
    for (const request of ['ReviewCreateRequest', 'ReviewUpdateRequest']) {
      const data = components.schemas[request].properties.data.properties;
      const shared = (member: any) => JSON.stringify(member).match(/#\/components\/schemas\/(\w+)/)![1]!;
      t.equal(shared(data.attributes), 'ReviewRequestAttributes', `${request}: its attributes`);
      t.equal(shared(data.relationships), 'ReviewRequestRelationships', `${request}: its relationships`);
    }
    const attributes = components.schemas.ReviewRequestAttributes.properties;
    const code = attributes.code;
    t.equal(code.readOnly, true, 'code is readOnly');
    t.strictSame(code.type, ['string', 'null'], 'code may be null');
    t.match(code.description, /^generated\. Read-only: a request may send it back as read/);
    t.equal(attributes['created-at'].format, 'date-time');
    const reviewer = components.schemas.ReviewRequestRelationships.properties.reviewer;
    t.equal(reviewer.readOnly, true, 'reviewer is readOnly');
    t.match(reviewer.description, /ignored; any other value is refused \(422\)/);
    t.notOk(attributes.verdict.readOnly, 'writable members are not');
  },
);

import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { createUser } from '../helpers/users.js';
import { fixtureApp, idsOf, relLinks } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const admin = await createUser(app, { admin: true });

// Anonymous callers see: 1 Alpha (5), 2 Beta (3), 4 Delta (3), 5 Epsilon (1), 6 Zeta (4).
const ids = async (url: string, token?: string) => {
  const res = await call(app, { url, token });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return idsOf(res.body.data);
};

t.test('sort by one attribute, ascending and descending', async (t) => {
  t.strictSame(await ids('/v1/articles?sort=title'), ['1', '2', '4', '5', '6']);
  t.strictSame(await ids('/v1/articles?sort=-title'), ['6', '5', '4', '2', '1']);
  t.strictSame(await ids('/v1/articles?sort=-published-at'), ['6', '5', '4', '2', '1']);
  t.strictSame(await ids('/v1/articles?sort=-id'), ['6', '5', '4', '2', '1']);
  t.strictSame(await ids('/v1/tags?sort=label'), ['3', '1', '2', '4']);
});

t.test('sort by several keys, each with its own direction', async (t) => {
  t.strictSame(await ids('/v1/articles?sort=-rating,title'), ['1', '6', '2', '4', '5']);
  t.strictSame(await ids('/v1/articles?sort=-rating,-title'), ['1', '6', '4', '2', '5']);
  t.strictSame(await ids('/v1/articles?sort=rating,-title'), ['5', '4', '2', '6', '1']);
  t.strictSame(await ids('/v1/articles?sort=published,rating,title'), ['5', '2', '4', '6', '1']);
});

t.test('equal sort values are ordered by id, so pages never repeat or skip a row', async (t) => {
  t.strictSame(await ids('/v1/articles?sort=published'), ['1', '2', '4', '5', '6']);
  t.strictSame(await ids('/v1/articles?sort=-published'), ['6', '5', '4', '2', '1']);
  const walk: string[] = [];
  for (let page = 1; page <= 3; page++)
    walk.push(...(await ids(`/v1/articles?sort=rating&page[size]=2&page[number]=${page}`)));
  t.strictSame(walk, ['5', '2', '4', '6', '1'], 'Beta and Delta (both 3) keep one order across pages');
});

t.test('sorted lists respect the scope: sorting cannot reveal hidden rows', async (t) => {
  t.strictSame(await ids('/v1/articles?sort=published'), ['1', '2', '4', '5', '6']);
  t.strictSame(await ids('/v1/articles?sort=published', f.user.token), ['3', '1', '2', '4', '5', '6']);
});

t.test('sorting works on related lists', async (t) => {
  t.strictSame(await ids('/v1/articles/1/tags?sort=-label'), ['2', '1']);
  t.strictSame(await ids('/v1/authors/1/articles?sort=-title'), ['2', '1']);
});

t.test('sort by an attribute of a to-one relationship, as the caller sees it (none: as null)', async (t) => {
  // Authors: Ann (1, 2), Bob (4); Epsilon's author is soft-deleted and Zeta has none, both sort as null (last ascending).
  t.strictSame(await ids('/v1/articles?sort=author.name,-title'), ['2', '1', '4', '6', '5']);
  t.strictSame(await ids('/v1/articles?sort=-author.name,title'), ['5', '6', '4', '1', '2']);
  t.strictSame(await ids('/v1/articles?sort=author.id,title', f.user.token), ['1', '2', '4', '3', '5', '6']);
  // Comment 3 is on the unpublished Gamma: only a logged-in caller sees its article; comment 5's article is deleted.
  t.strictSame(await ids('/v1/comments?sort=article.id'), ['1', '2', '4', '3', '5']);
  t.strictSame(await ids('/v1/comments?sort=article.id', f.user.token), ['1', '2', '3', '4', '5']);
  t.strictSame(
    await ids('/v1/comments?sort=-article.published_at'),
    ['5', '3', '4', '2', '1'],
    'snake_case, descending: nulls first',
  );
  const walk: string[] = [];
  for (let page = 1; page <= 3; page++)
    walk.push(...(await ids(`/v1/comments?sort=article.title&page[size]=2&page[number]=${page}`)));
  t.strictSame(walk, ['1', '2', '4', '3', '5'], 'the id tiebreaker keeps pages stable');
});

t.test('sort keys may be written in snake_case', async (t) => {
  t.strictSame(await ids('/v1/articles?sort=-published_at'), ['6', '5', '4', '2', '1']);
});

t.test('a sort through a relationship needs a to-one relationship and one attribute of its record', async (t) => {
  for (const key of [
    'author',
    'author.nothing',
    'author.name.x',
    'tags.label',
    'nothing.name',
    'author.',
    '.name',
    'author.articles',
  ]) {
    const res = await call(app, { url: `/v1/articles?sort=${encodeURIComponent(key)}` });
    assertError(t, res, 400, { parameter: 'sort' }, /^Unknown sort key/);
  }
});

t.test('an unknown sort key is 400 with source.parameter sort', async (t) => {
  for (const sort of ['nothing', '-nothing', 'title,nothing', '', '-', 'author', 'tags', 'Title', 'title,', ' title']) {
    const res = await call(app, { url: `/v1/articles?sort=${encodeURIComponent(sort)}` });
    assertError(t, res, 400, { parameter: 'sort' });
  }
  assertError(t, await call(app, { url: '/v1/articles/1/tags?sort=title' }), 400, { parameter: 'sort' }, /tag/);
});

t.test('more than five sort keys is 400', async (t) => {
  const res = await call(app, { url: '/v1/articles?sort=title,body,rating,published,published-at,id' });
  assertError(t, res, 400, { parameter: 'sort' });
});

t.test('write-only attributes cannot be sorted or filtered on', async (t) => {
  t.ok((await ids('/v1/users?sort=email', admin.token)).length >= 2, 'the admin lists users');
  assertError(t, await call(app, { url: '/v1/users?sort=password', token: admin.token }), 400, { parameter: 'sort' });
  assertError(t, await call(app, { url: '/v1/users?sort=-password', token: admin.token }), 400, { parameter: 'sort' });
  assertError(t, await call(app, { url: '/v1/users?sort=password-hash', token: admin.token }), 400, {
    parameter: 'sort',
  });
  const filter = encodeURIComponent(JSON.stringify([{ name: 'password', op: 'eq', val: 'correct horse battery' }]));
  assertError(t, await call(app, { url: `/v1/users?filter=${filter}`, token: admin.token }), 400, {
    parameter: 'filter',
  });
});

t.test('fields[type] restricts attributes and relationships of the primary data', async (t) => {
  const res = await call(app, { url: '/v1/articles/1?fields[article]=title,author' });
  assertDocument(t, res, 200);
  t.strictSame(res.body.data, {
    type: 'article',
    id: '1',
    attributes: { title: 'Alpha' },
    relationships: { author: { links: relLinks('articles', 1, 'author'), data: { type: 'author', id: '1' } } },
    links: { self: '/v1/articles/1' },
  });
  const none = await call(app, { url: '/v1/articles/1?fields[article]=rating' });
  assertDocument(t, none, 200);
  t.strictSame(none.body.data.attributes, { rating: 5 });
  t.strictSame(none.body.data.relationships, {});
});

t.test('fields[type] applies to every resource of that type in a list and in included', async (t) => {
  const res = await call(app, {
    url: '/v1/articles?fields[article]=title,tags&fields[tag]=label&include=tags&page[size]=2',
  });
  assertDocument(t, res, 200);
  for (const article of res.body.data) {
    t.same(Object.keys(article.attributes), ['title']);
    t.same(Object.keys(article.relationships), ['tags']);
  }
  t.strictSame(res.body.data[0].relationships.tags.data, [
    { type: 'tag', id: '1' },
    { type: 'tag', id: '2' },
  ]);
  t.strictSame(
    res.body.included.map((r: { id: string; attributes: unknown; relationships: unknown }) => [
      r.id,
      r.attributes,
      r.relationships,
    ]),
    [
      ['1', { label: 'news' }, {}],
      ['2', { label: 'tech' }, {}],
    ],
  );
});

t.test('fields of another type leave the primary data whole', async (t) => {
  const res = await call(app, { url: '/v1/articles/1?fields[tag]=label' });
  assertDocument(t, res, 200);
  t.same(Object.keys(res.body.data.attributes).sort(), ['body', 'published', 'published-at', 'rating', 'title']);
  t.same(Object.keys(res.body.data.relationships).sort(), ['author', 'comments', 'tags']);
});

t.test('fields[type] may name id (always returned) and snake_case members', async (t) => {
  const res = await call(app, { url: '/v1/articles/1?fields[article]=id' });
  assertDocument(t, res, 200);
  t.strictSame([res.body.data.id, res.body.data.attributes, res.body.data.relationships], ['1', {}, {}]);
  const snake = await call(app, { url: '/v1/articles?fields[article]=id,published_at&page[size]=1' });
  assertDocument(t, snake, 200);
  t.strictSame(snake.body.data[0].attributes, { 'published-at': '2024-01-01T00:00:00.000Z' }, 'answered dasherized');
});

t.test('an unknown field, a write-only field or an unknown type in fields is 400', async (t) => {
  assertError(t, await call(app, { url: '/v1/articles/1?fields[article]=nothing' }), 400, {
    parameter: 'fields[article]',
  });
  assertError(t, await call(app, { url: '/v1/articles?fields[article]=title,nothing' }), 400, {
    parameter: 'fields[article]',
  });
  assertError(t, await call(app, { url: '/v1/articles?fields[author]=title' }), 400, { parameter: 'fields[author]' });
  assertError(t, await call(app, { url: '/v1/articles?fields[articles]=title' }), 400, {
    parameter: 'fields[articles]',
  });
  assertError(t, await call(app, { url: `/v1/users/${admin.id}?fields[user]=password`, token: admin.token }), 400, {
    parameter: 'fields[user]',
  });
  assertError(t, await call(app, { url: '/v1/articles/1/author?fields[author]=title' }), 400, {
    parameter: 'fields[author]',
  });
});

import t from 'tap';
import type { Test } from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, idsOf } from './fixtures.js';

// 4 seeded tags plus 41 more: 45 tags, ids 1..45.
const f = await fixtureApp(t, {
  extraSql: `INSERT INTO tags (label) SELECT 'bulk-' || lpad(n::text, 2, '0') FROM generate_series(1, 41) AS n;`,
});
const { app } = f;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** A pagination link as path plus its query parameters, whatever their encoding. */
function parseLink(link: string | null) {
  if (link === null) return null;
  const url = new URL(link, 'http://x');
  return { path: url.pathname, params: Object.fromEntries(url.searchParams) };
}

function assertLinks(
  t: Test,
  links: Record<string, string | null>,
  path: string,
  other: Record<string, string>,
  expected: { size: number; self: number; last: number; prev: number | null; next: number | null },
) {
  const page = (n: number | null) =>
    n === null ? null : { path, params: { ...other, 'page[size]': String(expected.size), 'page[number]': String(n) } };
  t.strictSame(parseLink(links.self!), page(expected.self), 'links.self');
  t.strictSame(parseLink(links.first!), page(1), 'links.first');
  t.strictSame(parseLink(links.last!), page(expected.last), 'links.last');
  t.strictSame(parseLink(links.prev!), page(expected.prev), 'links.prev');
  t.strictSame(parseLink(links.next!), page(expected.next), 'links.next');
}

t.test('the default page is 20 rows, with meta.count over all pages', async (t) => {
  const res = await call(app, { url: '/v1/tags' });
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), range(1, 20));
  t.strictSame(res.body.meta, { count: 45 });
  assertLinks(t, res.body.links, '/v1/tags', {}, { size: 20, self: 1, last: 3, prev: null, next: 2 });
});

t.test('a middle page links to its neighbours', async (t) => {
  const res = await call(app, { url: '/v1/tags?page[number]=2&page[size]=10' });
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), range(11, 20));
  t.strictSame(res.body.meta, { count: 45 });
  assertLinks(t, res.body.links, '/v1/tags', {}, { size: 10, self: 2, last: 5, prev: 1, next: 3 });
});

t.test('the last page is partial and has no next', async (t) => {
  const res = await call(app, { url: '/v1/tags?page[number]=5&page[size]=10' });
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), range(41, 45));
  assertLinks(t, res.body.links, '/v1/tags', {}, { size: 10, self: 5, last: 5, prev: 4, next: null });
});

t.test('a page beyond the end is empty but still counts, and prev points at the last page', async (t) => {
  const res = await call(app, { url: '/v1/tags?page[number]=9&page[size]=10' });
  assertDocument(t, res, 200);
  t.strictSame(res.body.data, []);
  t.strictSame(res.body.meta, { count: 45 });
  assertLinks(t, res.body.links, '/v1/tags', {}, { size: 10, self: 9, last: 5, prev: 5, next: null });
});

t.test('an empty result has one (empty) page', async (t) => {
  const filter = JSON.stringify([{ name: 'label', op: 'eq', val: 'nothing' }]);
  const res = await call(app, { url: `/v1/tags?filter=${encodeURIComponent(filter)}` });
  assertDocument(t, res, 200);
  t.strictSame(res.body.data, []);
  t.strictSame(res.body.meta, { count: 0 });
  assertLinks(t, res.body.links, '/v1/tags', { filter }, { size: 20, self: 1, last: 1, prev: null, next: null });
  const beyond = await call(app, { url: `/v1/tags?page[number]=3&filter=${encodeURIComponent(filter)}` });
  assertDocument(t, beyond, 200);
  t.strictSame(beyond.body.data, []);
  t.strictSame(beyond.body.meta, { count: 0 });
  assertLinks(t, beyond.body.links, '/v1/tags', { filter }, { size: 20, self: 3, last: 1, prev: 1, next: null });
});

t.test('page links keep every other query parameter', async (t) => {
  const filter = JSON.stringify([{ name: 'rating', op: 'ge', val: 1 }]);
  const other = { sort: '-rating,title', filter, include: 'author', 'fields[article]': 'title,author' };
  const query = new URLSearchParams({ ...other, 'page[size]': '2', 'page[number]': '2' });
  const res = await call(app, { url: `/v1/articles?${query}` });
  assertDocument(t, res, 200);
  // Anonymous: Alpha 5, Zeta 4, Beta 3, Delta 3, Epsilon 1.
  t.strictSame(idsOf(res.body.data), ['2', '4']);
  t.strictSame(res.body.meta, { count: 5 });
  assertLinks(t, res.body.links, '/v1/articles', other, { size: 2, self: 2, last: 3, prev: 1, next: 3 });
  const next = await call(app, { url: res.body.links.next });
  assertDocument(t, next, 200);
  t.strictSame(idsOf(next.body.data), ['5'], 'following links.next gives the next page');
  t.strictSame(next.body.data[0].attributes, { title: 'Epsilon' }, 'with the same sparse fieldset');
});

t.test('meta.count counts what the caller may see', async (t) => {
  const anonymous = await call(app, { url: '/v1/articles' });
  assertDocument(t, anonymous, 200);
  t.strictSame(idsOf(anonymous.body.data), ['1', '2', '4', '5', '6'], 'no unpublished, no soft-deleted');
  t.strictSame(anonymous.body.meta, { count: 5 });
  const user = await call(app, { url: '/v1/articles', token: f.user.token });
  assertDocument(t, user, 200);
  t.strictSame(idsOf(user.body.data), ['1', '2', '3', '4', '5', '6'], 'unpublished too, still no soft-deleted');
  t.strictSame(user.body.meta, { count: 6 });
});

t.test('page[size] may be 1 to LIST_ALL_MAX (10000 by default)', async (t) => {
  const max = await call(app, { url: '/v1/tags?page[size]=10000' });
  assertDocument(t, max, 200);
  t.equal(max.body.data.length, 45);
  const one = await call(app, { url: '/v1/tags?page[size]=1&page[number]=45' });
  assertDocument(t, one, 200);
  t.strictSame(idsOf(one.body.data), ['45']);
  t.equal(one.body.links.next, null);
});

t.test('page[size] above LIST_ALL_MAX, negative or not an integer is 400', async (t) => {
  for (const size of ['10001', '100000', '-1', '1.5', 'abc', '', '10x']) {
    const res = await call(app, { url: `/v1/tags?page[size]=${encodeURIComponent(size)}` });
    assertError(t, res, 400, { parameter: 'page[size]' });
  }
});

t.test('page[number] below 1 or not an integer is 400', async (t) => {
  for (const number of ['0', '-2', '2.5', 'last', '']) {
    const res = await call(app, { url: `/v1/tags?page[number]=${encodeURIComponent(number)}` });
    assertError(t, res, 400, { parameter: 'page[number]' });
  }
});

t.test('a repeated parameter is 400', async (t) => {
  assertError(t, await call(app, { url: '/v1/tags?page[size]=2&page[size]=3' }), 400, { parameter: 'page[size]' });
  assertError(t, await call(app, { url: '/v1/tags?sort=label&sort=id' }), 400, { parameter: 'sort' });
});

t.test('an unknown query parameter on a list is 400', async (t) => {
  for (const name of ['foo', 'page', 'page[offset]', 'pagesize', 'fields', 'filter[label]', 'sort[label]']) {
    const res = await call(app, { url: `/v1/tags?${encodeURIComponent(name)}=1` });
    assertError(t, res, 400, { parameter: name });
  }
});

t.test('related lists paginate with the same rules', async (t) => {
  await f.sql(`INSERT INTO article_tags (article_id, tag_id) SELECT 6, n FROM generate_series(5, 29) AS n`);
  const res = await call(app, { url: '/v1/articles/6/tags?page[number]=2' });
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), range(25, 29));
  t.strictSame(res.body.meta, { count: 25 });
  assertLinks(t, res.body.links, '/v1/articles/6/tags', {}, { size: 20, self: 2, last: 2, prev: 1, next: null });
  assertError(t, await call(app, { url: '/v1/articles/6/tags?page[size]=10001' }), 400, { parameter: 'page[size]' });
});

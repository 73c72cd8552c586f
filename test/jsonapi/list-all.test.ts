/**
 * `page[size]=0` answers every matching record in one page (the reference's convention), bounded by
 * LIST_ALL_MAX (20 here): more matches are a 400 that names the limit. page[size] itself runs from 1 to
 * LIST_ALL_MAX. One page means meta.count is all of it and the links all name that page.
 */
import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, idsOf } from './fixtures.js';

// 4 seeded tags plus 41 more: 45 tags, ids 1..45; tags 5..19 are "bulk-01".."bulk-15".
const f = await fixtureApp(t, {
  env: { LIST_ALL_MAX: '20' },
  extraSql: `INSERT INTO tags (label) SELECT 'bulk-' || lpad(n::text, 2, '0') FROM generate_series(1, 41) AS n;`,
});
const { app } = f;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
const labelLike = (val: string) => JSON.stringify([{ name: 'label', op: 'like', val }]);
const filter = (val: string) => `filter=${encodeURIComponent(labelLike(val))}`;
const link = (raw: string | null) => (raw === null ? null : Object.fromEntries(new URL(raw, 'http://x').searchParams));

t.test('page[size]=0 answers every matching record in one page, in one statement', async (t) => {
  f.resetQueries();
  const res = await call(app, { url: `/v1/tags?page[size]=0&sort=-id&${filter('bulk-0%')}` });
  t.equal(f.queries.length, 1, 'rows and count in one statement');
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), range(5, 13).reverse());
  t.strictSame(res.body.meta, { count: 9 });
  const one = { sort: '-id', filter: labelLike('bulk-0%'), 'page[size]': '0', 'page[number]': '1' };
  t.strictSame(link(res.body.links.self), one, 'links.self');
  t.strictSame(link(res.body.links.first), one, 'links.first');
  t.strictSame(link(res.body.links.last), one, 'links.last');
  t.strictSame([res.body.links.prev, res.body.links.next], [null, null], 'no other page');
});

t.test('exactly LIST_ALL_MAX matches are answered; page[number] is ignored', async (t) => {
  const upTo20 = encodeURIComponent(JSON.stringify([{ name: 'id', op: 'le', val: 20 }]));
  const res = await call(app, { url: `/v1/tags?page[size]=0&page[number]=3&filter=${upTo20}` });
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), range(1, 20));
  t.strictSame(res.body.meta, { count: 20 });
  t.equal(link(res.body.links.self)!['page[number]'], '1', 'the one page');
});

t.test('more matches than LIST_ALL_MAX are a 400 that names the limit', async (t) => {
  await f.sql(`INSERT INTO article_tags SELECT 6, n FROM generate_series(1, 21) AS n`);
  const urls = [
    '/v1/tags?page[size]=0',
    '/v1/tags?page[size]=0&include=articles',
    `/v1/articles/6/tags?page[size]=0&${filter('%')}`,
  ];
  for (const url of urls) {
    const res = await call(app, { url });
    assertError(
      t,
      res,
      400,
      { parameter: 'page[size]' },
      /^page\[size\]=0 returns every matching record, at most 20 \(LIST_ALL_MAX\), and (45|21) match: narrow/,
    );
  }
  await f.sql(`DELETE FROM article_tags WHERE article_id = 6`);
});

t.test('an empty result is one empty page', async (t) => {
  const res = await call(app, { url: `/v1/tags?page[size]=0&${filter('nothing')}` });
  assertDocument(t, res, 200);
  t.strictSame([res.body.data, res.body.meta, res.body.links.next], [[], { count: 0 }, null]);
});

t.test('related lists and includes take page[size]=0 too', async (t) => {
  const res = await call(app, { url: '/v1/authors/1/articles?page[size]=0&include=tags,comments' });
  assertDocument(t, res, 200);
  t.strictSame(idsOf(res.body.data), ['1', '2']);
  t.strictSame(res.body.meta, { count: 2 });
  t.ok(res.body.included.length > 0, 'included');
});

t.test('page[size] runs from 1 to LIST_ALL_MAX', async (t) => {
  assertDocument(t, await call(app, { url: '/v1/tags?page[size]=20' }), 200);
  for (const size of ['21', '-1']) {
    assertError(t, await call(app, { url: `/v1/tags?page[size]=${size}` }), 400, { parameter: 'page[size]' });
  }
});

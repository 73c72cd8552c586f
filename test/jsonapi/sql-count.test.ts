import t from 'tap';
import type { Test } from 'tap';
import { assertDocument, call } from '../helpers/app.js';
import { fixtureApp } from './fixtures.js';

// 60 authors, 240 published articles (4 each), 12 tags (3 per article), 2 comments per article.
const f = await fixtureApp(t, {
  seed: false,
  extraSql: `
    INSERT INTO authors (name) SELECT 'Author ' || n FROM generate_series(1, 60) AS n;
    INSERT INTO articles (title, rating, published, author_id)
      SELECT 'Article ' || n, n % 6, true, (n % 60) + 1 FROM generate_series(1, 240) AS n;
    INSERT INTO tags (label) SELECT 'tag ' || n FROM generate_series(1, 12) AS n;
    INSERT INTO article_tags SELECT a, ((a + k) % 12) + 1 FROM generate_series(1, 240) AS a, generate_series(0, 2) AS k;
    INSERT INTO comments (article_id, text) SELECT a, 'comment ' || k FROM generate_series(1, 240) AS a, generate_series(1, 2) AS k;
  `,
});
const { app } = f;

/** The statements one request sends, with its answer. */
async function measure(t: Test, url: string, token?: string) {
  f.resetQueries();
  const res = await call(app, { url, token });
  const statements = f.queries.length;
  assertDocument(t, res, 200);
  return { statements, body: res.body, included: (res.body.included ?? []).length as number };
}

/** The same request at several page sizes sends the same number of statements: `expected`. */
async function constant(t: Test, url: string, expected: number, sizes = [1, 2, 50, 100]) {
  const runs: Awaited<ReturnType<typeof measure>>[] = [];
  for (const size of sizes) runs.push(await measure(t, `${url}${url.includes('?') ? '&' : '?'}page[size]=${size}`));
  t.strictSame(
    runs.map((r) => r.statements),
    sizes.map(() => expected),
    `${url}: ${expected} statement(s) at page sizes ${sizes.join(', ')}`,
  );
  t.strictSame(
    runs.map((r) => r.body.data.length),
    sizes.map((s) => Math.min(s, runs[0]!.body.meta.count)),
    'page sizes honoured',
  );
  return runs;
}

t.test('a list is one statement (rows and count together), whatever the page size', async (t) => {
  const runs = await constant(t, '/v1/articles', 1);
  t.equal(runs[0]!.body.meta.count, 240);
  await constant(t, '/v1/articles?sort=-rating,title', 1);
  await constant(
    t,
    `/v1/articles?filter=${encodeURIComponent('[{"name":"author","op":"has","val":{"name":"name","op":"like","val":"Author 1%"}}]')}`,
    1,
  );
});

t.test(
  'include paths add no statement: the page and every include path are one statement, whatever the number of rows',
  async (t) => {
    const one = await constant(t, '/v1/articles?include=author', 1);
    t.ok(one.at(-1)!.included > one[0]!.included, 'more rows, more included resources, same statements');
    await constant(t, '/v1/articles?include=tags', 1);
    await constant(t, '/v1/articles?include=comments', 1);
    const three = await constant(t, '/v1/articles?include=author,tags,comments', 1);
    t.ok(three.at(-1)!.included > 100, 'a large compound document');
  },
);

t.test('nested includes add no statement either: the whole include tree compiles into the one statement', async (t) => {
  await constant(t, '/v1/authors?include=articles', 1);
  const nested = await constant(t, '/v1/authors?include=articles.tags,articles.comments,articles.author', 1);
  t.ok(nested.at(-1)!.included > nested[0]!.included * 10, 'fifty authors load far more than one');
  await constant(t, '/v1/articles?include=author.articles.tags', 1);
  await constant(t, '/v1/tags?include=articles.author.articles,articles.comments', 1, [1, 5, 12]);
});

t.test('the number of parent rows does not matter either: one author or sixty', async (t) => {
  const few = await measure(
    t,
    `/v1/authors?include=articles.tags&filter=${encodeURIComponent('[{"name":"id","op":"eq","val":1}]')}`,
  );
  const many = await measure(t, '/v1/authors?include=articles.tags&page[size]=60');
  t.equal(few.body.data.length, 1);
  t.equal(many.body.data.length, 60);
  t.equal(few.statements, 1);
  t.equal(many.statements, 1);
});

t.test('single resources, related lists and linkage are constant too', async (t) => {
  t.equal((await measure(t, '/v1/authors/1')).statements, 1, 'a resource: one statement');
  t.equal(
    (await measure(t, '/v1/authors/1?include=articles.tags,articles.comments')).statements,
    1,
    'with a two-level include: one statement',
  );
  t.equal(
    (await measure(t, '/v1/authors/1/relationships/articles')).statements,
    1,
    'the parent and its linkage: one statement',
  );
  t.equal(
    (await measure(t, '/v1/articles/1/author?include=articles')).statements,
    1,
    'a to-one related record with an include: one statement',
  );
  for (const size of [1, 4]) {
    const related = await measure(t, `/v1/authors/1/articles?include=tags,comments&page[size]=${size}`);
    t.equal(related.statements, 1, `related list, page size ${size}: parent, page and two includes in one statement`);
    t.equal(related.body.data.length, size);
  }
});

t.test('a logged-in caller adds only the token lookup', async (t) => {
  const anonymous = await measure(t, '/v1/articles?include=author,tags&page[size]=100');
  const user = await measure(t, '/v1/articles?include=author,tags&page[size]=100', f.user.token);
  t.equal(user.statements, anonymous.statements + 1);
});

t.test(
  'related rows are read by one table expression per include path in the one statement, never per row',
  async (t) => {
    f.resetQueries();
    await call(app, { url: '/v1/articles?include=tags&page[size]=100' });
    const statements = [...f.queries];
    t.equal(statements.length, 1);
    t.equal(
      statements[0]!.match(/"p\d+" as \(select "tags"\.\* from "tags"/g)?.length,
      1,
      'one table expression reads the tags of 100 articles',
    );
  },
);

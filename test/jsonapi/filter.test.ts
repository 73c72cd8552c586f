import t from 'tap';
import type { Test } from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp, idsOf } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const token = f.user.token;

/*
 * Anonymous callers see: 1 Alpha 'a body' 5 (Ann), 2 Beta 'b body' 3 (Ann), 4 Delta 'd body' 3 (Bob),
 * 5 Epsilon 'e body' 1 (Cid, soft-deleted author), 6 Zeta 'z body' 4 (no author). A logged-in caller
 * also sees 3 Gamma (unpublished, no body, no rating, Bob). 7 Eta is soft-deleted.
 */
const q = (filter: unknown) => encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter));

/** The ids a filter selects, after checking the whole list answer and that meta.count agrees. */
async function select(
  t: Test,
  filter: unknown,
  { path = '/v1/articles', caller = undefined as string | undefined } = {},
) {
  const res = await call(app, { url: `${path}?filter=${q(filter)}`, token: caller });
  assertDocument(t, res, 200);
  t.equal(res.body.meta.count, res.body.data.length, 'meta.count is the number of matches');
  return idsOf(res.body.data);
}

const c = (name: string, op: string, val?: unknown) => ({ name, op, val });

t.test('comparison operators: eq ne lt le gt ge', async (t) => {
  t.strictSame(await select(t, [c('rating', 'eq', 3)]), ['2', '4']);
  t.strictSame(await select(t, [c('rating', 'eq', '3')]), ['2', '4'], 'a numeric string compares with an integer');
  t.strictSame(await select(t, [c('rating', 'ne', 3)]), ['1', '5', '6']);
  t.strictSame(await select(t, [c('rating', 'lt', 3)]), ['5']);
  t.strictSame(await select(t, [c('rating', 'le', 3)]), ['2', '4', '5']);
  t.strictSame(await select(t, [c('rating', 'gt', 3)]), ['1', '6']);
  t.strictSame(await select(t, [c('rating', 'ge', 4)]), ['1', '6']);
  t.strictSame(await select(t, [c('title', 'eq', 'Delta')]), ['4']);
  t.strictSame(await select(t, [c('title', 'lt', 'C')]), ['1', '2']);
  t.strictSame(await select(t, [c('id', 'eq', '5')]), ['5']);
  t.strictSame(await select(t, [c('published', 'eq', false)], { caller: token }), ['3']);
  t.strictSame(await select(t, [c('published', 'eq', 'false')], { caller: token }), ['3']);
});

t.test('date-time comparisons', async (t) => {
  t.strictSame(await select(t, [c('published-at', 'gt', '2024-03-01T00:00:00Z')]), ['5', '6']);
  t.strictSame(await select(t, [c('published-at', 'le', '2024-03-01T00:00:00.000Z')]), ['1', '2', '4']);
  t.strictSame(
    await select(t, [c('published-at', 'eq', '2024-02-01T01:00:00+01:00')]),
    ['2'],
    'time zones are honoured',
  );
});

t.test('like is case-sensitive, ilike is not; an escaped backslash at the end is a backslash', async (t) => {
  t.strictSame(await select(t, [c('title', 'like', 'Alpha\\\\')]), []);
  t.strictSame(await select(t, [c('title', 'like', '%eta')]), ['2', '6']);
  t.strictSame(await select(t, [c('title', 'like', '%ETA')]), []);
  t.strictSame(await select(t, [c('title', 'ilike', '%ETA')]), ['2', '6']);
  t.strictSame(await select(t, [c('body', 'ilike', '_ BODY')]), ['1', '2', '4', '5', '6']);
});

t.test('in / in_ / notin / notin_', async (t) => {
  t.strictSame(await select(t, [c('rating', 'in', [1, 5])]), ['1', '5']);
  t.strictSame(await select(t, [c('rating', 'in_', [1, '5'])]), ['1', '5']);
  t.strictSame(await select(t, [c('title', 'in', ['Beta', 'Zeta', 'Nothing'])]), ['2', '6']);
  t.strictSame(await select(t, [c('rating', 'notin', [3])]), ['1', '5', '6']);
  t.strictSame(await select(t, [c('rating', 'notin_', [3, 4])]), ['1', '5']);
  t.strictSame(await select(t, [c('id', 'in', ['2', '3', '7'])]), ['2'], 'ids still pass the scope and soft delete');
});

t.test('is_ / isnot and eq / ne null', async (t) => {
  t.strictSame(await select(t, [c('body', 'is_', null)], { caller: token }), ['3']);
  t.strictSame(await select(t, [c('body', 'isnot', null)], { caller: token }), ['1', '2', '4', '5', '6']);
  t.strictSame(await select(t, [c('rating', 'eq', null)], { caller: token }), ['3']);
  t.strictSame(await select(t, [c('rating', 'ne', null)], { caller: token }), ['1', '2', '4', '5', '6']);
  t.strictSame(await select(t, [c('published-at', 'eq', null)]), [], 'the scope still applies');
});

t.test('has / any: to-one, to-many by foreign key, to-many through a join table', async (t) => {
  t.strictSame(await select(t, [c('author', 'has', c('name', 'eq', 'Bob'))]), ['4']);
  t.strictSame(await select(t, [c('author', 'has', c('name', 'eq', 'Bob'))], { caller: token }), ['3', '4']);
  t.strictSame(
    await select(t, [c('author', 'any', c('name', 'eq', 'Cid'))]),
    [],
    'soft-deleted related rows never match',
  );
  t.strictSame(await select(t, [c('tags', 'any', c('label', 'eq', 'news'))]), ['1']);
  t.strictSame(await select(t, [c('tags', 'has', c('label', 'eq', 'news'))], { caller: token }), ['1', '3']);
  t.strictSame(await select(t, [c('comments', 'any', c('text', 'like', '%e%'))]), ['1', '4']);
  t.strictSame(await select(t, [c('tags', 'any', [])]), ['1', '2', '4'], 'an empty condition: has any tag');
  t.strictSame(await select(t, [{ not: c('tags', 'any', []) }]), ['5', '6'], 'no tag at all');
});

t.test('has / any respect the scope of the related resource', async (t) => {
  const unpublished = [c('articles', 'any', c('published', 'eq', false))];
  t.strictSame(await select(t, unpublished, { path: '/v1/authors' }), [], 'anonymous callers cannot probe hidden rows');
  t.strictSame(await select(t, unpublished, { path: '/v1/authors', caller: token }), ['2']);
  t.strictSame(await select(t, [c('articles', 'any', c('title', 'eq', 'Eta'))], { path: '/v1/authors' }), []);
  t.strictSame(await select(t, [c('articles', 'any', [])], { path: '/v1/tags' }), ['1', '2', '3']);
});

t.test('has nests: articles whose author wrote an article tagged tech', async (t) => {
  const filter = [c('author', 'has', c('articles', 'any', c('tags', 'any', c('label', 'eq', 'tech'))))];
  t.strictSame(await select(t, filter), ['1', '2']);
});

t.test('and / or / not nest, and a top-level array means and', async (t) => {
  t.strictSame(await select(t, { or: [c('rating', 'eq', 5), c('title', 'eq', 'Zeta')] }), ['1', '6']);
  t.strictSame(await select(t, [c('rating', 'ge', 3), c('title', 'like', '%a')]), ['1', '2', '4', '6']);
  t.strictSame(await select(t, { and: [c('rating', 'ge', 3), c('title', 'like', 'B%')] }), ['2']);
  t.strictSame(await select(t, { not: c('rating', 'eq', 3) }), ['1', '5', '6']);
  const nested = [{ or: [{ and: [c('rating', 'eq', 3), { not: c('title', 'eq', 'Beta') }] }, c('id', 'eq', 6)] }];
  t.strictSame(await select(t, nested), ['4', '6']);
  t.strictSame(await select(t, c('title', 'eq', 'Alpha')), ['1'], 'a single condition object');
  t.strictSame(await select(t, []), ['1', '2', '4', '5', '6'], 'an empty array matches everything');
});

t.test('an empty "or" or "and" is no condition, as the reference rendered it (src/jsonapi/filter.ts)', async (t) => {
  const all = ['1', '2', '4', '5', '6'];
  t.strictSame(await select(t, [{ or: [] }]), all, 'or of nothing: every record, as the front end expects');
  t.strictSame(await select(t, [{ and: [] }]), all, 'and of nothing');
  t.strictSame(await select(t, [{ or: [] }, c('rating', 'eq', 3)]), ['2', '4'], 'beside a condition: that condition');
  t.strictSame(await select(t, { or: [{ and: [] }, c('rating', 'eq', 3)] }), all, 'inside an or: it holds');
  t.strictSame(await select(t, { not: { or: [] } }), [], 'negated: nothing');
});

t.test('filters apply to related lists, inside the parent', async (t) => {
  t.strictSame(await select(t, [c('rating', 'ge', 4)], { path: '/v1/authors/1/articles' }), ['1']);
  t.strictSame(await select(t, [c('label', 'ne', 'news')], { path: '/v1/articles/1/tags' }), ['2']);
});

t.test('a to-many relationship compares with eq / ne null: none linked, some linked', async (t) => {
  const all = await select(t, []);
  const none = await select(t, [c('tags', 'eq', null)]);
  const some = await select(t, [c('tags', 'ne', null)]);
  t.ok(some.includes('1'), 'Alpha has tags');
  t.ok(none.length > 0, 'some articles have none');
  t.strictSame([...none, ...some].sort(), all, 'each article is in exactly one');
  t.strictSame(await select(t, [c('tags', 'has', c('label', 'ne', 'zzz'))]), some, 'as "has" any tag');
});

t.test('a to-one relationship compares with eq / ne and null or an id, as the caller reads its linkage', async (t) => {
  t.strictSame(await select(t, [c('author', 'ne', null)]), ['1', '2', '4']);
  t.strictSame(
    await select(t, [c('author', 'eq', null)]),
    ['5', '6'],
    "Epsilon's author is soft-deleted: it reads as none",
  );
  t.strictSame(await select(t, [c('author', 'eq', 1)]), ['1', '2']);
  t.strictSame(await select(t, [c('author', 'eq', '2')]), ['4'], 'an id as a string');
  t.strictSame(await select(t, [c('author', 'eq', '2')], { caller: token }), ['3', '4']);
  t.strictSame(await select(t, [c('author', 'ne', 1)]), ['4', '5', '6'], 'ne takes the records linked to nothing too');
  t.strictSame(await select(t, [c('author', 'eq', 3)]), [], 'a soft-deleted author matches nothing');
  t.strictSame(await select(t, [c('author', 'eq', 999)]), []);
  t.strictSame(
    await select(t, [{ not: c('author', 'eq', null) }, c('rating', 'eq', 3)]),
    ['2', '4'],
    'combined with others',
  );
  // Comments of a hidden (unpublished) or deleted article read as linked to none.
  t.strictSame(await select(t, [c('article', 'eq', null)], { path: '/v1/comments' }), ['3', '5']);
  t.strictSame(await select(t, [c('article', 'eq', null)], { path: '/v1/comments', caller: token }), ['5']);
  t.strictSame(
    await select(t, [c('author', 'eq', '2')], { path: '/v1/tags/1/articles', caller: token }),
    ['3'],
    'in a related list',
  );
});

t.test('attribute names may be written in snake_case', async (t) => {
  t.strictSame(await select(t, [c('published_at', 'gt', '2024-03-01T00:00:00Z')]), ['5', '6']);
  t.strictSame(await select(t, [c('author', 'has', c('name', 'eq', 'Bob'))], { caller: token }), ['3', '4']);
  t.strictSame(await select(t, [c('id', 'eq', 1)]), ['1']);
});

const bad: [string, unknown][] = [
  ['invalid JSON', 'not json'],
  ['truncated JSON', '[{"name":"title"'],
  ['a JSON string', '"title"'],
  ['a number', '1'],
  ['null', 'null'],
  ['an array of numbers', [1]],
  ['an array with null', [null]],
  ['an unknown attribute', [c('nothing', 'eq', 1)]],
  ['a to-one relationship compared by order', [c('author', 'lt', '1')]],
  ['a to-one relationship compared with something that is no id', [c('author', 'eq', 'abc')]],
  ['a to-many relationship compared with an id', [c('tags', 'eq', 1)]],
  ['an unknown operator', [c('title', 'between', ['A', 'B'])]],
  ['an operator in upper case', [c('title', 'EQ', 'Alpha')]],
  ['a string for an integer', [c('rating', 'eq', 'abc')]],
  ['a fraction for an integer', [c('rating', 'eq', 1.5)]],
  ['an integer beyond int32', [c('rating', 'gt', 3000000000)]],
  ['a boolean for an integer', [c('rating', 'eq', true)]],
  ['an id that is not a number', [c('id', 'eq', 'abc')]],
  ['a non-boolean for a boolean', [c('published', 'eq', 'yes')]],
  ['a number for a boolean', [c('published', 'eq', 1)]],
  ['a non-date for a date-time', [c('published-at', 'gt', 'yesterday')]],
  ['a number for a date-time', [c('published-at', 'gt', 5)]],
  ['a date before year 1', [c('published-at', 'gt', '-271821-04-20T00:00:00.000Z')]],
  ['a date after year 9999', [c('published-at', 'lt', '+275760-09-13T00:00:00.000Z')]],
  ['an object for a string', [c('title', 'eq', {})]],
  ['an array for a string', [c('title', 'eq', ['Alpha'])]],
  ['a missing value', [{ name: 'title', op: 'eq' }]],
  ['a NUL character', [c('title', 'eq', 'a\u0000b')]],
  ['a string longer than 1000', [c('title', 'eq', 'x'.repeat(1001))]],
  ['like on an integer', [c('rating', 'like', '%1%')]],
  ['ilike on a boolean', [c('published', 'ilike', 'true')]],
  ['like with a number', [c('title', 'like', 5)]],
  // PostgreSQL would fail only on rows whose scan reaches the lone trailing escape: a 500 and an oracle.
  ['like ending in an escape character', [c('title', 'like', '%Alph\\')]],
  ['ilike ending in three escape characters', [c('title', 'ilike', 'a\\\\\\')]],
  ['like ending in one inside has', [c('author', 'has', c('name', 'like', 'Ann\\'))]],
  ['lt with null', [c('rating', 'lt', null)]],
  ['is_ with a value', [c('body', 'is_', 'x')]],
  ['isnot with a value', [c('body', 'isnot', false)]],
  ['in with a string', [c('rating', 'in', '1,2')]],
  ['in with an empty array', [c('rating', 'in', [])]],
  ['notin with an object', [c('rating', 'notin', { a: 1 })]],
  ['in with wrong element types', [c('rating', 'in', [1, 'x'])]],
  [
    'in with more than 1000 values',
    [
      c(
        'rating',
        'in',
        Array.from({ length: 1001 }, (_, i) => i),
      ),
    ],
  ],
  ['has on an unknown relationship', [c('nothing', 'has', c('name', 'eq', 'x'))]],
  ['has on an attribute', [c('title', 'has', c('name', 'eq', 'x'))]],
  ['has with a bad inner condition', [c('author', 'has', c('title', 'eq', 'x'))]],
  ['has with a non-object', [c('author', 'has', 'Ann')]],
  ['a condition with an extra member', [{ name: 'title', op: 'eq', val: 'Alpha', extra: 1 }]],
  ['a condition without op', [{ name: 'title', val: 'Alpha' }]],
  ['an op that is not a string', [{ name: 'title', op: 1, val: 'Alpha' }]],
  ['and with a string', { and: 'x' }],
  ['or with an object', { or: c('title', 'eq', 'Alpha') }],
  ['not with null', { not: null }],
  ['and mixed with a condition', { and: [c('title', 'eq', 'Alpha')], name: 'x' }],
  [
    'nesting deeper than 8 levels',
    Array.from({ length: 10 }).reduce((inner: unknown) => ({ not: inner }), c('rating', 'eq', 1)),
  ],
  ['more than 100 conditions', Array.from({ length: 101 }, () => c('rating', 'eq', 1))],
];

t.test('every bad filter is 400 with source.parameter filter, never a 500', async (t) => {
  for (const [what, filter] of bad) {
    const res = await call(app, { url: `/v1/articles?filter=${q(filter)}` });
    t.test(what, async (t) => assertError(t, res, 400, { parameter: 'filter' }, /^Invalid filter: /));
  }
});

t.test('bad filters are refused on related lists too', async (t) => {
  const res = await call(app, { url: `/v1/authors/1/articles?filter=${q([c('rating', 'eq', 'x')])}` });
  assertError(t, res, 400, { parameter: 'filter' });
  const long = await call(app, { url: `/v1/articles?filter=${q('x'.repeat(10_001))}` });
  assertError(t, long, 400, { parameter: 'filter' });
});

/**
 * Query parameters real clients add: `cache`, `public` and `nocache` (the Open Event front end's cache
 * service, public pages and builds without caching) are accepted on every GET of the engine and change
 * nothing; any other unknown parameter is still 400. The OpenAPI document lists them.
 */
import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { fixtureApp } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const COMPATIBLE = 'cache=true&public=true&nocache=true';

/** Every kind of GET route of the engine: list, record, to-many and to-one related, relationship. */
const READS = [
  '/v1/articles',
  '/v1/articles/1',
  '/v1/articles/1/tags',
  '/v1/articles/1/author',
  '/v1/articles/1/relationships/tags',
  '/v1/articles/1/relationships/author',
];

t.test('cache, public and nocache are accepted on every GET and answer the same document', async (t) => {
  for (const url of READS) {
    const plain = await call(app, { url, token: f.user.token });
    for (const query of [COMPATIBLE, 'cache=true', 'public=true', 'nocache=1', 'public=']) {
      const res = await call(app, { url: `${url}?${query}`, token: f.user.token });
      assertDocument(t, res, 200);
      const { links: _l, ...rest } = res.body;
      const { links: _p, ...expected } = plain.body;
      t.strictSame(rest, expected, `${url}?${query}`);
    }
  }
});

t.test('they combine with the JSON:API parameters, and list links carry them on', async (t) => {
  const res = await call(app, {
    url: `/v1/articles?${COMPATIBLE}&sort=-id&page[size]=2&include=author&fields[article]=title`,
  });
  assertDocument(t, res, 200);
  t.strictSame(
    res.body.data.map((r: { id: string }) => r.id),
    ['6', '5'],
  );
  const next = new URL(res.body.links.next, 'http://x').searchParams;
  t.strictSame(
    [next.get('cache'), next.get('public'), next.get('nocache'), next.get('page[number]')],
    ['true', 'true', 'true', '2'],
  );
});

t.test('other unknown parameters are still 400 naming them, on every GET', async (t) => {
  for (const url of READS) {
    for (const name of ['caches', 'Cache', 'upcoming', 'trashed']) {
      assertError(
        t,
        await call(app, { url: `${url}?cache=true&${name}=true` }),
        400,
        { parameter: name },
        /is not allowed here/,
      );
    }
  }
  assertError(t, await call(app, { url: `/v1/articles?cache=${'x'.repeat(101)}` }), 400, { parameter: 'cache' });
});

t.test('the OpenAPI document lists them on every GET of the engine as compatibility parameters', async (t) => {
  type Parameter = { name: string; in: string; description?: string; $ref?: string };
  const { paths, components } = app.swagger() as {
    paths: Record<string, { get?: { parameters?: Parameter[] } }>;
    components: { parameters?: Record<string, Parameter> };
  };
  // Parameters several operations share are declared once, under components/parameters.
  const deref = (p: Parameter) => (p.$ref ? components.parameters![p.$ref.split('/').pop()!]! : p);
  const engine = /^\/v1\/(articles|authors|tags|comments|reviews|users)(\/|$)/;
  // The caller's user id (app/api/custom/users.py) is a plain route of its own beside the engine's.
  const reads = Object.entries(paths).filter(
    ([path, item]) => engine.test(path) && item.get && path !== '/v1/users/user-details/get-user-id',
  );
  t.ok(reads.length >= 20, `${reads.length} GET operations`);
  for (const [path, item] of reads) {
    const query = (item.get!.parameters ?? []).map(deref).filter((p) => p.in === 'query');
    for (const name of ['cache', 'public', 'nocache']) {
      t.equal(
        query.find((p) => p.name === name)?.description,
        'accepted for the Open Event front end; no effect',
        `${path}: ${name}`,
      );
    }
  }
});

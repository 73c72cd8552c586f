/**
 * `get_trashed=true` (src/jsonapi/query.ts, `trashedParameter`): an administrator's read sees
 * soft-deleted records too, everywhere in the read (lists, records, related reads, includes, filters
 * and linkage); anyone else is refused, and without the parameter deleted records stay hidden.
 * Fixtures: author 3 Cid is deleted (article 5 Epsilon is his), article 7 Eta (Ann's) is deleted.
 */
import t from 'tap';
import { assertDocument, assertError, call } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';
import { fixtureApp, idsOf } from './fixtures.js';

const f = await fixtureApp(t);
const { app } = f;
const admin = await seedUser(app, { admin: true });
const superAdmin = await seedUser(app, { superAdmin: true });
const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

async function read(url: string, token = admin.token) {
  const res = await call(app, { url, token });
  return res;
}

t.test('lists: deleted records are listed with the live ones, counted and paged', async (t) => {
  const all = await read('/v1/articles?get_trashed=true');
  assertDocument(t, all, 200);
  t.strictSame(idsOf(all.body.data), ['1', '2', '3', '4', '5', '6', '7']);
  t.equal(all.body.meta.count, 7);
  t.equal(new URL(all.body.links.next ?? all.body.links.self, 'http://x').searchParams.get('get_trashed'), 'true');
  const live = await read('/v1/articles');
  t.strictSame(idsOf(live.body.data), ['1', '2', '3', '4', '5', '6'], 'without it: live records only');
  const no = await read('/v1/articles?get_trashed=false');
  t.strictSame([no.body.data, no.body.meta], [live.body.data, live.body.meta], 'false is no parameter');
  const authors = await read('/v1/authors?get_trashed=true');
  t.strictSame(idsOf(authors.body.data), ['1', '2', '3', '4']);
  const page = await read('/v1/articles?get_trashed=true&page[size]=3&page[number]=3');
  t.strictSame(idsOf(page.body.data), ['7'], 'the last page holds the deleted one');
  t.equal(page.body.meta.count, 7);
  const superAdmins = await read('/v1/authors?get_trashed=true', superAdmin.token);
  t.strictSame(idsOf(superAdmins.body.data), ['1', '2', '3', '4'], 'super administrators too');
});

t.test('filters reach deleted records, through relationships too', async (t) => {
  const byAuthor = q([{ name: 'author', op: 'has', val: { name: 'name', op: 'eq', val: 'Cid' } }]);
  t.strictSame(idsOf((await read(`/v1/articles?get_trashed=true&filter=${byAuthor}`)).body.data), ['5']);
  t.strictSame(idsOf((await read(`/v1/articles?filter=${byAuthor}`)).body.data), [], 'without: Cid is nobody');
  const linked = q([{ name: 'author', op: 'eq', val: '3' }]);
  t.strictSame(idsOf((await read(`/v1/articles?get_trashed=true&filter=${linked}`)).body.data), ['5']);
  const tagged = q([{ name: 'articles', op: 'any', val: { name: 'title', op: 'eq', val: 'Eta' } }]);
  t.strictSame(idsOf((await read(`/v1/tags?get_trashed=true&filter=${tagged}`)).body.data), ['1']);
  t.strictSame(idsOf((await read(`/v1/tags?filter=${tagged}`)).body.data), []);
});

t.test('records, related reads, includes and linkage', async (t) => {
  const eta = await read('/v1/articles/7?get_trashed=true&include=author,tags');
  assertDocument(t, eta, 200);
  t.equal(eta.body.data.attributes.title, 'Eta');
  t.strictSame(eta.body.data.relationships.author.data, { type: 'author', id: '1' });
  t.strictSame(
    eta.body.included.map((r: { type: string; id: string }) => `${r.type} ${r.id}`),
    ['author 1', 'tag 1'],
  );
  assertError(t, await read('/v1/articles/7'), 404, undefined, 'Object not found.');

  const epsilon = await read('/v1/articles/5?get_trashed=true&include=author');
  t.strictSame(
    epsilon.body.data.relationships.author.data,
    { type: 'author', id: '3' },
    'linked to the deleted author',
  );
  t.strictSame(epsilon.body.included[0].attributes, { name: 'Cid' });
  const plain = await read('/v1/articles/5?include=author');
  t.equal(plain.body.data.relationships.author.data, null, 'without: linked to none');
  t.strictSame(plain.body.included, []);

  t.equal((await read('/v1/articles/5/author?get_trashed=true')).body.data.id, '3');
  t.equal((await read('/v1/articles/5/author')).body.data, null);
  t.strictSame((await read('/v1/articles/5/relationships/author?get_trashed=true')).body.data, {
    type: 'author',
    id: '3',
  });
  t.equal((await read('/v1/articles/5/relationships/author')).body.data, null);
  t.strictSame(idsOf((await read('/v1/authors/1/articles?get_trashed=true')).body.data), ['1', '2', '7']);
  t.strictSame(idsOf((await read('/v1/authors/3/articles?get_trashed=true')).body.data), ['5'], 'of a deleted parent');
  assertError(t, await read('/v1/authors/3/articles'), 404);
});

t.test('only administrators may ask; a bad value is 400', async (t) => {
  for (const url of [
    '/v1/articles',
    '/v1/articles/7',
    '/v1/articles/1',
    '/v1/articles/5/author',
    '/v1/authors/1/articles',
  ]) {
    assertError(
      t,
      await call(app, { url: `${url}?get_trashed=true`, token: f.user.token }),
      403,
      { parameter: 'get_trashed' },
      'Only administrators read deleted records',
    );
    assertError(t, await call(app, { url: `${url}?get_trashed=true` }), 401, undefined, /log in/);
    for (const value of ['1', 'TRUE', 'yes', '']) {
      assertError(t, await read(`${url}?get_trashed=${value}`), 400, { parameter: 'get_trashed' });
    }
    t.equal(
      (await call(app, { url: `${url}?get_trashed=false`, token: f.user.token })).status,
      url.includes('/7') ? 404 : 200,
    );
  }
});

t.test('writes act on live records only: the parameter does not reach a deleted one', async (t) => {
  const res = await call(app, {
    method: 'PATCH',
    url: '/v1/articles/7?get_trashed=true',
    token: admin.token,
    body: { data: { type: 'article', id: '7', attributes: { title: 'Revived' } } },
  });
  assertError(t, res, 404);
  t.equal((await f.sql('select title from articles where id = 7'))[0]!.title, 'Eta');
});

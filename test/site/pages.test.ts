/**
 * Pages: everyone reads them, only administrators (admin or super admin) write them. The permission
 * matrix names the expected status of every route for every caller once; each cell that may write
 * acts on a page made for it alone, and a refused write leaves the table unchanged. Then the
 * documents themselves: create defaults, list sort / filter / paging, ids that name nothing, delete.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { create, expectCell, snapshotOf } from '../helpers/events.js';
import { expectError, seedUser, type TestUser } from '../helpers/users.js';

type Role = 'anonymous' | 'user' | 'admin' | 'superAdmin';
type Route =
  | 'GET /v1/pages'
  | 'GET /v1/pages/{id}'
  | 'POST /v1/pages'
  | 'PATCH /v1/pages/{id}'
  | 'DELETE /v1/pages/{id}';

const ROLES: Role[] = ['anonymous', 'user', 'admin', 'superAdmin'];
/** The whole matrix: route x caller -> status. */
const MATRIX: Record<Route, Record<Role, number>> = {
  'GET /v1/pages': { anonymous: 200, user: 200, admin: 200, superAdmin: 200 },
  'GET /v1/pages/{id}': { anonymous: 200, user: 200, admin: 200, superAdmin: 200 },
  'POST /v1/pages': { anonymous: 401, user: 403, admin: 201, superAdmin: 201 },
  'PATCH /v1/pages/{id}': { anonymous: 401, user: 403, admin: 200, superAdmin: 200 },
  'DELETE /v1/pages/{id}': { anonymous: 401, user: 403, admin: 200, superAdmin: 200 },
};
const REFUSAL: Record<number, string> = { 401: 'Authentication is required', 403: 'Admin access is required' };

let n = 0;
const terms = () => ({ name: `Terms ${++n}`, url: `/terms-${n}`, description: 'The terms of use.' });

/** What `GET /v1/pages/{id}` answers for a page with these attributes (all of them). */
const pageDocument = (id: string, attributes: Record<string, unknown>) => ({
  data: {
    type: 'page',
    id,
    attributes: { title: null, language: null, index: 0, place: null, ...attributes },
    relationships: {},
    links: { self: `/v1/pages/${id}` },
  },
  links: { self: `/v1/pages/${id}` },
  jsonapi: { version: '1.0' },
});

async function pageRows(app: FastifyInstance) {
  return app.sql`select id, name, title, url, description, language, index, place from pages order by id`;
}

t.test('pages', async (t) => {
  const { app } = await buildTestApp(t);
  const users: Record<Exclude<Role, 'anonymous'>, TestUser> = {
    user: await seedUser(app),
    admin: await seedUser(app, { admin: true }),
    superAdmin: await seedUser(app, { superAdmin: true }),
  };
  const tokenOf = (role: Role) => (role === 'anonymous' ? undefined : users[role].token);
  const admin = users.admin.token;
  const snapshot = snapshotOf(app, ['pages']);

  t.test('a document echoed back as read (with its empty relationships member) is accepted', async (t) => {
    const id = await create(app, admin, 'pages', 'page', terms());
    const read = await call(app, { url: `/v1/pages/${id}` });
    const { type, attributes, relationships } = read.body.data;
    t.same(relationships, {}, 'responses carry an empty relationships member');
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/pages/${id}`,
      token: admin,
      body: { data: { type, id, attributes, relationships } },
    });
    t.equal(res.status, 200);
    t.same(res.body.data.attributes, attributes);
  });

  t.test('permission matrix', async (t) => {
    for (const route of Object.keys(MATRIX) as Route[]) {
      for (const role of ROLES) {
        const label = `${route} as ${role}`;
        const status = MATRIX[route][role];
        const id = await create(app, admin, 'pages', 'page', terms());
        const url = route.replace('{id}', id).replace(/^\w+ /, '');
        const method = route.split(' ')[0] as 'GET' | 'POST' | 'PATCH' | 'DELETE';
        const body =
          method === 'POST'
            ? { data: { type: 'page', attributes: terms() } }
            : method === 'PATCH'
              ? { data: { type: 'page', id, attributes: { name: `Renamed ${id}`, place: 'footer' } } }
              : undefined;
        const before = await snapshot();
        const res = await call(app, { method, url, token: tokenOf(role), body });
        expectCell(t, res, status, label);
        if (status >= 400) {
          t.equal(res.body?.errors?.[0]?.detail, REFUSAL[status], `${label}: detail`);
          t.same(await snapshot(), before, `${label}: nothing written`);
          continue;
        }
        const after = await call(app, { url: method === 'POST' ? res.headers.location! : `/v1/pages/${id}` });
        if (method === 'POST') t.same(after.body.data, res.body.data, `${label}: the created page is readable`);
        if (method === 'PATCH')
          t.match(after.body.data.attributes, { name: `Renamed ${id}`, place: 'footer' }, `${label}: changed`);
        if (method === 'DELETE') {
          t.equal(after.status, 404, `${label}: gone`);
          t.strictSame(
            res.body,
            { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } },
            `${label}: delete meta`,
          );
        }
        if (method === 'GET') t.same(await snapshot(), before, `${label}: a read writes nothing`);
      }
    }
  });

  t.test('create answers 201, Location and the whole document with the defaults', async (t) => {
    const attributes = { name: 'Privacy', url: 'https://example.com/privacy', description: '' };
    const res = await call(app, {
      method: 'POST',
      url: '/v1/pages',
      token: users.superAdmin.token,
      body: { data: { type: 'page', attributes } },
    });
    assertDocument(t, res, 201);
    const id = res.body.data.id as string;
    t.match(id, /^[1-9]\d*$/, 'a numeric string id');
    t.equal(res.headers.location, `/v1/pages/${id}`, 'Location names the new page');
    t.strictSame(res.body, pageDocument(id, attributes), 'the whole document: index 0, place/title/language null');
    t.strictSame((await call(app, { url: `/v1/pages/${id}` })).body, res.body, 'GET answers the same document');
    const [row] = await app.sql`select * from pages where id = ${Number(id)}`;
    t.strictSame(
      { ...row },
      { id: Number(id), title: null, language: null, index: 0, place: null, ...attributes },
      'the row as stored',
    );

    const full = {
      name: 'Über',
      title: 'About us',
      url: '/about',
      description: 'x'.repeat(100_000),
      language: 'pt-BR',
      index: 7,
      place: 'event',
    };
    const all = await call(app, {
      method: 'POST',
      url: '/v1/pages',
      token: admin,
      body: { data: { type: 'page', attributes: full } },
    });
    assertDocument(t, all, 201);
    t.strictSame(all.body, pageDocument(all.body.data.id, full), 'every attribute given is answered as given');
  });

  t.test('update answers the whole document and may clear the optional attributes', async (t) => {
    const id = await create(app, admin, 'pages', 'page', {
      ...terms(),
      title: 'T',
      language: 'en',
      index: 3,
      place: 'footer',
    });
    const body = {
      data: { type: 'page', id, attributes: { title: null, language: null, place: null, index: 0, description: '' } },
    };
    const res = await call(app, { method: 'PATCH', url: `/v1/pages/${id}`, token: admin, body });
    assertDocument(t, res, 200);
    const { name, url } = res.body.data.attributes;
    t.strictSame(
      res.body,
      pageDocument(id, { name, url, description: '' }),
      'optional attributes cleared, others kept',
    );
    t.strictSame((await call(app, { url: `/v1/pages/${id}` })).body, res.body, 'GET answers the same');
  });

  t.test('list: sort, filter, paging', async (t) => {
    await app.sql`delete from pages`;
    const made: [string, number, string | null][] = [
      ['Beta', 2, 'footer'],
      ['Alpha', 1, 'footer'],
      ['Gamma', 1, 'event'],
      ['Delta', 0, null],
      ['Alpha', 2, 'event'],
    ];
    const ids = new Map<string, string>();
    for (const [name, index, place] of made) {
      ids.set(
        `${name}/${index}`,
        await create(app, admin, 'pages', 'page', { name, url: `/${name}`, description: '', index, place }),
      );
    }
    const keys = (res: Awaited<ReturnType<typeof call>>) =>
      res.body.data.map(
        (d: { attributes: { name: string; index: number } }) => `${d.attributes.name}/${d.attributes.index}`,
      );

    const sorted = await call(app, { url: '/v1/pages?sort=index,-name' });
    assertDocument(t, sorted, 200);
    t.strictSame(
      keys(sorted),
      ['Delta/0', 'Gamma/1', 'Alpha/1', 'Beta/2', 'Alpha/2'],
      'index ascending, then name descending',
    );
    t.equal(sorted.body.meta.count, 5, 'meta.count');
    t.strictSame(
      sorted.body.data.find((d: { id: string }) => d.id === ids.get('Gamma/1')),
      pageDocument(ids.get('Gamma/1')!, { name: 'Gamma', url: '/Gamma', description: '', index: 1, place: 'event' })
        .data,
      'a list entry is the whole resource object',
    );
    const reverse = await call(app, { url: '/v1/pages?sort=-index,name' });
    t.strictSame(
      keys(reverse),
      ['Alpha/2', 'Beta/2', 'Alpha/1', 'Gamma/1', 'Delta/0'],
      'index descending, then name ascending',
    );

    const footer = encodeURIComponent(JSON.stringify([{ name: 'place', op: 'eq', val: 'footer' }]));
    const filtered = await call(app, { url: `/v1/pages?filter=${footer}&sort=index` });
    assertDocument(t, filtered, 200);
    t.strictSame(keys(filtered), ['Alpha/1', 'Beta/2'], 'only footer pages');
    t.equal(filtered.body.meta.count, 2, 'meta.count counts the filtered pages');
    const none = encodeURIComponent(JSON.stringify([{ name: 'place', op: 'is_', val: null }]));
    t.strictSame(keys(await call(app, { url: `/v1/pages?filter=${none}` })), ['Delta/0'], 'place is null');

    const unknown = encodeURIComponent(JSON.stringify([{ name: 'bogus', op: 'eq', val: 'footer' }]));
    expectError(t, await call(app, { url: `/v1/pages?filter=${unknown}` }), 400, { parameter: 'filter' });
    expectError(t, await call(app, { url: '/v1/pages?sort=bogus' }), 400, { parameter: 'sort' });

    const page2 = await call(app, { url: '/v1/pages?sort=index,-name&page[size]=2&page[number]=2' });
    assertDocument(t, page2, 200);
    t.strictSame(keys(page2), ['Alpha/1', 'Beta/2'], 'the second page of two');
    t.equal(page2.body.meta.count, 5, 'meta.count is the total, not the page');
    t.match(
      page2.body.links,
      {
        first: /page%5Bnumber%5D=1/,
        last: /page%5Bnumber%5D=3/,
        prev: /page%5Bnumber%5D=1/,
        next: /page%5Bnumber%5D=3/,
      },
      'paging links',
    );
    const last = await call(app, { url: '/v1/pages?sort=index,-name&page[size]=2&page[number]=3' });
    t.strictSame(keys(last), ['Alpha/2'], 'the last page');
    t.equal(last.body.links.next, null, 'no next page after the last');
    expectError(t, await call(app, { url: '/v1/pages?page[size]=10001' }), 400, { parameter: 'page[size]' });
  });

  t.test('ids that name no page', async (t) => {
    const before = await snapshot();
    for (const id of ['424242', 'abc', '0', '-1', '1.5', '99999999999']) {
      const get = await call(app, { url: `/v1/pages/${id}` });
      expectError(t, get, 404, { detail: 'Object not found.' });
      const body = { data: { type: 'page', id, attributes: { name: 'X' } } };
      expectError(t, await call(app, { method: 'PATCH', url: `/v1/pages/${id}`, token: admin, body }), 404, {
        detail: 'Object not found.',
      });
      expectError(t, await call(app, { method: 'DELETE', url: `/v1/pages/${id}`, token: admin }), 404, {
        detail: 'Object not found.',
      });
    }
    t.same(await snapshot(), before, 'nothing written');
  });

  t.test('delete is a hard delete; then the page is gone everywhere', async (t) => {
    const id = await create(app, admin, 'pages', 'page', terms());
    const res = await call(app, { method: 'DELETE', url: `/v1/pages/${id}`, token: admin });
    assertDocument(t, res, 200);
    t.strictSame(res.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
    expectError(t, await call(app, { url: `/v1/pages/${id}` }), 404, { detail: 'Object not found.' });
    t.notOk(
      (await pageRows(app)).some((r) => String(r.id) === id),
      'the row is gone',
    );
    const list = await call(app, { url: '/v1/pages?page[size]=100' });
    t.notOk(
      list.body.data.some((d: { id: string }) => d.id === id),
      'not listed',
    );
    expectError(t, await call(app, { method: 'DELETE', url: `/v1/pages/${id}`, token: admin }), 404);
    const body = { data: { type: 'page', id, attributes: { name: 'Back' } } };
    expectError(t, await call(app, { method: 'PATCH', url: `/v1/pages/${id}`, token: admin, body }), 404);
  });
});

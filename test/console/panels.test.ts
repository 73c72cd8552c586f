/**
 * The panel permissions are enforced: a custom system role opens the panels linked to it while their can-access
 * holds; closing the panel or unlinking the role takes it away at the next request, cached answers included.
 */
import t from 'tap';
import { userSystemRoles } from '../../db/schema/index.js';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const [admin, salesAdmin, analyst, user, support] = [
  await seedUser(app, { admin: true }),
  await seedUser(app),
  await seedUser(app),
  await seedUser(app),
  await seedUser(app),
];

const SALES = [
  '/v1/admin/sales/by-events',
  '/v1/admin/sales/by-organizers',
  '/v1/admin/sales/fees',
  '/v1/admin/sales/by-location',
  '/v1/admin/sales/by-marketer',
];
const ELSEWHERE = [
  '/v1/admin/statistics/events',
  '/v1/admin/statistics/event-types',
  '/v1/panel-permissions',
  '/v1/ticket-fees',
  '/v1/users',
];

const get = (url: string, token: string) => call(app, { url, token });
const panels = async () => {
  const res = await get('/v1/panel-permissions?page[size]=0', admin.token);
  return new Map<string, string>(res.body.data.map((p: any) => [p.attributes['panel-name'], p.id]));
};
const roles = async () => {
  const res = await get('/v1/custom-system-roles?page[size]=0', admin.token);
  return new Map<string, string>(res.body.data.map((r: any) => [r.attributes.name, r.id]));
};
const setAccess = async (panel: string, value: boolean) => {
  const id = (await panels()).get(panel)!;
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/panel-permissions/${id}`,
    token: admin.token,
    body: { data: { type: 'panel-permission', id, attributes: { 'can-access': value } } },
  });
  t.equal(res.status, 200, `the ${panel} panel's can-access is ${value}`);
};

t.test('the seeds: ten panels, the two roles open the sales panel', async (t) => {
  t.same([...(await panels()).keys()].sort(), [
    'admin',
    'content',
    'events',
    'messages',
    'permissions',
    'reports',
    'sales',
    'sessions',
    'settings',
    'users',
  ]);
  const id = (await roles()).get('Sales Admin')!;
  const res = await get(`/v1/custom-system-roles/${id}/panel-permissions`, admin.token);
  assertDocument(t, res, 200);
  t.same(
    res.body.data.map((p: any) => p.attributes['panel-name']),
    ['sales'],
  );
});

t.test(
  'the two roles the user flags hold by name keep their name and stay (403): their holders keep the panels',
  async (t) => {
    for (const name of ['Sales Admin', 'Marketer']) {
      const id = String((await roles()).get(name)!);
      const rename = await call(app, {
        method: 'PATCH',
        url: `/v1/custom-system-roles/${id}`,
        token: admin.token,
        body: { data: { type: 'custom-system-role', id, attributes: { name: `${name} (old)` } } },
      });
      expectError(t, rename, 403);
      const same = await call(app, {
        method: 'PATCH',
        url: `/v1/custom-system-roles/${id}`,
        token: admin.token,
        body: { data: { type: 'custom-system-role', id, attributes: { name } } },
      });
      t.equal(same.status, 200, 'its own name sent back is accepted');
      expectError(
        t,
        await call(app, { method: 'DELETE', url: `/v1/custom-system-roles/${id}`, token: admin.token }),
        403,
      );
      t.equal((await roles()).get(name) !== undefined, true, `${name} is still there`);
    }
  },
);

t.test('the is-sales-admin flag an administrator sets opens the sales panel and nothing else', async (t) => {
  for (const url of SALES)
    expectError(t, await get(url, salesAdmin.token), 403, { detail: 'Admin access is required' });
  const flag = await call(app, {
    method: 'PATCH',
    url: `/v1/users/${salesAdmin.id}`,
    token: admin.token,
    body: { data: { type: 'user', id: salesAdmin.id, attributes: { 'is-sales-admin': true } } },
  });
  t.equal(flag.status, 200);
  for (const url of SALES) assertDocument(t, await get(url, salesAdmin.token), 200);
  for (const url of ELSEWHERE) expectError(t, await get(url, salesAdmin.token), 403);
  for (const url of SALES) expectError(t, await get(url, user.token), 403);
  expectError(t, await call(app, { url: SALES[0]! }), 401);
});

t.test('closing the sales panel takes it away at once, kept answers included; opening gives it back', async (t) => {
  // Twice: the second answer comes from the read cache.
  assertDocument(t, await get(SALES[0]!, salesAdmin.token), 200);
  assertDocument(t, await get(SALES[0]!, salesAdmin.token), 200);
  await setAccess('sales', false);
  for (const url of SALES) expectError(t, await get(url, salesAdmin.token), 403);
  assertDocument(t, await get(SALES[0]!, admin.token), 200);
  await setAccess('sales', true);
  assertDocument(t, await get(SALES[0]!, salesAdmin.token), 200);
});

t.test('unlinking the role from the panel takes it away; linking gives it back', async (t) => {
  const role = (await roles()).get('Sales Admin')!;
  const sales = (await panels()).get('sales')!;
  const link = (data: unknown[]) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/custom-system-roles/${role}/relationships/panel-permissions`,
      token: admin.token,
      body: { data },
    });
  t.equal((await link([])).status, 200);
  expectError(t, await get(SALES[1]!, salesAdmin.token), 403);
  t.equal((await link([{ type: 'panel-permission', id: sales }])).status, 200);
  assertDocument(t, await get(SALES[1]!, salesAdmin.token), 200);
});

t.test('a role an administrator defines opens its panels to those holding it; deleting it closes them', async (t) => {
  const adminPanel = (await panels()).get('admin')!;
  const created = await call(app, {
    method: 'POST',
    url: '/v1/custom-system-roles',
    token: admin.token,
    body: {
      data: {
        type: 'custom-system-role',
        attributes: { name: 'Analyst' },
        relationships: { 'panel-permissions': { data: [{ type: 'panel-permission', id: adminPanel }] } },
      },
    },
  });
  assertDocument(t, created, 201);
  const role = created.body.data.id as string;
  await app.db.insert(userSystemRoles).values({ userId: Number(analyst.id), roleId: Number(role) });
  assertDocument(t, await get('/v1/admin/statistics/events', analyst.token), 200);
  assertDocument(t, await get('/v1/admin/statistics/event-topics', analyst.token), 200);
  expectError(t, await get(SALES[0]!, analyst.token), 403);
  await setAccess('admin', false);
  expectError(t, await get('/v1/admin/statistics/events', analyst.token), 403);
  await setAccess('admin', true);
  assertDocument(t, await get('/v1/admin/statistics/events', analyst.token), 200);
  const gone = await call(app, { method: 'DELETE', url: `/v1/custom-system-roles/${role}`, token: admin.token });
  assertDocument(t, gone, 200);
  expectError(t, await get('/v1/admin/statistics/events', analyst.token), 403);
});

t.test('who reads and writes roles and panels', async (t) => {
  assertDocument(t, await call(app, { url: '/v1/custom-system-roles' }), 200);
  expectError(t, await call(app, { url: '/v1/panel-permissions' }), 401);
  expectError(t, await get('/v1/panel-permissions', salesAdmin.token), 403);
  const [made] = await app.sql<{ id: number }[]>`insert into custom_sys_roles (name) values ('Usher') returning id`;
  const role = String(made!.id);
  const rename = (token: string) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/custom-system-roles/${role}`,
      token,
      body: { data: { type: 'custom-system-role', id: role, attributes: { name: 'Promoter' } } },
    });
  expectError(t, await rename(salesAdmin.token), 403);
  assertDocument(t, await rename(admin.token), 200);
  const twin = await call(app, {
    method: 'POST',
    url: '/v1/custom-system-roles',
    token: admin.token,
    body: { data: { type: 'custom-system-role', attributes: { name: 'Promoter' } } },
  });
  expectError(t, twin, 409, { pointer: '/data/attributes/name', detail: 'A system role with this name exists' });
});

t.test('the users panel opens the user list and user records to read, never to write', async (t) => {
  const usersPanel = (await panels()).get('users')!;
  const role = await call(app, {
    method: 'POST',
    url: '/v1/custom-system-roles',
    token: admin.token,
    body: {
      data: {
        type: 'custom-system-role',
        attributes: { name: 'Support' },
        relationships: { 'panel-permissions': { data: [{ type: 'panel-permission', id: usersPanel }] } },
      },
    },
  });
  assertDocument(t, role, 201);
  expectError(t, await get('/v1/users', support.token), 403, { detail: 'Admin access is required' });
  expectError(t, await get(`/v1/users/${user.id}`, support.token), 403);
  await app.db.insert(userSystemRoles).values({ userId: Number(support.id), roleId: Number(role.body.data.id) });
  const list = await get('/v1/users?page[size]=0', support.token);
  assertDocument(t, list, 200);
  t.ok(list.body.meta.count >= 5, 'every user');
  assertDocument(t, await get(`/v1/users/${user.id}`, support.token), 200);
  const change = await call(app, {
    method: 'PATCH',
    url: `/v1/users/${user.id}`,
    token: support.token,
    body: { data: { type: 'user', id: user.id, attributes: { 'first-name': 'Changed' } } },
  });
  expectError(t, change, 403);
  expectError(t, await get(SALES[0]!, support.token), 403);
  await setAccess('users', false);
  expectError(t, await get('/v1/users', support.token), 403);
  expectError(t, await get(`/v1/users/${user.id}`, support.token), 403);
  await setAccess('users', true);
});

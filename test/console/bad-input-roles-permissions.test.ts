/**
 * Bad input to custom system roles, panel permissions, user permissions, services and event role permissions, sent
 * by an administrator so that only validation decides: each a 4xx error document with the expected status and
 * source, never a 500, and nothing written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

type Case = RefusedCase<unknown>;
const at = (name: string) => `/data/attributes/${name}`;

const { app } = await buildTestApp(t);
const admin = (await seedUser(app, { admin: true })).token;
// A role of the administrators' own (the seeded two keep their names: they are held through the user flags).
const [role] = await app.sql<
  { id: number }[]
>`insert into custom_sys_roles (name) values ('Bad input role') returning id`;
const snapshot = snapshotOf(app, [
  'custom_sys_roles',
  'roles_panels',
  'panel_permissions',
  'user_permissions',
  'services',
  'permissions',
]);
const before = await snapshot();
const send = (method: 'POST' | 'PATCH', url: string) => (body: unknown) =>
  call(app, { method, url, token: admin, body });
const [panel] = await app.sql<{ id: number }[]>`select id from panel_permissions where panel_name = 'sales'`;
const [permission] = await app.sql<{ id: number }[]>`select id from user_permissions where name = 'create_event'`;
const [right] = await app.sql<{ id: number }[]>`select id from permissions order by id limit 1`;
const ROLE = String(role!.id);
const PANEL = String(panel!.id);
const RIGHT = String(right!.id);

/** What every create refuses, whatever the resource. */
const common = (type: string, valid: Record<string, unknown>): Case[] => [
  ['malformed JSON', `{"data":{"type":"${type}"`, 400],
  ['no data', {}, 422, '/data'],
  ['type is wrong', { data: { type: 'event-type', attributes: valid } }, 409, '/data/type'],
  ['client-generated id', { data: { type, id: '9', attributes: valid } }, 403, '/data/id'],
  ['unknown attribute', { data: { type, attributes: { ...valid, colour: 'red' } } }, 422, at('colour')],
];
const named = (type: string, member: string, max: number, taken: string): Case[] => {
  const doc = (attributes: Record<string, unknown>) => ({ data: { type, attributes } });
  return [
    [`${member} missing`, doc({}), 422, at(member)],
    [`${member} empty`, doc({ [member]: '' }), 422, at(member)],
    [`${member} a number`, doc({ [member]: 7 }), 422, at(member)],
    [`${member} over ${max} characters`, doc({ [member]: 'n'.repeat(max + 1) }), 422, at(member)],
    [`${member} with a NUL character`, doc({ [member]: 'a\u0000b' }), 422, at(member)],
    [`${member} taken`, doc({ [member]: taken }), 409, at(member)],
  ];
};

t.test('POST /v1/custom-system-roles', (t) => {
  const doc = (relationships: Record<string, unknown>) => ({
    data: { type: 'custom-system-role', attributes: { name: 'Accountant' }, relationships },
  });
  const cases: Case[] = [
    ...common('custom-system-role', { name: 'Accountant' }),
    ...named('custom-system-role', 'name', 255, 'Sales Admin'),
    [
      'panel that does not exist',
      doc({ 'panel-permissions': { data: [rel('panel-permission', '424242').data] } }),
      404,
    ],
    [
      'panel of the wrong type',
      doc({ 'panel-permissions': { data: [rel('service', '1').data] } }),
      409,
      '/data/relationships/panel-permissions/data/0/type',
    ],
    [
      'panels not a list',
      doc({ 'panel-permissions': rel('panel-permission', PANEL) }),
      422,
      '/data/relationships/panel-permissions/data',
    ],
  ];
  return expectRefused(t, cases, send('POST', '/v1/custom-system-roles'), snapshot, before);
});

t.test('POST /v1/panel-permissions', (t) => {
  const cases: Case[] = [
    ...common('panel-permission', { 'panel-name': 'audit' }),
    ...named('panel-permission', 'panel-name', 64, 'sales'),
    [
      'can-access not a boolean',
      { data: { type: 'panel-permission', attributes: { 'panel-name': 'audit', 'can-access': 'yes' } } },
      422,
      at('can-access'),
    ],
  ];
  return expectRefused(t, cases, send('POST', '/v1/panel-permissions'), snapshot, before);
});

t.test('POST /v1/user-permissions', (t) => {
  const cases: Case[] = [
    ...common('user-permission', { name: 'audit' }),
    ...named('user-permission', 'name', 255, 'create_event'),
    [
      'unverified-user not a boolean',
      { data: { type: 'user-permission', attributes: { name: 'audit', 'unverified-user': 'maybe' } } },
      422,
      at('unverified-user'),
    ],
    [
      'deleted-at is read-only',
      { data: { type: 'user-permission', attributes: { name: 'audit', 'deleted-at': '2020-01-01T00:00:00Z' } } },
      422,
      at('deleted-at'),
    ],
  ];
  return expectRefused(t, cases, send('POST', '/v1/user-permissions'), snapshot, before);
});

t.test('PATCH of roles, panels, user permissions, services and event role permissions', async (t) => {
  const patch = (path: string, type: string, id: string, attributes: Record<string, unknown>, extra = {}) => [
    `/v1/${path}/${id}`,
    { data: { type, id, attributes, ...extra } },
  ];
  const cases: Array<[string, [string, unknown], number, string?]> = [
    [
      'role renamed to a taken name',
      patch('custom-system-roles', 'custom-system-role', ROLE, { name: 'Marketer' }) as [string, unknown],
      409,
      at('name'),
    ],
    [
      'role name cleared',
      patch('custom-system-roles', 'custom-system-role', ROLE, { name: null }) as [string, unknown],
      422,
      at('name'),
    ],
    [
      'panel renamed to a taken name',
      patch('panel-permissions', 'panel-permission', PANEL, { 'panel-name': 'admin' }) as [string, unknown],
      409,
      at('panel-name'),
    ],
    [
      'panel can-access null',
      patch('panel-permissions', 'panel-permission', PANEL, { 'can-access': null }) as [string, unknown],
      422,
      at('can-access'),
    ],
    [
      'user permission renamed to a taken name',
      patch('user-permissions', 'user-permission', String(permission!.id), { name: 'publish_event' }) as [
        string,
        unknown,
      ],
      409,
      at('name'),
    ],
    ['service renamed', patch('services', 'service', '1', { name: 'workshop' }) as [string, unknown], 422, at('name')],
    [
      'right not a boolean',
      patch('event-role-permissions', 'event-role-permissions', RIGHT, { 'can-create': 2 }) as [string, unknown],
      422,
      at('can-create'),
    ],
    [
      'right null',
      patch('event-role-permissions', 'event-role-permissions', RIGHT, { 'can-read': null }) as [string, unknown],
      422,
      at('can-read'),
    ],
    [
      'role of a permission changed',
      patch(
        'event-role-permissions',
        'event-role-permissions',
        RIGHT,
        {},
        { relationships: { role: rel('role', 'moderator') } },
      ) as [string, unknown],
      422,
      '/data/relationships/role',
    ],
    [
      'id of another record',
      patch('event-role-permissions', 'event-role-permissions', RIGHT, {}, { id: '424242' }) as [string, unknown],
      409,
      '/data/id',
    ],
  ];
  for (const [what, [url, body], status, pointer] of cases) {
    await expectRefused(t, [[what, body, status, pointer]], send('PATCH', url), snapshot, before);
  }
  await expectRefused(
    t,
    [
      [
        'a permission that does not exist',
        { data: { type: 'event-role-permissions', id: '424242', attributes: {} } },
        404,
      ],
    ],
    send('PATCH', '/v1/event-role-permissions/424242'),
    snapshot,
    before,
  );
});

t.test('relationship routes of roles and panels', async (t) => {
  const cases: Case[] = [
    ['not a list', rel('panel-permission', PANEL), 422, '/data'],
    ['a panel that does not exist', { data: [{ type: 'panel-permission', id: '424242' }] }, 404],
    ['wrong type', { data: [{ type: 'custom-system-role', id: ROLE }] }, 409, '/data/0/type'],
  ];
  await expectRefused(
    t,
    cases,
    send('PATCH', `/v1/custom-system-roles/${ROLE}/relationships/panel-permissions`),
    snapshot,
    before,
  );
  await expectRefused(
    t,
    [['a role that does not exist', { data: [{ type: 'custom-system-role', id: 'x' }] }, 404]],
    send('POST', `/v1/panel-permissions/${PANEL}/relationships/custom-system-roles`),
    snapshot,
    before,
  );
});

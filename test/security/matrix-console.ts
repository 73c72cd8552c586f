/**
 * The matrix's records of the administrator's console (custom system roles, panels, user and event role
 * permissions, services), and its sales administrator.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';
import { seedUser, type TestUser } from '../helpers/users.js';
import type { Recipe } from './matrix.js';
import { document, linkage, next, update } from './matrix-writes.js';

/** A user holding the seeded "Sales Admin" role through the flag the front end's user editor sets. */
export async function seedSalesAdmin(app: FastifyInstance): Promise<TestUser> {
  const user = await seedUser(app);
  await app.db
    .update(users)
    .set({ isSalesAdmin: true })
    .where(eq(users.id, Number(user.id)));
  return user;
}

/**
 * Path ids of the console's records the matrix changes: a role of its own (not the sales administrator's), the
 * `content` panel (which opens no route), a user permission of its own, the track service, and the registrars'
 * permission on tracks.
 */
export async function consoleIds(app: FastifyInstance): Promise<Record<string, string>> {
  const [role] = await app.sql<
    { id: number }[]
  >`insert into custom_sys_roles (name) values ('Matrix role') returning id`;
  const [panel] = await app.sql<{ id: number }[]>`select id from panel_permissions where panel_name = 'content'`;
  const [permission] = await app.sql<{ id: number }[]>`
    insert into user_permissions (name, description) values ('matrix_action', 'The matrix') returning id`;
  const [service] = await app.sql<{ id: number }[]>`select id from services where name = 'track'`;
  const [right] = await app.sql<{ id: number }[]>`
    select id from permissions where role_id = 'registrar' and service_id = ${service!.id}`;
  return {
    'custom-system-roles': String(role!.id),
    'panel-permissions': String(panel!.id),
    'user-permissions': String(permission!.id),
    services: String(service!.id),
    'event-role-permissions': String(right!.id),
  };
}

/** How the matrix calls the console's write routes: unique names, and records made for the cells that delete. */
export function consoleRecipes(app: FastifyInstance, ids: Record<string, string>): Record<string, Recipe> {
  const made = async (sql: Promise<{ id: number }[]>) => String((await sql)[0]!.id);
  const role = () => made(app.sql`insert into custom_sys_roles (name) values (${`Gone ${next()}`}) returning id`);
  const panel = () =>
    made(app.sql`insert into panel_permissions (panel_name) values (${`gone${next()}`}) returning id`);
  const permission = () => made(app.sql`insert into user_permissions (name) values (${`gone_${next()}`}) returning id`);
  const ROLE = '/v1/custom-system-roles/{id}';
  const PANEL = '/v1/panel-permissions/{id}';
  const panels = () => linkage('panel-permission', ids['panel-permissions']!);
  const roles = () => linkage('custom-system-role', ids['custom-system-roles']!);
  return {
    'POST /v1/custom-system-roles': () => document('custom-system-role', { name: `Role ${next()}` }),
    [`PATCH ${ROLE}`]: () => update('custom-system-role', ids['custom-system-roles']!, { name: `Role ${next()}` }),
    [`DELETE ${ROLE}`]: async () => ({ path: `/v1/custom-system-roles/${await role()}` }),
    [`PATCH ${ROLE}/relationships/panel-permissions`]: panels,
    [`POST ${ROLE}/relationships/panel-permissions`]: panels,
    [`DELETE ${ROLE}/relationships/panel-permissions`]: panels,
    'POST /v1/panel-permissions': () => document('panel-permission', { 'panel-name': `panel${next()}` }),
    [`PATCH ${PANEL}`]: () => update('panel-permission', ids['panel-permissions']!, { 'can-access': true }),
    [`DELETE ${PANEL}`]: async () => ({ path: `/v1/panel-permissions/${await panel()}` }),
    [`PATCH ${PANEL}/relationships/custom-system-roles`]: roles,
    [`POST ${PANEL}/relationships/custom-system-roles`]: roles,
    [`DELETE ${PANEL}/relationships/custom-system-roles`]: roles,
    'POST /v1/user-permissions': () => document('user-permission', { name: `action_${next()}` }),
    'PATCH /v1/user-permissions/{id}': () =>
      update('user-permission', ids['user-permissions']!, { description: `Changed ${next()}` }),
    'DELETE /v1/user-permissions/{id}': async () => ({ path: `/v1/user-permissions/${await permission()}` }),
    'POST /v1/services': () => document('service', {}),
    'PATCH /v1/services/{id}': () => update('service', ids.services!, {}),
    'DELETE /v1/services/{id}': () => ({}),
    'POST /v1/event-role-permissions': () => document('event-role-permissions', {}),
    'PATCH /v1/event-role-permissions/{id}': () =>
      update('event-role-permissions', ids['event-role-permissions']!, { 'can-read': true }),
    'DELETE /v1/event-role-permissions/{id}': () => ({}),
  };
}

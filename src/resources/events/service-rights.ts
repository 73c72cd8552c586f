/**
 * What each event role may do with each service (the `permissions` table an administrator edits at
 * /v1/event-role-permissions; the reference's `User.can_create` and kin): the writes of an event's tracks, sessions,
 * speakers, sponsors and microlocations by its team follow it. A caller holding several roles in the event may do
 * what any of them may; administrators may do everything. Its seed gives owners, organizers and coorganizers every
 * right on the five services, track organizers every right on tracks, and the other roles reading alone.
 */
import { eq } from 'drizzle-orm';
import { eventRolePermissions, services } from '../../../db/schema/index.js';
import { wantsFresh } from '../../../plugins/read-cache.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { forbidden, type Ctx } from '../../jsonapi/index.js';
import { roleIn, rolesIn } from './access.js';

export const SERVICES = ['track', 'session', 'speaker', 'sponsor', 'microlocation'] as const;
export type Service = (typeof SERVICES)[number];
export type Operation = 'create' | 'read' | 'update' | 'delete';

/** The tables the grants are read from: a change of either is seen by the next request. */
const GRANT_TABLES = ['permissions', 'services'];

/** `<role> <service>` -> the operations granted. */
type Grants = Map<string, Record<Operation, boolean>>;

const perRequest = new WeakMap<Ctx['request'], Grants>();

async function loadGrants(db: Ctx['db']): Promise<Grants> {
  const rows = await db
    .select({
      role: eventRolePermissions.roleId,
      service: services.name,
      create: eventRolePermissions.canCreate,
      read: eventRolePermissions.canRead,
      update: eventRolePermissions.canUpdate,
      delete: eventRolePermissions.canDelete,
    })
    .from(eventRolePermissions)
    .innerJoin(services, eq(services.id, eventRolePermissions.serviceId));
  return new Map(rows.map(({ role, service, ...ops }) => [`${role} ${service}`, ops]));
}

/**
 * The grants as the request sees them: read once per request; where its transaction has written nothing
 * (`ctx.unwritten`), from the read cache's memo while neither table changed.
 */
async function grantsOf(ctx: Ctx): Promise<Grants> {
  const known = perRequest.get(ctx.request);
  if (known) return known;
  const memos = ctx.unwritten && !wantsFresh(ctx.request) ? ctx.request.server.readCache : null;
  const load = () => loadGrants(ctx.db);
  const grants = await (memos ? memos.memo('event role permissions', GRANT_TABLES, load) : load());
  perRequest.set(ctx.request, grants);
  return grants;
}

/** Whether the caller's roles in the event grant `operation` on `service` (administrators: always). */
export async function mayDo(ctx: Ctx, eventId: number, service: Service, operation: Operation): Promise<boolean> {
  if (isStaff(ctx.caller)) return true;
  if (!ctx.caller) return false;
  const roles = await rolesIn(ctx, eventId);
  if (roles.length === 0) return false;
  const grants = await grantsOf(ctx);
  return roles.some((role) => grants.get(`${role} ${service}`)?.[operation] === true);
}

/**
 * Requires that the caller's event role grants `operation` on `service`: 401 without a token, 404 for an event the
 * caller cannot see (`missing`), 403 for one whose roles do not grant it.
 */
export async function requireService(
  ctx: Ctx,
  eventId: number,
  service: Service,
  operation: Operation,
  missing?: string,
): Promise<void> {
  loggedIn(ctx);
  await roleIn(ctx, eventId, missing);
  if (!(await mayDo(ctx, eventId, service, operation)))
    throw forbidden(`Your role in the event may not ${operation} its ${service}s`);
}

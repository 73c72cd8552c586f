/**
 * Event roles and what they allow: the one policy module every event-domain resource uses.
 *
 * The creator of an event is its owner (`events.owner_id`); `event_roles` adds organizers,
 * coorganizers, track organizers, registrars and moderators. Owner and organizers are organizers;
 * coorganizers edit the event and its records but neither delete the event nor manage roles;
 * administrators pass every check. Track organizers, registrars and moderators are members of the
 * event's team: they see it and its records as its organizers do while it is a draft, but write
 * nothing and read no private data through their role (never more than a coorganizer), but for the
 * door right below. Draft events, and all records under them, exist only for their team and
 * administrators: everyone else gets 404, as if there were nothing.
 *
 * The door right (`inDoorEvent`, `holdsDoor`, `requireDoor`): the event's owner, organizers,
 * coorganizers and registrars run its door. They keep its stations, check-ins and badges
 * (door-policy.ts), read its ticket holders (names, e-mails, identifiers: whom they check in), search
 * and scan them, and change only their check-in members (attendees/policy.ts, `DOOR_MEMBERS`);
 * registrars hold no other right. Anyone else finds none of the door's records (404).
 */
import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { eventRoles, events } from '../../../db/schema/index.js';
import { wantsFresh } from '../../../plugins/read-cache.js';
import { isStaff, loggedIn, type Caller } from '../../auth/caller.js';
import { constant, forbidden, integerId, notFound, renderedOnce, type Columns, type Ctx } from '../../jsonapi/index.js';

/** Roles that see the event but give no rights on it. */
export const MEMBER_ROLES = ['track_organizer', 'registrar', 'moderator'] as const;
export type EventRole = 'owner' | 'organizer' | 'coorganizer' | (typeof MEMBER_ROLES)[number];

/** The rights each role gives, from the weakest; members of the team have none. */
const RIGHTS: Record<EventRole, number> = {
  track_organizer: 0,
  registrar: 0,
  moderator: 0,
  coorganizer: 1,
  organizer: 2,
  owner: 3,
};
const LEVELS = { coorganizer: 1, organizer: 2, owner: 3 } as const;
export type Level = keyof typeof LEVELS;
const NEEDS: Record<Level, string> = {
  coorganizer: 'Organizer or coorganizer rights on the event are required',
  organizer: 'Organizer rights on the event are required',
  owner: 'Only the owner of the event or an administrator may do this',
};

/** Ids of the events the user holds any role in. */
const roleEvents = (userId: number) =>
  sql`(select ${events.id} from ${events} where ${events.ownerId} = ${userId}
       union all select ${eventRoles.eventId} from ${eventRoles} where ${eventRoles.userId} = ${userId})`;

/** The roles that run the event's door, beside its owner (see the door right above). */
export const DOOR_ROLES = ['organizer', 'coorganizer', 'registrar'] as const;

/** Ids of the events whose door the user runs: it owns them or holds a door role in them. */
const doorEvents = (userId: number) =>
  sql`(select ${events.id} from ${events} where ${events.ownerId} = ${userId}
       union all select ${eventRoles.eventId} from ${eventRoles}
       where ${eventRoles.userId} = ${userId} and ${eventRoles.role} in (${sql.raw(DOOR_ROLES.map((r) => `'${r}'`).join(', '))}))`;

/** Ids of the events the user owns, organizes or coorganizes: where it has rights (and reads private data). */
const managedEvents = (userId: number) =>
  sql`(select ${events.id} from ${events} where ${events.ownerId} = ${userId}
       union all select ${eventRoles.eventId} from ${eventRoles}
       where ${eventRoles.userId} = ${userId} and ${eventRoles.role} in ('organizer', 'coorganizer'))`;

/** Events (columns `t`) the caller may see: published ones, plus those it holds a role in; all for staff. */
export function eventVisible(caller: Caller | null, t: Columns): SQL | undefined {
  if (isStaff(caller)) return undefined;
  const published = eq(t.state!, constant('published'));
  return caller ? sql`(${published} or ${t.id} in ${roleEvents(caller.id)})` : published;
}

/** What a scope knows of the read: who calls, and whether deleted records count (an administrator's `get_trashed`). */
type Reader = Pick<Ctx, 'caller' | 'trashed'>;

/**
 * Records whose event (`eventId`) is not deleted, whoever asks; in an administrator's read of deleted
 * records (`get_trashed`) those of deleted events too (undefined: no condition).
 */
export const inLiveEvent = (ctx: Reader, eventId: PgColumn): SQL | undefined =>
  ctx.trashed ? undefined : sql`${eventId} in (select ${events.id} from ${events} where ${isNull(events.deletedAt)})`;

/** Records whose event (`eventId`) is live (see `inLiveEvent`) and visible to the caller. */
export function inVisibleEvent(ctx: Reader, eventId: PgColumn): SQL | undefined {
  const live = and(
    ctx.trashed ? undefined : isNull(events.deletedAt),
    eventVisible(ctx.caller, events as unknown as Columns),
  );
  return live && sql`${eventId} in (select ${events.id} from ${events} where ${live})`;
}

/**
 * Records whose event the caller owns, organizes or coorganizes (every record for staff, none for
 * anonymous callers); the other roles of the team do not count.
 */
export function inManagedEvent(caller: Caller | null, eventId: PgColumn): SQL {
  if (isStaff(caller)) return sql`true`;
  return caller ? sql`${eventId} in ${managedEvents(caller.id)}` : sql`false`;
}

/**
 * Records whose event's door the caller runs (every record for staff, none for anonymous callers): its
 * owner, organizers, coorganizers and registrars.
 */
export function inDoorEvent(caller: Caller | null, eventId: PgColumn): SQL {
  if (isStaff(caller)) return sql`true`;
  return caller ? sql`${eventId} in ${doorEvents(caller.id)}` : sql`false`;
}

interface Access {
  state: string;
  role: EventRole | null;
  /** The caller owns the event or holds a role in DOOR_ROLES. */
  door: boolean;
  /** Every role the caller holds in it (`owner` for its owner): what its service permissions are looked up by. */
  roles: EventRole[];
}

const cache = new WeakMap<Ctx['request'], Map<number, Access | null>>();

/** The tables `accessQuery` reads. */
const ACCESS_TABLES = ['events', 'event_roles'];

/** The live event's state, whether the user owns it, and the user's roles in it (every write asks). */
const accessQuery = renderedOnce((db) => {
  const user = sql.placeholder('user');
  return db
    .select({
      state: events.state,
      owner: sql`${events.ownerId} = ${user}`,
      roles: sql`array(select ${eventRoles.role} from ${eventRoles} where ${eventRoles.eventId} = ${events.id} and ${eventRoles.userId} = ${user})`,
    })
    .from(events)
    .where(and(eq(events.id, sql.placeholder('event')), isNull(events.deletedAt)))
    .limit(1);
});

/**
 * The live event's state and the caller's strongest role in it, read once per request; where the
 * transaction has written nothing yet (`ctx.unwritten`), from the read cache's memo while neither
 * events nor event_roles changed.
 */
async function accessTo(ctx: Ctx, eventId: number): Promise<Access | null> {
  const known = cache.get(ctx.request) ?? new Map<number, Access | null>();
  cache.set(ctx.request, known);
  if (known.has(eventId)) return known.get(eventId)!;
  const user = ctx.caller?.id ?? 0;
  const load = async () => ((await accessQuery(ctx.db, { user, event: eventId })) as [string, boolean, string[]][])[0];
  const memos = ctx.unwritten && !wantsFresh(ctx.request) ? ctx.request.server.readCache : null;
  const row = await (memos ? memos.memo(`access ${user} ${eventId}`, ACCESS_TABLES, load) : load());
  const strongest = (roles: string[], owner: boolean): EventRole | null =>
    owner ? 'owner' : ((['organizer', 'coorganizer', ...MEMBER_ROLES] as const).find((r) => roles.includes(r)) ?? null);
  const door = (roles: string[], owner: boolean) => owner || DOOR_ROLES.some((r) => roles.includes(r));
  const held = (roles: string[], owner: boolean) => [...(owner ? ['owner'] : []), ...roles] as EventRole[];
  const access = row
    ? { state: row[0], role: strongest(row[2], row[1]), door: door(row[2], row[1]), roles: held(row[2], row[1]) }
    : null;
  known.set(eventId, access);
  return access;
}

/** The caller's role in the event (null for none); 404 when the caller may not see the event at all. */
export async function roleIn(ctx: Ctx, eventId: number, missing?: string): Promise<EventRole | null> {
  const access = await accessTo(ctx, eventId);
  const visible = access && (access.state === 'published' || access.role || isStaff(ctx.caller));
  if (!visible) throw notFound(missing);
  return access.role;
}

/** Every role the caller holds in the live event (none for an event it cannot find). */
export async function rolesIn(ctx: Ctx, eventId: number): Promise<EventRole[]> {
  return (await accessTo(ctx, eventId))?.roles ?? [];
}

/** Whether the caller holds at least `level` rights on the live event (administrators always do). */
export async function holdsRole(ctx: Ctx, eventId: number, level: Level): Promise<boolean> {
  if (isStaff(ctx.caller)) return true;
  const role = (await accessTo(ctx, eventId))?.role;
  return !!role && RIGHTS[role] >= LEVELS[level];
}

/**
 * Requires at least `level` rights on the event: 401 without a token, 404 for an event the caller
 * cannot see, 403 for one it sees without the rights. Administrators always pass.
 */
export async function requireRole(ctx: Ctx, eventId: number, level: Level, missing?: string) {
  const caller = loggedIn(ctx);
  const role = await roleIn(ctx, eventId, missing);
  if (isStaff(caller)) return;
  if (!role || RIGHTS[role] < LEVELS[level]) throw forbidden(NEEDS[level]);
}

/** Whether the caller runs the door of the live event (administrators always do). */
export async function holdsDoor(ctx: Ctx, eventId: number): Promise<boolean> {
  if (isStaff(ctx.caller)) return true;
  return (await accessTo(ctx, eventId))?.door ?? false;
}

/**
 * Requires the door right on the event: 401 without a token, 404 for anyone else (`missing`), as if the
 * door's records did not exist. Administrators always pass.
 */
export async function requireDoor(ctx: Ctx, eventId: number, missing = `Related event "${eventId}" not found`) {
  loggedIn(ctx);
  await roleIn(ctx, eventId, missing);
  if (!(await holdsDoor(ctx, eventId))) throw notFound(missing);
}

/**
 * The event of a door route's path (`/v1/.../{event_id}` by id or identifier) with the caller's context: 401
 * without a token, 404 unless the caller runs the event's door.
 */
export async function doorEventOf(db: Ctx['db'], request: FastifyRequest) {
  const ctx = { caller: loggedIn(request), db, request };
  const eventId = await eventIdNamed(ctx, (request.params as { event_id: string }).event_id);
  await requireDoor(ctx, eventId, 'Event not found');
  return { ctx, eventId };
}

/**
 * The id of the live event a path names by id or identifier (`/v1/events/{id}/...`): 404 when there is
 * none, or when the caller may not see it (a draft, to those without a role in it).
 */
export async function eventIdNamed(ctx: Ctx, named: string, missing = 'Event not found'): Promise<number> {
  // No identifier holds a NUL (PostgreSQL text cannot), and comparing one would be a database error.
  if (named.includes('\0')) throw notFound(missing);
  const id = integerId(named);
  const byName = eq(events.identifier, named);
  const [row] = await ctx.db
    .select({ id: events.id })
    .from(events)
    .where(and(id === undefined ? byName : or(eq(events.id, id), byName), isNull(events.deletedAt)))
    .limit(1);
  if (!row) throw notFound(missing);
  await roleIn(ctx, row.id, missing);
  return row.id;
}

/** The event a write names (`relationships.event`), as a number; 404 for anything that is not an id. */
export function namedEvent(id: unknown): number {
  const n = integerId(id);
  if (n === undefined) throw notFound(`Related event "${String(id)}" not found`);
  return n;
}

import { eq } from 'drizzle-orm';
import { eventRoles } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { integerId, type Ctx, type Policy, type WriteInput } from '../../jsonapi/index.js';
import { guardGroupChange } from '../groups/event-group.js';
import { eventVisible, requireRole } from './access.js';
import { guardAdminFlags } from './options.js';
import { requireUserPermission } from './user-permissions.js';

/** The event's relationships that grant roles, with the role each grants: only the owner (or an administrator) changes them. */
const ROLE_RELATIONSHIPS: Record<string, string> = {
  organizers: 'organizer',
  coorganizers: 'coorganizer',
  'track-organizers': 'track_organizer',
  registrars: 'registrar',
  moderators: 'moderator',
};

/**
 * Whether the write changes who holds a role. The front end sends every loaded role list back on each
 * save of the event, so a list equal to the stored one is no change (and needs no owner rights).
 */
async function changesRoles(ctx: Ctx, eventId: number, input: WriteInput): Promise<boolean> {
  const sent = Object.keys(ROLE_RELATIONSHIPS).filter((name) => name in input.relationships);
  if (sent.length === 0) return false;
  // POST and DELETE on a relationship route add and remove members: always a change.
  if (ctx.request.method !== 'PATCH') return true;
  const held = await ctx.db
    .select({ userId: eventRoles.userId, role: eventRoles.role })
    .from(eventRoles)
    .where(eq(eventRoles.eventId, eventId));
  return sent.some((name) => {
    const ids = [input.relationships[name] ?? []].flat().map((id) => integerId(id) ?? -1);
    const stored = held.filter((r) => r.role === ROLE_RELATIONSHIPS[name]).map((r) => r.userId);
    const key = (list: number[]) => [...new Set(list)].sort((a, b) => a - b).join(',');
    return key(ids) !== key(stored);
  });
}

/**
 * Any logged-in user may create an event and becomes its owner. Published events are public; drafts
 * exist only for their team (organizers, coorganizers, track organizers, registrars, moderators) and
 * administrators. Coorganizers and up edit an event, organizers and up delete it, and only the owner
 * (or an administrator) changes who holds its roles.
 * Only administrators change the flags of the home page lists (is-featured, is-promoted, is-demoted).
 * An unverified account creates and publishes events as the user permissions say (user-permissions.ts).
 */
export const eventPolicy: Policy = {
  scope: (ctx, t) => eventVisible(ctx.caller, t),
  existsFor: (ctx, t) => eventVisible(ctx.caller, t),
  list() {},
  read() {},
  async create(ctx, input) {
    const caller = loggedIn(ctx);
    guardAdminFlags(caller, input);
    await requireUserPermission(ctx, caller, 'create_event');
    if (input.attributes.state === 'published') await requireUserPermission(ctx, caller, 'publish_event');
  },
  async update(ctx, row, input) {
    const eventId = row.id as number;
    await requireRole(ctx, eventId, (await changesRoles(ctx, eventId, input)) ? 'owner' : 'coorganizer');
    if (input.attributes.state === 'published' && row.state !== 'published')
      await requireUserPermission(ctx, loggedIn(ctx), 'publish_event');
    guardAdminFlags(ctx.caller, input, row);
    await guardGroupChange(ctx, row, input);
  },
  delete: (ctx, row) => requireRole(ctx, row.id as number, 'organizer'),
};

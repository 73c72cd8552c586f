import { and, eq, or, sql } from 'drizzle-orm';
import { eventRoles } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { defineResource, forbidden, type Columns, type Ctx } from '../../jsonapi/index.js';
import { inLiveEvent, inManagedEvent, requireRole } from '../events/access.js';
import { eventRoleActivity } from '../activity-lines.js';

/** A user's own roles, and every role in the events the caller owns, organizes or coorganizes. */
const visible = (ctx: Ctx, t: Columns) =>
  ctx.caller
    ? and(inLiveEvent(ctx, t.eventId!), or(eq(t.userId!, ctx.caller.id), inManagedEvent(ctx.caller, t.eventId!)))
    : sql`false`;

const granted = () => {
  throw forbidden("Roles are granted by the event's role relationships (owner only) or by accepting a role invite");
};

/**
 * Who holds which role in an event (the reference's users-events-roles), the owner included: a view of
 * `event_roles`, whose owner rows follow `events.owner_id`.
 */
export const usersEventsRoleResource = defineResource({
  type: 'users-events-roles',
  path: 'users-events-roles',
  // The reference's type is the plural (ember-data's model is users-events-role: it sends and reads both).
  typeAliases: ['users-events-role'],
  name: 'UsersEventsRole',
  tag: 'Roles',
  description:
    "A user's role in an event. A user reads their own roles; the owner, organizers and coorganizers of an event read all " +
    "of its roles. Roles are granted through the event's role relationships or role invites (creating one here is 403); " +
    "the event's owner (or an administrator) removes one by deleting it, except the owner's own (403: transfer the event with an owner role invite instead).",
  table: eventRoles,
  activity: eventRoleActivity,
  attributes: {},
  relationships: {
    event: { kind: 'toOne', type: 'event', column: 'eventId', readOnly: true, description: 'the event' },
    role: { kind: 'toOne', type: 'role', column: 'role', readOnly: true, description: 'the role held' },
    user: { kind: 'toOne', type: 'user', column: 'userId', readOnly: true, description: 'who holds it' },
  },
  policy: {
    scope: visible,
    existsFor: visible,
    list: loggedIn,
    read() {},
    create: granted,
    update: granted,
    async delete(ctx, row) {
      await requireRole(ctx, row.eventId as number, 'owner');
      if (row.role === 'owner')
        throw forbidden("The owner's role cannot be removed: transfer the event with an owner role invite");
    },
  },
});

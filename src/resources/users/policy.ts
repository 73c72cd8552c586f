import { eq, or, sql } from 'drizzle-orm';
import { eventRoles, orders } from '../../../db/schema/index.js';
import { inManagedEvent } from '../events/access.js';
import { isStaff, loggedIn, type Caller } from '../../auth/caller.js';
import { requirePanel, seesPanel } from '../../auth/panels.js';
import { forbidden, type Ctx, type Policy, type Row, type WriteInput } from '../../jsonapi/index.js';

/** The user themself or an administrator. */
function selfOrAdmin(ctx: Ctx, row: Row): Caller {
  const caller = loggedIn(ctx);
  if (caller.id !== row.id && !isStaff(caller))
    throw forbidden('Only the user themself or an administrator may do this');
  return caller;
}

/** As selfOrAdmin, and only a super admin changes another super admin's account. */
function mayChange(ctx: Ctx, row: Row) {
  const caller = selfOrAdmin(ctx, row);
  if (caller.id !== row.id && row.isSuperAdmin && !caller.isSuperAdmin)
    throw forbidden('Super admin access is required');
}

/**
 * Flags only staff set: the role flags by a super admin's hand, `is-verified` by an administrator's (users
 * verify their address through the mailed link), and `is-blocked`, `is-sales-admin`, `is-marketer` by an
 * administrator's. Sending the current value back is harmless (the web front end sends every flag).
 */
function guardFlags(caller: Caller | null, input: WriteInput, row?: Row) {
  const flags = [
    ['is-admin', 'isAdmin', !!caller?.isSuperAdmin, 'Super admin access is required'],
    ['is-super-admin', 'isSuperAdmin', !!caller?.isSuperAdmin, 'Super admin access is required'],
    ['is-verified', 'isVerified', isStaff(caller), 'Admin access is required to update this information'],
    ['is-blocked', 'isBlocked', isStaff(caller), 'Admin access is required to update this information'],
    ['is-sales-admin', 'isSalesAdmin', isStaff(caller), 'Admin access is required to update this information'],
    ['is-marketer', 'isMarketer', isStaff(caller), 'Admin access is required to update this information'],
  ] as const;
  for (const [wire, key, allowed, refusal] of flags) {
    const wanted = input.attributes[wire];
    if (wanted === undefined || wanted === (row ? row[key] : false)) continue;
    if (!allowed) throw forbidden(refusal, `/data/attributes/${wire}`);
  }
}

export const userPolicy: Policy = {
  // In includes and linkage: the caller, the team of the events the caller owns, organizes or coorganizes
  // (the dashboard lists its role holders and saves the lists back: a hidden member would be dropped), and
  // the buyers of those events' orders (the order list includes each buyer: app/routes/events/view/tickets/orders/list.js).
  // Detail reads and lists stay the user's and the administrators' (and, to read, those the users panel is open to).
  scope: (ctx, t) =>
    seesPanel(ctx.caller, 'users')
      ? undefined
      : ctx.caller
        ? or(
            eq(t.id!, ctx.caller.id),
            sql`${t.id!} in (select ${eventRoles.userId} from ${eventRoles} where ${inManagedEvent(ctx.caller, eventRoles.eventId)})`,
            sql`${t.id!} in (select ${orders.userId} from ${orders} where ${orders.deletedAt} is null and ${inManagedEvent(ctx.caller, orders.eventId)})`,
          )
        : sql`false`,
  // Organizers name other users (speakers, coorganizers) by id without reading their records.
  linkable: () => undefined,
  list: requirePanel('users'),
  // An event's role lists (`/v1/events/1/coorganizers`, which the front end reads to decide whether the caller is
  // on the team): anyone who sees the event asks, and the scope above answers only the users the caller may see.
  listRelated() {},
  read(ctx, row) {
    if (!seesPanel(ctx.caller, 'users')) selfOrAdmin(ctx, row);
  },
  async create(ctx, input) {
    guardFlags(ctx.caller, input);
    // A registration counts against the sign-up limits; an administrator's creation in the console does not.
    if (!isStaff(ctx.caller))
      await ctx.request.server.accountMail.countSignup(ctx.db, String(input.attributes.email ?? ''), ctx.request.ip);
  },
  update(ctx, row, input) {
    mayChange(ctx, row);
    guardFlags(ctx.caller, input, row);
    // A stolen access token must not be enough to take the account over: users change their own password
    // where the current one is asked for. Administrators still reset others' (and the front end never
    // sends a password in a user save: app/serializers/user.js leaves it out).
    if (input.attributes.password !== undefined && !isStaff(ctx.caller)) {
      throw forbidden(
        'Change your password with POST /v1/auth/change-password, which asks for the current one',
        '/data/attributes/password',
      );
    }
  },
  delete: mayChange,
};

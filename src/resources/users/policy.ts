import { eq, sql } from 'drizzle-orm';
import { isStaff, loggedIn, requireStaff, type Caller } from '../../auth/caller.js';
import { forbidden } from '../../jsonapi/errors.js';
import type { Ctx, Policy, Row, WriteInput } from '../../jsonapi/resource.js';

/** The user themself or an administrator. */
function selfOrAdmin(ctx: Ctx, row: Row): Caller {
  const caller = loggedIn(ctx);
  if (caller.id !== row.id && !isStaff(caller)) throw forbidden('Only the user themself or an administrator may do this');
  return caller;
}

/** As selfOrAdmin, and only a super admin changes another super admin's account. */
function mayChange(ctx: Ctx, row: Row) {
  const caller = selfOrAdmin(ctx, row);
  if (caller.id !== row.id && row.isSuperAdmin && !caller.isSuperAdmin) throw forbidden('Super admin access is required');
}

/** Role flags change only by a super admin's hand; sending the current value back is harmless. */
function guardRoleFlags(caller: Caller | null, input: WriteInput, row?: Row) {
  for (const [wire, key] of [['is-admin', 'isAdmin'], ['is-super-admin', 'isSuperAdmin']] as const) {
    const wanted = input.attributes[wire];
    if (wanted === undefined || wanted === (row ? row[key] : false)) continue;
    if (!caller?.isSuperAdmin) throw forbidden('Super admin access is required', `/data/attributes/${wire}`);
  }
}

export const userPolicy: Policy = {
  scope: (ctx, t) => (isStaff(ctx.caller) ? undefined : ctx.caller ? eq(t.id!, ctx.caller.id) : sql`false`),
  // Organizers name other users (speakers, coorganizers) by id without reading their records.
  linkable: () => undefined,
  list: requireStaff,
  read(ctx, row) {
    selfOrAdmin(ctx, row);
  },
  create(ctx, input) {
    guardRoleFlags(ctx.caller, input);
  },
  update(ctx, row, input) {
    mayChange(ctx, row);
    guardRoleFlags(ctx.caller, input, row);
  },
  delete: mayChange,
};

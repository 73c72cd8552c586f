import { loggedIn } from '../../auth/caller.js';
import type { Policy } from '../../jsonapi/resource.js';
import { guardGroupChange } from '../groups/event-group.js';
import { eventVisible, requireRole } from './access.js';
import { guardAdminFlags } from './options.js';

/**
 * Any logged-in user may create an event and becomes its owner. Published events are public; drafts
 * exist only for their organizers, coorganizers and administrators. Coorganizers and up edit an
 * event, organizers and up delete it, and only the owner (or an administrator) manages its roles.
 * Only administrators change the flags of the home page lists (is-featured, is-promoted, is-demoted).
 */
export const eventPolicy: Policy = {
  scope: (ctx, t) => eventVisible(ctx.caller, t),
  existsFor: (ctx, t) => eventVisible(ctx.caller, t),
  list() {},
  read() {},
  create(ctx, input) {
    guardAdminFlags(loggedIn(ctx), input);
  },
  async update(ctx, row, input) {
    const rolesChange = 'organizers' in input.relationships || 'coorganizers' in input.relationships;
    await requireRole(ctx, row.id as number, rolesChange ? 'owner' : 'coorganizer');
    guardAdminFlags(ctx.caller, input, row);
    await guardGroupChange(ctx, row, input);
  },
  delete: (ctx, row) => requireRole(ctx, row.id as number, 'organizer'),
};

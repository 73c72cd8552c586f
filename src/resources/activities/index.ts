import { activities } from '../../../db/schema/index.js';
import { sql } from 'drizzle-orm';
import { requirePanel, seesPanel } from '../../auth/panels.js';
import { computedPolicy } from '../statistics/figures.js';
import { DateTime, Nullable, Text, defineResource } from '../../jsonapi/index.js';

/** The activity log (the reference's app/api/activities.py): what was done, by whom, when. */
export const activityResource = defineResource({
  type: 'activity',
  path: 'activities',
  routes: 'read',
  name: 'Activity',
  tag: 'Activities',
  description:
    'The activity log: the changes the reference logs (events created, updated, published, deleted; roles granted; ' +
    'sessions, tracks and speakers written; orders completed; users created, updated, deleted; system administrators ' +
    'granted or revoked; invitations sent; mails sent), each written in the transaction of its change, worded as ' +
    "the reference's ACTIVITIES. Administrators and the custom system roles the reports panel is open to (401, 403); nobody writes these records.",
  table: activities,
  attributes: {
    actor: {
      column: 'actor',
      schema: Nullable(
        Text(320, {
          description: "who did it: the user's e-mail and id (`ann@example.org (4)`); null for the service itself",
        }),
      ),
      readOnly: true,
    },
    time: { column: 'time', schema: DateTime({ description: 'when it was done' }), readOnly: true },
    action: { column: 'action', schema: Text(10_000, { description: 'what was done' }), readOnly: true },
  },
  // The reports panel's: administrators, and the custom system roles it is open to (src/auth/panels.ts).
  policy: computedPolicy((ctx) => (seesPanel(ctx.caller, 'reports') ? undefined : sql`false`), requirePanel('reports')),
});

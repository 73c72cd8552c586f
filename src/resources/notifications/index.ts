import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { notifications } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { DateTime, Text, defineResource, forbidden, type Ctx, type Row } from '../../jsonapi/index.js';

/** A user reads, changes and deletes only their own notifications; administrators everyone's. */
function ownOrStaff(ctx: Ctx, row: Row) {
  if (row.userId !== loggedIn(ctx).id && !isStaff(ctx.caller))
    throw forbidden("These are another user's notifications");
}

export const notificationResource = defineResource({
  type: 'notification',
  path: 'notifications',
  name: 'Notification',
  tag: 'Notifications',
  description:
    'In-app messages to a user (an import that finished, ...), listed at /v1/users/{id}/notifications. The ' +
    'server writes them; their user (or an administrator) marks them read or deletes them.',
  table: notifications,
  attributes: {
    title: { column: 'title', schema: Text(255), readOnly: true },
    message: { column: 'message', schema: Text(10_000), readOnly: true },
    'is-read': { column: 'isRead', schema: Type.Boolean({ description: 'set it once the user has seen it' }) },
    'created-at': { column: 'createdAt', schema: DateTime(), readOnly: true },
    // The web front end's name for it (app/models/notification.js); its "mark as read" sends it back.
    'received-at': {
      column: 'createdAt',
      schema: DateTime({ description: 'when it arrived: the same as created-at' }),
      readOnly: true,
    },
  },
  relationships: {
    user: { kind: 'toOne', type: 'user', column: 'userId', readOnly: true, description: 'whom it is for' },
  },
  policy: {
    scope: (ctx, t) => (isStaff(ctx.caller) ? undefined : ctx.caller ? eq(t.userId!, ctx.caller.id) : sql`false`),
    list: loggedIn,
    read: ownOrStaff,
    create() {
      throw forbidden('Notifications are written by the server');
    },
    // As the reference's is_user_itself (app/api/notifications.py): its user, or an administrator.
    update: ownOrStaff,
    delete: ownOrStaff,
  },
});

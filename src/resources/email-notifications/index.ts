import { Type } from '@sinclair/typebox';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { emailNotifications } from '../../../db/schema/index.js';
import { isStaff, loggedIn, requireStaff } from '../../auth/caller.js';
import {
  DateTime,
  Nullable,
  defineResource,
  forbidden,
  type Columns,
  type Ctx,
  type Row,
} from '../../jsonapi/index.js';

/** Its user's own records (every one for administrators). */
const ownOrAll = (ctx: Ctx, t: Columns) =>
  isStaff(ctx.caller) ? undefined : ctx.caller ? eq(t.userId!, ctx.caller.id) : sql`false`;

function ownOrStaff(ctx: Ctx, row: Row) {
  if (row.userId !== loggedIn(ctx).id && !isStaff(ctx.caller))
    throw forbidden("These are another user's e-mail notification settings");
}

const choice = (description: string) => ({ schema: Type.Boolean({ description }) });

/**
 * A user's choice of the mails it receives about one event (the reference's app/api/email_notifications.py): the
 * mailer holds back the mails whose choice the user turned off (plugins/mail-choices.ts).
 */
export const emailNotificationResource = defineResource({
  type: 'email-notification',
  path: 'email-notifications',
  name: 'EmailNotification',
  tag: 'Email notifications',
  description:
    "A user's choice of the mails it receives about one event, one record per user and event (409 for a second). " +
    'The mailer consults it: with `after-ticket-purchase` off, the user gets no ticket purchase mails of the event ' +
    '(as buyer, ticket holder or organizer). Created by the user for itself; read, changed and deleted by its user and ' +
    'administrators (404 for anyone else); the whole list at /v1/email-notifications is for administrators, a ' +
    "user's at /v1/users/{id}/email-notifications.",
  table: emailNotifications,
  softDelete: 'deletedAt',
  attributes: {
    'next-event': { column: 'nextEvent', ...choice('mails about the next event of its organizers') },
    'new-paper': { column: 'newPaper', ...choice('mails about new session proposals') },
    'session-accept-reject': {
      column: 'sessionAcceptReject',
      ...choice('mails when a session is accepted or rejected'),
    },
    'session-schedule': { column: 'sessionSchedule', ...choice('mails when the schedule changes') },
    'after-ticket-purchase': {
      column: 'afterTicketPurchase',
      schema: Type.Boolean({ description: 'mails after a ticket purchase (default true)', default: true }),
    },
    'event-id': {
      column: 'eventId',
      schema: Type.Integer({ description: "the event's id (as the `event` relationship)" }),
      readOnly: true,
    },
    'deleted-at': {
      column: 'deletedAt',
      schema: Nullable(DateTime({ description: 'always null: deleted ones are gone' })),
      readOnly: true,
    },
  },
  relationships: {
    event: {
      kind: 'toOne',
      type: 'event',
      column: 'eventId',
      required: true,
      immutable: true,
      description: 'the event the choices are about',
    },
    user: {
      kind: 'toOne',
      type: 'user',
      column: 'userId',
      readOnly: true,
      callerOnCreate: true,
      description: 'whose choices: the user who made them',
    },
  },
  policy: {
    scope: ownOrAll,
    existsFor: (ctx, t) => (ctx.caller ? ownOrAll(ctx, t) : undefined),
    list: requireStaff,
    listRelated(ctx) {
      loggedIn(ctx);
    },
    read: ownOrStaff,
    create(ctx) {
      loggedIn(ctx);
    },
    update: ownOrStaff,
    delete: ownOrStaff,
  },
  hooks: {
    async beforeCreate(ctx, values) {
      values.userId = loggedIn(ctx).id;
      // A deleted record gives way to the new one (one record per user and event).
      await ctx.db
        .delete(emailNotifications)
        .where(
          and(
            eq(emailNotifications.userId, values.userId as number),
            eq(emailNotifications.eventId, values.eventId as number),
            isNotNull(emailNotifications.deletedAt),
          ),
        );
    },
  },
  unique: {
    email_notifications_user_event_idx: {
      pointer: '/data/relationships/event',
      detail: 'The user has e-mail notification settings for this event already: change those',
    },
  },
});

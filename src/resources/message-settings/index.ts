import { Type } from '@sinclair/typebox';
import { type SQL, sql } from 'drizzle-orm';
import { messageSettings } from '../../../db/schema/index.js';
import { MESSAGE_ACTIONS, type MessageAction } from '../../../plugins/mail-choices.js';
import { requirePanel, seesPanel } from '../../auth/panels.js';
import { DateTime, Text, defineResource, forbidden, unprocessable, type Columns } from '../../jsonapi/index.js';

/** A member of the kind of mail named by the row's action, in the statement (the reference's hybrid properties). */
const ofAction = (member: keyof Pick<MessageAction, 'recipient' | 'subject' | 'message'>) => (t: Columns) =>
  sql`case ${t.action} ${sql.join(
    MESSAGE_ACTIONS.map((a) => sql`when ${a.action} then ${a[member]}`),
    sql` `,
  )} else 'Dynamic Mail' end` as SQL;

/** The messages panel's: administrators, and the custom system roles it is open to (src/auth/panels.ts). */
const messagesPanel = requirePanel('messages');
const fixed = () => {
  throw forbidden('The message settings are one per kind of mail the service sends: none is added or removed');
};

/**
 * Which kinds of mail the service sends (the reference's app/api/message_settings.py): one record per kind, seeded
 * by migration 0034; administrators switch them on and off, and the mailer consults them before every mail.
 */
export const messageSettingResource = defineResource({
  type: 'message-setting',
  typeAliases: ['message-settings'],
  path: 'message-settings',
  name: 'MessageSetting',
  tag: 'Message settings',
  description:
    'One record per kind of mail the service sends (`action`, as the reference names it: event_role, ' +
    'ticket_purchased, ...), with its recipients, subject and message. An administrator switches a kind off ' +
    '(`enabled`): the mailer then sends no mail of it. The account mails a user cannot do without ' +
    '(user_confirmation, password_reset) stay on (422). Administrators and the custom system roles the messages panel is open to (401, 403); none is created or deleted (403).',
  table: messageSettings,
  attributes: {
    action: { column: 'action', schema: Text(64, { description: 'the kind of mail' }), readOnly: true },
    enabled: {
      column: 'enabled',
      schema: Type.Boolean({ description: 'whether the service sends mails of this kind' }),
    },
    recipient: {
      select: ofAction('recipient'),
      schema: Type.String({ description: 'who receives them' }),
      readOnly: true,
    },
    'email-subject': {
      select: ofAction('subject'),
      schema: Type.String({ description: 'their subject, with {placeholders}' }),
      readOnly: true,
    },
    'email-message': {
      select: ofAction('message'),
      schema: Type.String({ description: 'their message, with {placeholders}' }),
      readOnly: true,
    },
    'created-at': { column: 'createdAt', schema: DateTime(), readOnly: true },
    'modified-at': { column: 'modifiedAt', schema: DateTime(), readOnly: true },
  },
  policy: {
    scope: (ctx) => (seesPanel(ctx.caller, 'messages') ? undefined : sql`false`),
    list: messagesPanel,
    read: messagesPanel,
    create: fixed,
    update(ctx, row, input) {
      messagesPanel(ctx);
      const kind = MESSAGE_ACTIONS.find((a) => a.action === row.action);
      if (kind?.always && input.attributes.enabled === false)
        throw unprocessable(
          `${kind.action} mails are always sent: a user cannot do without them`,
          '/data/attributes/enabled',
        );
    },
    delete: fixed,
  },
  hooks: {
    beforeUpdate(_ctx, _row, values) {
      values.modifiedAt = new Date();
    },
  },
});

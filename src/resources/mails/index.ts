import { Type } from '@sinclair/typebox';
import { mails } from '../../../db/schema/index.js';
import { sql } from 'drizzle-orm';
import { requirePanel, seesPanel } from '../../auth/panels.js';
import { computedPolicy } from '../statistics/figures.js';
import { DateTime, Nullable, Text, defineResource } from '../../jsonapi/index.js';

/** The mail log (the reference's app/api/mails.py): every mail the service recorded, for administrators. */
export const mailResource = defineResource({
  type: 'mail',
  path: 'mails',
  routes: 'read',
  name: 'Mail',
  tag: 'Mails',
  description:
    'The mail log: every mail the service sent or holds for delivery (the mailer records each one), with its ' +
    'recipient, kind, subject and text. Administrators and the custom system roles the reports panel is open to (401, 403); nobody writes these records.',
  table: mails,
  attributes: {
    recipient: { column: 'recipient', schema: Text(254, { description: 'the address it went to' }), readOnly: true },
    time: { column: 'createdAt', schema: DateTime({ description: 'when it was recorded' }), readOnly: true },
    action: {
      column: 'action',
      schema: Text(64, { description: 'what it is for (`ticket-purchased`, `reset-password`, ...)' }),
      readOnly: true,
    },
    subject: { column: 'subject', schema: Type.String({ description: 'its subject' }), readOnly: true },
    message: {
      column: 'message',
      schema: Nullable(
        Type.String({
          description: 'its text (HTML where it has an HTML part); null for mails recorded before the log kept it',
        }),
      ),
      readOnly: true,
    },
  },
  // The reports panel's: administrators, and the custom system roles it is open to (src/auth/panels.ts).
  policy: computedPolicy((ctx) => (seesPanel(ctx.caller, 'reports') ? undefined : sql`false`), requirePanel('reports')),
});

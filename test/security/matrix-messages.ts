/**
 * The matrix's records of the messages and logs (issue 43): the event_role message setting, an e-mail notification
 * of `owner` for the draft event (so each caller may still make one for the published event), a logged mail and an
 * activity line; and how their writes are called.
 */
import type { FastifyInstance } from 'fastify';
import { rel } from '../helpers/events.js';
import type { Recipe } from './matrix.js';
import { document, next, toOne, update } from './matrix-writes.js';

export async function messageIds(
  app: FastifyInstance,
  events: { published: string; draft: string },
  ownerId: string,
): Promise<Record<string, string>> {
  const [setting] = await app.sql<{ id: number }[]>`select id from message_settings where action = 'event_role'`;
  const [choice] = await app.sql<{ id: number }[]>`insert into email_notifications (user_id, event_id, new_paper)
    values (${Number(ownerId)}, ${Number(events.draft)}, true) returning id`;
  const mail = await app.mailer.send({
    to: { address: 'matrix@example.org' },
    subject: 'Matrix',
    action: 'test-mail',
    text: '.',
  });
  const [line] = await app.sql<{ id: number }[]>`select max(id)::int as id from activities`;
  return {
    'message-settings': String(setting!.id),
    'email-notifications': String(choice!.id),
    mails: String(mail.id),
    activities: String(line!.id),
  };
}

export function messageRecipes(
  app: FastifyInstance,
  ids: Record<string, string>,
  events: { published: string; draft: string },
  ownerId: string,
): Record<string, Recipe> {
  const choice = ids['email-notifications']!;
  return {
    'POST /v1/message-settings': () => document('message-setting', { enabled: true }),
    'PATCH /v1/message-settings/{id}': () => update('message-setting', ids['message-settings']!, { enabled: true }),
    'DELETE /v1/message-settings/{id}': () => ({}),
    // Each caller once, for the published event (the world's record is for the draft).
    'POST /v1/email-notifications': () =>
      document('email-notification', { 'next-event': true }, { event: rel('event', events.published) }),
    'PATCH /v1/email-notifications/{id}': () =>
      update('email-notification', choice, { 'session-schedule': next() % 2 === 0 }),
    // A record of the owner's to delete: for an event the owner has none for yet (the world holds many events).
    'DELETE /v1/email-notifications/{id}': async () => {
      const [row] = await app.sql<{ id: number }[]>`insert into email_notifications (user_id, event_id)
        select ${Number(ownerId)}, e.id from events e
        where not exists (select 1 from email_notifications n where n.user_id = ${Number(ownerId)} and n.event_id = e.id)
        order by e.id limit 1 returning id`;
      return { path: `/v1/email-notifications/${row!.id}` };
    },
    // The event never changes: the same one sent back is fine.
    'PATCH /v1/email-notifications/{id}/relationships/event': () => toOne('event', events.draft),
  };
}

import { and, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { events, sessions, speakerInvites, users } from '../../../db/schema/index.js';
import type { OutgoingMail } from '../../../plugins/mailer.js';

/**
 * The invitation mail of a pending speaker invite (nothing once it is answered, withdrawn, or its session
 * or event is gone). Its link opens the front end's page of the invite (app/router.js:81-83,
 * `/e/{event}/speaker-invite/{invite}/session`), where the invitee, signed in with this address, accepts
 * or rejects it; the call for speakers page lists it too (app/routes/public/cfs/index.js:56).
 */
export async function speakerInviteMail(
  app: FastifyInstance,
  inviteId: number,
  appName: string,
  frontend: string,
): Promise<OutgoingMail | null> {
  const inviter = alias(users, 'inviter');
  const [invite] = await app.db
    .select({
      id: speakerInvites.id,
      email: speakerInvites.email,
      title: sessions.title,
      eventName: events.name,
      identifier: events.identifier,
      inviterName: inviter.publicName,
      inviterEmail: inviter.email,
    })
    .from(speakerInvites)
    .innerJoin(sessions, and(eq(sessions.id, speakerInvites.sessionId), isNull(sessions.deletedAt)))
    .innerJoin(events, and(eq(events.id, speakerInvites.eventId), isNull(events.deletedAt)))
    .leftJoin(inviter, eq(inviter.id, speakerInvites.inviterId))
    .where(and(eq(speakerInvites.id, inviteId), eq(speakerInvites.status, 'pending')))
    .limit(1);
  if (!invite) return null;
  const event = `${frontend}/e/${encodeURIComponent(invite.identifier)}`;
  const by = invite.inviterEmail
    ? ` by ${invite.inviterName ? `${invite.inviterName} ` : ''}<${invite.inviterEmail}>`
    : '';
  return {
    to: { address: invite.email },
    subject: `Invitation to speak at ${invite.eventName}`,
    action: 'speaker-invite',
    text:
      `Hello,\n\nyou have been invited${by} as a speaker of the session "${invite.title}" of the event ` +
      `${invite.eventName} on ${appName}.\n\nAccept or reject the invitation here, signed in as ${invite.email}:\n\n` +
      `${event}/speaker-invite/${invite.id}/session\n\nTo accept, first add your speaker details on the call for ` +
      `speakers page, ${event}/cfs. If you do not have an account yet, register with this address before you answer.\n`,
  };
}

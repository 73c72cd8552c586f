import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events, roleInvites, roles } from '../../../db/schema/index.js';
import type { OutgoingMail } from '../../../plugins/mailer.js';
import type { Db } from '../../../plugins/db.js';
import { newToken, tokenHash } from '../../auth/logins.js';
import { duration } from '../../duration.js';

/** What `role_invites.hash` keeps of a mailed token: its SHA-256 in hex (a random token needs no slow hash). */
export const inviteTokenHash = (token: string) => tokenHash(token).toString('hex');

/**
 * A new token for the link of a pending invite, valid for `seconds`: only its hash is kept, and it replaces
 * the one of the invite's earlier mail (whose link stops working). Null when the invite is no longer pending.
 */
export async function issueInviteToken(db: Db, inviteId: number, seconds: number): Promise<string | null> {
  const token = newToken();
  const [issued] = await db
    .update(roleInvites)
    .set({ hash: inviteTokenHash(token), expiresAt: sql`now() + make_interval(secs => ${seconds})` })
    .where(and(eq(roleInvites.id, inviteId), eq(roleInvites.status, 'pending')))
    .returning({ id: roleInvites.id });
  return issued ? token : null;
}

/**
 * The invitation to a role in an event, while it is pending and its event live, with a new link token. The
 * link leads to the front end's `/role-invites` page (its app/routes/role-invites.js), which posts the token back.
 */
export async function roleInviteMail(
  app: FastifyInstance,
  inviteId: number,
  appName: string,
  frontend: string,
  seconds: number,
): Promise<OutgoingMail | null> {
  const [invite] = await app.db
    .select({ email: roleInvites.email, role: roles.titleName, event: events.name })
    .from(roleInvites)
    .innerJoin(roles, eq(roles.id, roleInvites.role))
    .innerJoin(events, and(eq(events.id, roleInvites.eventId), isNull(events.deletedAt)))
    .where(and(eq(roleInvites.id, inviteId), eq(roleInvites.status, 'pending')))
    .limit(1);
  if (!invite) return null;
  const token = await issueInviteToken(app.db, inviteId, seconds);
  if (!token) return null;
  const link = `${frontend}/role-invites?token=${encodeURIComponent(token)}`;
  return {
    to: { address: invite.email },
    subject: `Invitation to be ${invite.role} of ${invite.event} at ${appName}`,
    action: 'role-invite',
    text:
      `Hello,\n\nyou are invited to be ${invite.role} of the event "${invite.event}" at ${appName}. ` +
      `To accept, open this link within ${duration(seconds)} and log in (or sign up) with ${invite.email}:\n\n${link}\n\n` +
      `If you do not want the role, ignore this mail. If the link has expired, ask the event's organizers to send the invite again.\n`,
  };
}

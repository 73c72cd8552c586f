import { Type, type Static } from '@sinclair/typebox';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { eventRoles, events, roleInvites, users } from '../../../db/schema/index.js';
import { loggedIn, requireLogin } from '../../auth/caller.js';
import type { Db } from '../../../plugins/db.js';
import {
  API_PREFIX,
  conflict,
  errorResponses,
  forbidden,
  gone,
  hasNul,
  integerId,
  notFound,
} from '../../jsonapi/index.js';
import { requireRole } from '../events/access.js';
import { mailInvite } from './index.js';
import { inviteTokenHash } from './mail.js';
import { recordActivity } from '../../jsonapi/index.js';
import { roleCreatedLine } from '../activity-lines.js';

const TokenRequest = Type.Object(
  {
    data: Type.Object(
      { token: Type.String({ minLength: 1, maxLength: 256, description: 'the `token` of the link in the mail' }) },
      { additionalProperties: false },
    ),
  },
  { $id: 'RoleInviteTokenRequest', additionalProperties: false },
);
const InviteeResponse = Type.Object({ email: Type.String() }, { $id: 'RoleInviteInvitee' });
const AcceptedResponse = Type.Object(
  {
    email: Type.String(),
    event: Type.Integer({ description: 'id of the event' }),
    event_identifier: Type.String(),
    name: Type.Union([Type.String(), Type.Null()], { description: "the user's first and last name, if any" }),
    role: Type.String({ description: 'the role now held' }),
  },
  { $id: 'RoleInviteAccepted' },
);
const DeclinedResponse = Type.Object({ message: Type.String() }, { $id: 'RoleInviteDeclined' });
const ResentResponse = Type.Object({ success: Type.Boolean(), message: Type.String() }, { $id: 'RoleInviteResent' });

const EXPIRED = 'The link has expired (INVITE_EXPIRES_IN after its mail): the organizers send the invite again';

const operation = (o: {
  operationId: string;
  summary: string;
  description: string;
  ok: unknown;
  errors: Record<number, string>;
  open?: boolean;
  body?: boolean;
}) => ({
  tags: ['Roles'],
  operationId: o.operationId,
  summary: o.summary,
  description: o.description,
  ...(o.open ? { security: [] } : {}),
  ...(o.body === false ? {} : { consumes: ['application/json'], body: Type.Ref(TokenRequest) }),
  response: { 200: o.ok, ...errorResponses([400, 413, 415, 422, ...Object.keys(o.errors).map(Number)], o.errors) },
});

/**
 * The invite a token names, locked for the transaction's write; 404 for none (or one of a deleted event, or a
 * token a later mail of the invite replaced), 410 once the token has expired.
 */
async function inviteOf(db: Db, token: string, lock = false) {
  if (hasNul(token)) throw notFound('Role invite not found');
  const query = db
    .select({
      id: roleInvites.id,
      email: roleInvites.email,
      role: roleInvites.role,
      status: roleInvites.status,
      eventId: roleInvites.eventId,
      identifier: events.identifier,
      ownerId: events.ownerId,
      expiresAt: roleInvites.expiresAt,
      expired: sql<boolean>`${roleInvites.expiresAt} <= now()`,
    })
    .from(roleInvites)
    .innerJoin(events, and(eq(events.id, roleInvites.eventId), isNull(events.deletedAt)))
    .where(eq(roleInvites.hash, inviteTokenHash(token)))
    .limit(1);
  const [invite] = await (lock ? query.for('update', { of: roleInvites }) : query);
  if (!invite) throw notFound('Role invite not found');
  if (invite.expired)
    throw gone(
      `This invite link expired at ${invite.expiresAt!.toISOString()}: ask the event's organizers to send the invite again`,
    );
  return invite;
}

/** Gives the invitee the role; the owner role transfers the event, and the previous owner stays as an organizer. */
async function grant(tx: Db, invite: Awaited<ReturnType<typeof inviteOf>>, userId: number) {
  if (invite.role === 'owner') {
    if (invite.ownerId === userId) return;
    await tx.update(events).set({ ownerId: userId }).where(eq(events.id, invite.eventId));
    await tx
      .insert(eventRoles)
      .values({ eventId: invite.eventId, userId: invite.ownerId, role: 'organizer' })
      .onConflictDoNothing();
  } else {
    await tx.insert(eventRoles).values({ eventId: invite.eventId, userId, role: invite.role }).onConflictDoNothing();
  }
}

/**
 * The routes of the role invitation flow the front end drives (app/routes/role-invites.js,
 * app/components/events/view/overview/manage-roles.js), at the reference's paths.
 */
export default async function roleInviteRoutes(app: FastifyInstance) {
  for (const schema of [TokenRequest, InviteeResponse, AcceptedResponse, DeclinedResponse, ResentResponse])
    app.addSchema(schema);
  const token = (body: unknown) => (body as Static<typeof TokenRequest>).data.token;

  app.post(
    `${API_PREFIX}/role_invites/user`,
    {
      schema: operation({
        operationId: 'roleInviteInvitee',
        summary: 'The address a role invite was sent to',
        description:
          'Names the invited address of the invite whose mailed token is sent, so the front end can ask that account to log in.',
        open: true,
        ok: Type.Ref(InviteeResponse, { description: 'The invited address' }),
        errors: { 404: 'No invite has this token', 410: EXPIRED },
      }),
    },
    async (request) => ({ email: (await inviteOf(app.db, token(request.body))).email }),
  );

  app.post(
    `${API_PREFIX}/role_invites/accept-invite`,
    {
      onRequest: requireLogin(app),
      schema: operation({
        operationId: 'acceptRoleInvite',
        summary: 'Accept a role invite',
        description:
          'The invitee, logged in with the invited address, takes the role (accepting again answers the same). An owner invite ' +
          'transfers the event: the previous owner stays an organizer. Accepting proves the address: the account becomes verified.',
        ok: Type.Ref(AcceptedResponse, { description: 'The role is held' }),
        errors: {
          401: 'No valid token was sent',
          403: 'The invite is for another address',
          404: 'No invite has this token',
          409: 'The invite was declined',
          410: EXPIRED,
        },
      }),
    },
    async (request) => {
      const caller = loggedIn(request);
      return app.db.transaction(async (tx) => {
        const invite = await inviteOf(tx, token(request.body), true);
        if (invite.email.trim().toLowerCase() !== caller.email.toLowerCase())
          throw forbidden('This invite is for another address: log in with the invited one');
        if (invite.status === 'declined') throw conflict('This invite was declined');
        if (invite.status === 'pending') {
          await grant(tx, invite, caller.id);
          await recordActivity(tx, caller, [await roleCreatedLine({ db: tx }, invite.role, caller.id, invite.eventId)]);
          await tx.update(roleInvites).set({ status: 'accepted' }).where(eq(roleInvites.id, invite.id));
          await tx
            .update(users)
            .set({ isVerified: true })
            .where(and(eq(users.id, caller.id), eq(users.isVerified, false)));
        }
        const [user] = await tx
          .select({
            email: users.email,
            name: sql<string | null>`nullif(concat_ws(' ', ${users.firstName}, ${users.lastName}), '')`,
          })
          .from(users)
          .where(eq(users.id, caller.id));
        return {
          email: user!.email,
          event: invite.eventId,
          event_identifier: invite.identifier,
          name: user!.name,
          role: invite.role,
        };
      });
    },
  );

  app.post(
    `${API_PREFIX}/role_invites/decline-invite`,
    {
      schema: operation({
        operationId: 'declineRoleInvite',
        summary: 'Decline a role invite',
        description: 'Whoever holds the mailed token declines a pending invite (declining again answers the same).',
        open: true,
        ok: Type.Ref(DeclinedResponse, { description: 'The invite is declined' }),
        errors: { 404: 'No invite has this token', 409: 'The invite was accepted', 410: EXPIRED },
      }),
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const invite = await inviteOf(tx, token(request.body), true);
        if (invite.status === 'accepted') throw conflict('This invite was accepted');
        await tx.update(roleInvites).set({ status: 'declined' }).where(eq(roleInvites.id, invite.id));
        return { message: 'Role invite declined' };
      }),
  );

  app.post(
    `${API_PREFIX}/role-invites/:id/resend-invite`,
    {
      onRequest: requireLogin(app),
      schema: {
        ...operation({
          operationId: 'resendRoleInvite',
          summary: 'Mail a role invite again',
          description:
            "The event's organizers mail a pending invite again with a new link, valid for INVITE_EXPIRES_IN, that ends the " +
            'earlier ones (counted against the mail limits; past them nothing is sent, and the answer says so with ' +
            '`success: false`).',
          body: false,
          ok: Type.Ref(ResentResponse, { description: 'Whether the mail is on its way' }),
          errors: {
            401: 'No valid token was sent',
            403: 'Organizer rights on the event are required',
            404: 'No such invite',
            409: 'The invite is not pending',
          },
        }),
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'id of the role invite' }) }),
      },
    },
    async (request) => {
      const id = integerId((request.params as { id: string }).id);
      if (id === undefined) throw notFound('Role invite not found');
      return app.db.transaction(async (tx) => {
        const [invite] = await tx
          .select({
            id: roleInvites.id,
            email: roleInvites.email,
            status: roleInvites.status,
            eventId: roleInvites.eventId,
          })
          .from(roleInvites)
          .where(eq(roleInvites.id, id));
        if (!invite) throw notFound('Role invite not found');
        const ctx = { caller: request.caller, db: tx, request };
        await requireRole(ctx, invite.eventId, 'organizer', 'Role invite not found');
        if (invite.status !== 'pending') throw conflict(`This invite is ${invite.status}`);
        const sent = await mailInvite(ctx, invite.id, invite.email);
        return sent
          ? { success: true, message: 'Invite resent successfully' }
          : { success: false, message: 'Too many mails to this address for now; try again later' };
      });
    },
  );
}

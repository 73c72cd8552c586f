import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { roleInvites } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import {
  DateTime,
  Email,
  Nullable,
  conflict,
  defineResource,
  forbidden,
  unprocessable,
  type Ctx,
  type WriteInput,
} from '../../jsonapi/index.js';
import { choice, eventOf } from '../attributes.js';
import { inManagedEvent, namedEvent, requireRole } from '../events/access.js';
import { roleInviteActivity } from '../activity-lines.js';

export const ROLE_NAMES = ['owner', 'organizer', 'coorganizer', 'track_organizer', 'registrar', 'moderator'] as const;
const STATUSES = ['pending', 'accepted', 'declined'] as const;

/** The role an invite names: its `role` relationship and `role-name` (the front end sends both), which must agree. */
function invitedRole(input: WriteInput): string {
  const named = input.relationships.role as string | null | undefined;
  const name = input.attributes['role-name'] as string | null | undefined;
  if (named && name && named !== name)
    throw unprocessable('role-name must be the name of the role the invite names', '/data/attributes/role-name');
  const role = named ?? name;
  if (!role)
    throw unprocessable('An invite names a role: the role relationship or role-name', '/data/relationships/role');
  return role;
}

/** Mails the invitation (a job in the request's transaction); skipped past the mail limits: it can be resent. */
export const mailInvite = (ctx: Ctx, inviteId: number, email: string) =>
  ctx.request.server.accountMail.queue(
    ctx.db,
    { kind: 'role-invite', inviteId },
    { recipient: email, ip: ctx.request.ip, whenLimited: 'skip' },
  );

export const roleInviteResource = defineResource({
  type: 'role-invite',
  path: 'role-invites',
  name: 'RoleInvite',
  tag: 'Roles',
  description:
    "An invitation of an address to a role in an event. The event's organizers (the owner alone for the owner role, which " +
    'transfers the event) invite; a mail carries a link with a token, valid for INVITE_EXPIRES_IN (a day by default; the ' +
    'server keeps only its hash), and the invitee, logged in with that address, accepts it ' +
    '(`POST /v1/role_invites/accept-invite`) or declines it; an expired link answers 410, and a resent mail has a new one. Organizers and coorganizers of the event read its invites; ' +
    'organizers delete pending or declined ones. An invite is never changed (403): delete it and invite again.',
  table: roleInvites,
  activity: roleInviteActivity,
  attributes: {
    email: { column: 'email', schema: Email(), required: true, write: (v) => ({ email: (v as string).trim() }) },
    'role-name': {
      column: 'role',
      schema: choice(ROLE_NAMES, 'the role; the name of the role relationship (either may be sent; both must agree)'),
      input: Type.Union([...ROLE_NAMES.map((n) => Type.Literal(n)), Type.Null()], {
        description: 'the role; null when the role relationship names it',
      }),
      write: (v) => (v === null ? {} : { role: v }),
    },
    status: {
      column: 'status',
      schema: choice(STATUSES, 'pending until the invitee accepts or declines; a new invite is pending'),
    },
    hash: {
      column: 'hash',
      schema: Nullable(
        Type.String({ maxLength: 64, description: 'the hash of the token of the mailed link; never returned' }),
      ),
      input: Type.Null({ description: 'set by the server' }),
      private: true,
      write: () => ({}),
    },
    'created-at': {
      column: 'createdAt',
      schema: DateTime({ description: 'when the invite was made' }),
      input: Nullable(
        DateTime({ description: 'set by the server: a value sent (the front end sends its clock) is ignored' }),
      ),
      write: () => ({}),
    },
  },
  relationships: {
    event: eventOf,
    role: { kind: 'toOne', type: 'role', column: 'role', description: 'the role; agrees with role-name' },
  },
  policy: {
    scope: (ctx, t) => inManagedEvent(ctx.caller, t.eventId!),
    existsFor: (ctx, t) => inManagedEvent(ctx.caller, t.eventId!),
    seesPrivate: () => sql`false`,
    list: loggedIn,
    read() {},
    async create(ctx, input) {
      loggedIn(ctx);
      const named = input.relationships.event;
      const role = invitedRole(input);
      await requireRole(
        ctx,
        namedEvent(named),
        role === 'owner' ? 'owner' : 'organizer',
        `Related event "${String(named)}" not found`,
      );
      if (input.attributes.status !== undefined && input.attributes.status !== 'pending')
        throw unprocessable('A new invite is pending', '/data/attributes/status');
    },
    update() {
      throw forbidden('A role invite is not changed: delete it and invite again');
    },
    async delete(ctx, row) {
      await requireRole(ctx, row.eventId as number, 'organizer');
      if (row.status === 'accepted')
        throw conflict('An accepted role invite cannot be deleted', '/data/attributes/status');
    },
  },
  hooks: {
    beforeCreate(_ctx, values, input) {
      values.role = invitedRole(input);
      values.status = 'pending';
    },
    async afterCreate(ctx, row) {
      await mailInvite(ctx, row.id as number, row.email as string);
    },
  },
  unique: {
    role_invites_event_email_role_key: {
      pointer: '/data/attributes/email',
      detail: 'This address is invited to this role in the event already',
    },
  },
});

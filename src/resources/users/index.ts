import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { eventRoles, userEvents, users } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import { hashPassword } from '../../auth/password.js';
import {
  DateTime,
  Email,
  Nullable,
  Text,
  Url,
  constant,
  defineResource,
  forbidden,
  notFound,
  type AttributeSpec,
  type Ctx,
  type Row,
  type ToManySpec,
} from '../../jsonapi/index.js';
import { withImageVariants } from '../../images/variants.js';
import { accountHooks } from './hooks.js';
import { userPolicy } from './policy.js';
import { profileAttributes } from './profile.js';
import { userActivity } from '../activity-lines.js';

const name = (column: string, description: string) => ({ column, schema: Nullable(Text(255, { description })) });
const url = (column: string, description: string, readOnly = false) => ({
  column,
  schema: Nullable(Url({ description })),
  readOnly,
});

/** A relationship only the user and administrators may follow. */
const ownOnly = (message: string) => (ctx: Ctx, row: Row) => {
  if (row.id !== loggedIn(ctx).id && !isStaff(ctx.caller)) throw forbidden(message);
};

type RoleName =
  | 'organizer'
  | 'coorganizer'
  | 'track_organizer'
  | 'registrar'
  | 'moderator'
  | 'marketer'
  | 'sales_admin';
const spoken = (role: string) => role.replace('_', ' ');

/** The events in which the user holds a role (set on the event's role relationships, read-only here). */
const roleEvents = (role: RoleName, note = ''): ToManySpec => ({
  kind: 'toMany',
  type: 'event',
  through: { table: eventRoles, from: 'userId', to: 'eventId', where: { role } },
  readOnly: true,
  description: `the events the user is a${/^[aeiou]/.test(role) ? 'n' : ''} ${spoken(role)} of${note}; the user and administrators only`,
  guard: ownOnly("These are another user's events"),
});

/** Whether the user holds `role` in any live event, computed in the statement that reads the user. */
const holdsAnywhere = (role: 'owner' | RoleName): AttributeSpec => ({
  schema: Type.Boolean({
    description: `the user is a${/^[aeiou]/.test(role) ? 'n' : ''} ${spoken(role)} of a live event`,
  }),
  readOnly: true,
  // Qualified by hand: drizzle leaves the columns of a one-table read unqualified, and an unqualified "id"
  // here would be the joined event's.
  select: () =>
    sql<boolean>`exists (select 1 from "event_roles" r join "events" e on e."id" = r."event_id" and e."deleted_at" is null
      where r."user_id" = "users"."id" and r."role" = ${constant(role)})`,
});

export const userResource = defineResource({
  type: 'user',
  path: 'users',
  name: 'User',
  tag: 'Users',
  description:
    'An account. Registration is open; a user reads and changes only their own record unless an administrator. ' +
    'Registration mails a link that verifies the address (`is-verified`); a new address is unverified until its own link ' +
    'is used. A new password ends the other logins of the account. Deleting keeps the record with deleted-at set and ends its tokens.',
  table: users,
  activity: userActivity,
  softDelete: 'deletedAt',
  attributes: {
    email: {
      column: 'email',
      schema: Email(),
      required: true,
      write: (v) => ({ email: (v as string).trim() }),
    },
    password: {
      schema: Type.String({ minLength: 8, maxLength: 128, description: 'at least 8 characters; never returned' }),
      required: true,
      writeOnly: true,
      write: async (v) => ({ passwordHash: await hashPassword(v as string) }),
    },
    name: name('name', 'display name'),
    'first-name': name('firstName', 'first name'),
    'last-name': name('lastName', 'last name'),
    details: { column: 'details', schema: Nullable(Text(10_000)) },
    contact: { column: 'contact', schema: Nullable(Text(1000)) },
    'avatar-url': url('avatarUrl', 'the uploaded avatar'),
    'facebook-url': url('facebookUrl', 'Facebook profile'),
    'twitter-url': url('twitterUrl', 'Twitter profile'),
    'facebook-id': {
      schema: Nullable(
        Type.Integer({ description: 'always null: this service has no Facebook login (the reference kept its id)' }),
      ),
      readOnly: true,
      select: () => sql<null>`null::integer`,
    },
    'instagram-url': url('instagramUrl', 'Instagram profile'),
    'google-plus-url': url('googlePlusUrl', 'Google+ profile'),
    'original-image-url': url('originalImageUrl', 'avatar as uploaded', true),
    'thumbnail-image-url': url('thumbnailImageUrl', 'avatar thumbnail', true),
    'small-image-url': url('smallImageUrl', 'small avatar', true),
    'icon-image-url': url('iconImageUrl', 'avatar icon', true),
    'is-admin': {
      column: 'isAdmin',
      schema: Type.Boolean({ description: 'administrator; only a super admin may change it' }),
    },
    'is-super-admin': {
      column: 'isSuperAdmin',
      schema: Type.Boolean({ description: 'super administrator; only a super admin may change it' }),
    },
    'is-verified': {
      column: 'isVerified',
      schema: Type.Boolean({
        description: 'the address was proven by the link mailed to it; only administrators may change it',
      }),
    },
    'public-name': name('publicName', 'the name shown to others instead of the first and last name'),
    'was-registered-with-order': {
      column: 'wasRegisteredWithOrder',
      schema: Type.Boolean({ description: 'the account was made by a guest checkout' }),
    },
    ...profileAttributes,
    'is-user-owner': holdsAnywhere('owner'),
    'is-user-organizer': holdsAnywhere('organizer'),
    'is-user-coorganizer': holdsAnywhere('coorganizer'),
    'is-user-track-organizer': holdsAnywhere('track_organizer'),
    'is-user-moderator': holdsAnywhere('moderator'),
    'is-user-registrar': holdsAnywhere('registrar'),
    'created-at': { column: 'createdAt', schema: DateTime(), readOnly: true },
    'deleted-at': { column: 'deletedAt', schema: Nullable(DateTime()), readOnly: true },
  },
  relationships: {
    speakers: {
      kind: 'toMany',
      type: 'speaker',
      foreignKey: 'userId',
      inverse: 'user',
      description: "the user's speaker profiles",
    },
    sessions: { kind: 'toMany', type: 'session', foreignKey: 'creatorId', description: 'sessions the user created' },
    orders: { kind: 'toMany', type: 'order', foreignKey: 'userId', description: 'orders the user bought' },
    'discount-codes': {
      kind: 'toMany',
      type: 'discount-code',
      foreignKey: 'marketerId',
      readOnly: true,
      description: 'the discount codes the user made (its marketer); the user and administrators only',
      guard: ownOnly("These are another user's discount codes"),
    },
    'access-codes': {
      kind: 'toMany',
      type: 'access-code',
      foreignKey: 'marketerId',
      readOnly: true,
      description: 'the access codes the user made (its marketer); the user and administrators only',
      guard: ownOnly("These are another user's access codes"),
    },
    attendees: {
      kind: 'toMany',
      type: 'attendee',
      foreignKey: 'userId',
      readOnly: true,
      description: 'the ticket holders whose user account this is; the user and administrators only',
      guard: ownOnly("These are another user's tickets"),
    },
    notifications: {
      kind: 'toMany',
      type: 'notification',
      foreignKey: 'userId',
      description: "the user's notifications; the user and administrators only",
      guard: ownOnly("These are another user's notifications"),
    },
    'email-notifications': {
      kind: 'toMany',
      type: 'email-notification',
      foreignKey: 'userId',
      readOnly: true,
      description: "the user's choices of the mails it receives, per event; the user and administrators only",
      guard: ownOnly("These are another user's e-mail notification settings"),
    },
    events: {
      kind: 'toMany',
      type: 'event',
      through: { table: userEvents, from: 'userId', to: 'eventId' },
      readOnly: true,
      description: 'the events the user holds any role in; the user and administrators only',
      guard: ownOnly("These are another user's events"),
    },
    'owner-events': {
      kind: 'toMany',
      type: 'event',
      foreignKey: 'ownerId',
      readOnly: true,
      description: 'the events the user created; the user and administrators only',
      guard: ownOnly("These are another user's events"),
    },
    feedbacks: {
      kind: 'toMany',
      type: 'feedback',
      foreignKey: 'userId',
      description: "the user's feedback; the user and administrators only",
      guard: ownOnly("This is another user's feedback"),
    },
    favourites: {
      kind: 'toMany',
      type: 'user-favourite-session',
      foreignKey: 'userId',
      aliases: ['user-favourite-sessions'],
      description: "the sessions on the user's schedule; the user and administrators only",
      guard: ownOnly("This is another user's schedule"),
    },
    groups: {
      kind: 'toMany',
      type: 'group',
      foreignKey: 'userId',
      readOnly: true,
      description: 'the groups the user created',
    },
    'event-invoices': {
      kind: 'toMany',
      type: 'event-invoice',
      foreignKey: 'userId',
      readOnly: true,
      description:
        "the invoices of the platform's fee billed to the user (an event's owner); the user and administrators only",
      guard: (ctx, row) => {
        if (row.id !== loggedIn(ctx).id && !isStaff(ctx.caller)) throw notFound('User not found');
      },
    },
    'followed-groups': {
      kind: 'toMany',
      type: 'user-follow-group',
      foreignKey: 'userId',
      readOnly: true,
      description: "the user's follows of groups; the user and administrators only",
      guard: ownOnly("These are another user's follows"),
    },
    'organizer-events': roleEvents('organizer'),
    'coorganizer-events': roleEvents('coorganizer'),
    'track-organizer-events': roleEvents('track_organizer'),
    'registrar-events': roleEvents('registrar'),
    'moderator-events': roleEvents('moderator'),
    'marketer-events': roleEvents('marketer', ' (always empty: this service has no marketer role)'),
    'sales-admin-events': roleEvents('sales_admin', ' (always empty: this service has no sales admin role)'),
  },
  policy: userPolicy,
  hooks: withImageVariants('user', accountHooks),
  unique: { users_email_key: { pointer: '/data/attributes/email', detail: 'A user with this email already exists' } },
  createFailures: {
    429:
      'Too many new accounts from this client address or for this address domain (SIGNUP_RATE_*); `Retry-After` says when ' +
      'to try again',
  },
});

import { Type } from '@sinclair/typebox';
import { eq, sql } from 'drizzle-orm';
import { events, groups, users } from '../../../db/schema/index.js';
import { isStaff, loggedIn } from '../../auth/caller.js';
import {
  DateTime,
  Nullable,
  Text,
  defineResource,
  forbidden,
  integerId,
  type Ctx,
  type Policy,
  type Row,
  type WriteInput,
} from '../../jsonapi/index.js';
import { createdAt, deletedAt, derivedUrl, optionalText, optionalUrl, requiredText } from '../attributes.js';
import { requireRole } from '../events/access.js';

const SocialLinks = Nullable(
  Type.Array(
    Type.Object(
      {
        name: Text(255, { description: 'the site, or a custom label' }),
        link: Type.String({
          maxLength: 2048,
          pattern: '^(https?://.*)?$',
          description: 'an http(s) URL, or empty while the form is filled in',
        }),
        is_custom: Type.Optional(Type.Boolean({ description: 'a custom link rather than a known site' })),
      },
      { additionalProperties: false },
    ),
    { maxItems: 50, description: "the group's links elsewhere, as `[{name, link, is_custom}]`" },
  ),
);

/** The owner of the group or an administrator: 401 without a login, 403 for anyone else. */
function ownerOrStaff(ctx: Ctx, row: Row) {
  const caller = loggedIn(ctx);
  if (row.userId !== caller.id && !isStaff(caller))
    throw forbidden('Only the owner of the group or an administrator may do this');
}

/** Only administrators promote groups; sending the current value back is harmless. */
function guardPromotion(ctx: Ctx, input: WriteInput, row?: Row) {
  const wanted = input.attributes['is-promoted'];
  if (wanted === undefined || wanted === (row ? row.isPromoted : false) || isStaff(ctx.caller)) return;
  throw forbidden('Only administrators promote groups', '/data/attributes/is-promoted');
}

/**
 * Events join or leave a group only by the hand of their owner (the reference's rule): every event the
 * write adds to the group or takes out of it.
 */
async function guardEvents(ctx: Ctx, input: WriteInput, row?: Row) {
  const named = input.relationships.events;
  if (!Array.isArray(named)) return;
  const wanted = new Set(named.map((id) => integerId(id)).filter((id): id is number => id !== undefined));
  const current = row
    ? new Set(
        (
          await ctx.db
            .select({ id: events.id })
            .from(events)
            .where(eq(events.groupId, row.id as number))
        ).map((e) => e.id),
      )
    : new Set<number>();
  // The relationship endpoint adds (POST) or removes (DELETE) the named events; every other write replaces the list.
  const endpoint = /\/relationships\/events(\?|$)/.test(ctx.request.url) ? ctx.request.method : 'PATCH';
  const moved =
    endpoint === 'POST'
      ? [...wanted].filter((id) => !current.has(id))
      : endpoint === 'DELETE'
        ? [...wanted].filter((id) => current.has(id))
        : [...wanted].filter((id) => !current.has(id)).concat([...current].filter((id) => !wanted.has(id)));
  for (const id of moved) await requireRole(ctx, id, 'owner', `Related event "${id}" not found`);
}

const groupPolicy: Policy = {
  scope: () => undefined,
  list() {},
  read() {},
  async create(ctx, input) {
    const caller = loggedIn(ctx);
    const [user] = await ctx.db
      .select({ verified: users.isVerified })
      .from(users)
      .where(eq(users.id, caller.id))
      .limit(1);
    if (!user?.verified && !isStaff(caller)) throw forbidden('Verify your email address before you create a group');
    guardPromotion(ctx, input);
    await guardEvents(ctx, input);
  },
  async update(ctx, row, input) {
    ownerOrStaff(ctx, row);
    guardPromotion(ctx, input, row);
    await guardEvents(ctx, input, row);
  },
  delete: ownerOrStaff,
};

export const groupResource = defineResource({
  type: 'group',
  path: 'groups',
  name: 'Group',
  tag: 'Groups',
  description:
    'A group of events that users follow. Groups are public. A user with a verified address creates one and owns it; the ' +
    'owner (or an administrator) edits and deletes it; only administrators promote groups. Events join or leave a group ' +
    "only by their owner's hand (through the group's `events` or the event's `group`).",
  table: groups,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    about: optionalText('about', 100_000),
    'logo-url': optionalUrl('logoUrl'),
    'banner-url': optionalUrl('bannerUrl'),
    'thumbnail-image-url': derivedUrl('thumbnailImageUrl', 'thumbnail of the banner'),
    'social-links': { column: 'socialLinks', schema: SocialLinks },
    'is-promoted': {
      column: 'isPromoted',
      schema: Type.Boolean({ description: 'shown first; only administrators change it' }),
    },
    'follower-count': {
      column: 'followerCount',
      schema: Type.Integer({ minimum: 0, description: 'how many users follow the group' }),
      readOnly: true,
    },
    'created-at': createdAt,
    'modified-at': {
      column: 'modifiedAt',
      schema: DateTime({ description: 'when the group was last changed' }),
      readOnly: true,
    },
    'deleted-at': deletedAt,
  },
  relationships: {
    user: {
      kind: 'toOne',
      type: 'user',
      column: 'userId',
      readOnly: true,
      description: 'the owner: the user who created the group',
    },
    events: {
      kind: 'toMany',
      type: 'event',
      foreignKey: 'groupId',
      settable: true,
      description: "the group's events; an event is in at most one group, and only its owner moves it",
    },
    followers: {
      kind: 'toMany',
      type: 'user-follow-group',
      foreignKey: 'groupId',
      readOnly: true,
      description: 'who follows the group; each follower sees their own follow, the owner and administrators all',
    },
    follower: {
      kind: 'toOne',
      type: 'user-follow-group',
      foreignKey: 'groupId',
      readOnly: true,
      description: "the caller's own follow of the group, if any",
      where: (ctx, t) => (ctx.caller ? eq(t.userId!, ctx.caller.id) : sql`false`),
    },
  },
  policy: groupPolicy,
  hooks: {
    beforeCreate(ctx, values) {
      values.userId = loggedIn(ctx).id;
    },
    beforeUpdate(_ctx, _row, values) {
      values.modifiedAt = new Date();
    },
  },
});

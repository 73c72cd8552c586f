import { randomInt } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { and, eq, gt, sql } from 'drizzle-orm';
import { eventRoles, events, eventSessionFavourites } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { withImageVariants } from '../../images/variants.js';
import {
  DateTime,
  Nullable,
  Text,
  TimeZone,
  Url,
  canonicalTimeZone,
  constant,
  defineResource,
  type Columns,
} from '../../jsonapi/index.js';
import {
  coordinates,
  createdAt,
  deletedAt,
  derivedUrl,
  optionalText,
  optionalUrl,
  recordsOfEvent,
  requiredText,
} from '../attributes.js';
import { checkPeriod } from '../period.js';

import { scheduleUrl } from '../../schedule/urls.js';
import { checkDocumentLinks, eventOptions } from './options.js';
import { createDefaultForms } from './default-forms.js';
import { eventPolicy } from './policy.js';
import { holdsDoor, holdsRole, requireRole } from './access.js';
import { notFound } from '../../jsonapi/index.js';
import { requireDoor } from './door-policy.js';
import { eventActivity } from '../activity-lines.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ALPHABET = `${LETTERS}0123456789`;

/** Where conference apps and calendars read the event's schedule (src/schedule): the reference's export URLs. */
const scheduleUrls = Object.fromEntries(
  (
    [
      ['pentabarf-url', 'schedule.xml', 'the schedule as frab/Pentabarf XML (conference apps, c3voc)'],
      ['ical-url', 'schedule.ics', 'the schedule as iCalendar (calendar programs)'],
      ['xcal-url', 'schedule.xcal', 'the schedule as xCal'],
    ] as const
  ).map(([name, file, description]) => [
    name,
    {
      select: (t: Columns) => scheduleUrl(t.identifier!, file),
      schema: Nullable(Url({ description })),
      readOnly: true,
    },
  ]),
);

/** Eight characters starting with a letter, so an identifier is never mistaken for a numeric id in a path. */
export function newIdentifier(): string {
  let id = LETTERS[randomInt(LETTERS.length)]!;
  while (id.length < 8) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

const role = (
  name: 'organizer' | 'coorganizer' | 'track_organizer' | 'registrar' | 'moderator',
  description: string,
) => ({
  kind: 'toMany' as const,
  type: 'user',
  through: { table: eventRoles, from: 'eventId', to: 'userId', where: { role: name } },
  description,
});

export const eventResource = defineResource({
  type: 'event',
  path: 'events',
  name: 'Event',
  tag: 'Events',
  description:
    'An event. Any logged-in user may create one and becomes its owner. Published events are public; drafts, ' +
    'and every record under them, answer 404 to anyone but their organizers, coorganizers and administrators. ' +
    'Every path may name an event by id or by its identifier.',
  table: events,
  activity: eventActivity,
  alternateKey: 'identifier',
  softDelete: 'deletedAt',
  attributes: {
    identifier: {
      column: 'identifier',
      schema: Text(16, { description: 'short unique name of the event, usable instead of the id in paths' }),
      readOnly: true,
    },
    name: requiredText('name', 255),
    'starts-at': { column: 'startsAt', schema: DateTime(), required: true },
    'ends-at': { column: 'endsAt', schema: DateTime({ description: 'after starts-at' }), required: true },
    timezone: {
      column: 'timezone',
      schema: TimeZone({ description: 'IANA time zone name, e.g. Europe/Berlin' }),
      required: true,
      write: (v) => ({ timezone: canonicalTimeZone(v as string) }),
    },
    description: optionalText('description', 100_000),
    'location-name': optionalText('locationName', 255),
    ...coordinates,
    'logo-url': optionalUrl('logoUrl'),
    'original-image-url': optionalUrl('originalImageUrl', 'the event image as uploaded'),
    'large-image-url': derivedUrl('largeImageUrl', 'large variant of the event image'),
    'thumbnail-image-url': derivedUrl('thumbnailImageUrl', 'thumbnail variant of the event image'),
    'icon-image-url': derivedUrl('iconImageUrl', 'icon variant of the event image'),
    'external-event-url': optionalUrl('externalEventUrl'),
    'ticket-url': optionalUrl('ticketUrl'),
    privacy: {
      column: 'privacy',
      schema: Type.Union([Type.Literal('public'), Type.Literal('private')], { default: 'public' }),
    },
    state: {
      column: 'state',
      schema: Type.Union([Type.Literal('draft'), Type.Literal('published')], {
        default: 'draft',
        description: 'drafts are visible only to organizers, coorganizers and administrators',
      }),
    },
    'code-of-conduct': optionalText('codeOfConduct', 100_000),
    ...scheduleUrls,
    ...eventOptions,
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    'event-topic': { kind: 'toOne', type: 'event-topic', column: 'eventTopicId' },
    'event-type': { kind: 'toOne', type: 'event-type', column: 'eventTypeId', description: 'the kind of event' },
    'event-sub-topic': {
      kind: 'toOne',
      type: 'event-sub-topic',
      column: 'eventSubTopicId',
      description: "the sub-topic of the event's topic",
    },
    'event-copyright': { kind: 'toOne', type: 'event-copyright', foreignKey: 'eventId', readOnly: true },
    'video-stream': {
      kind: 'toOne',
      type: 'video-stream',
      foreignKey: 'eventId',
      readOnly: true,
      description: "the event's own video stream",
    },
    group: {
      kind: 'toOne',
      type: 'group',
      column: 'groupId',
      description: 'the group the event is part of; set by the owner of both',
    },
    'social-links': recordsOfEvent('social-link', 'links to the event elsewhere'),
    microlocations: recordsOfEvent('microlocation', 'rooms and places of the event'),
    sponsors: recordsOfEvent('sponsor', 'sponsors of the event'),
    tracks: recordsOfEvent('track', 'tracks of the event'),
    'session-types': recordsOfEvent('session-type', 'kinds of session'),
    sessions: recordsOfEvent('session', 'sessions of the event'),
    speakers: recordsOfEvent('speaker', 'speakers of the event', 'event'),
    'custom-forms': recordsOfEvent('custom_form', 'form fields of the event', 'event'),
    'ticket-tags': recordsOfEvent('ticket-tag', "labels on the event's tickets", 'event'),
    stations: {
      ...recordsOfEvent('station', "the event's registration desks and doors; its door staff only", 'event'),
      guard: (ctx, row) => requireDoor(ctx, row.id as number, 'Event not found'),
    },
    'user-check-in': {
      ...recordsOfEvent('user_check_in', "the event's registrations and check-ins; its door staff only"),
      guard: (ctx, row) => requireDoor(ctx, row.id as number, 'Event not found'),
    },
    'badge-forms': {
      ...recordsOfEvent('badge-form', "the layouts of the event's badges; its door staff only", 'event'),
      guard: (ctx, row) => requireDoor(ctx, row.id as number, 'Event not found'),
      narrowed: [
        {
          path: 'badge-forms/:badge_id',
          param: 'badge_id',
          column: 'badgeId',
          operation: 'ByBadge',
          summary: "List an event's badge forms of one badge",
          description: 'the badge the forms lay out',
        },
      ],
    },
    tags: {
      ...recordsOfEvent(
        'tag',
        "the event's labels for its ticket holders; its organizers and coorganizers only",
        'event',
      ),
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
    orders: {
      ...recordsOfEvent('order', 'ticket orders of the event; its organizers and coorganizers only'),
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
    tickets: recordsOfEvent('ticket', 'tickets the event sells (hidden ones for its organizers only)', 'event'),
    'discount-codes': {
      ...recordsOfEvent(
        'discount-code',
        "the event's discount codes for its tickets; its organizers and coorganizers only",
      ),
      readOnly: true,
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
    'access-codes': {
      ...recordsOfEvent('access-code', "the event's access codes; its organizers and coorganizers only"),
      readOnly: true,
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
    'discount-code': {
      kind: 'toOne',
      type: 'discount-code',
      column: 'discountCodeId',
      readOnly: true,
      description:
        "the administrators' event discount code that lowers the event's fee, if any (set by the code's events)",
    },
    tax: {
      kind: 'toOne',
      type: 'tax',
      foreignKey: 'eventId',
      readOnly: true,
      description: 'the tax on the tickets, if any',
    },
    'speakers-call': {
      kind: 'toOne',
      type: 'speakers-call',
      foreignKey: 'eventId',
      readOnly: true,
      description: 'the call for speakers, if any',
    },
    'stripe-authorization': {
      kind: 'toOne',
      type: 'stripe-authorization',
      foreignKey: 'eventId',
      readOnly: true,
      description: 'always null: this server has no Stripe integration',
    },
    attendees: {
      ...recordsOfEvent('attendee', 'ticket holders of the event; its organizers, coorganizers and registrars only'),
      guard: async (ctx, row) => {
        if (!(await holdsDoor(ctx, row.id as number))) await requireRole(ctx, row.id as number, 'coorganizer');
      },
    },
    owner: { kind: 'toOne', type: 'user', column: 'ownerId', readOnly: true, description: 'the creator of the event' },
    'event-invoices': {
      kind: 'toMany',
      type: 'event-invoice',
      foreignKey: 'eventId',
      readOnly: true,
      description: "the monthly invoices of the platform's fee on the event's sales; its owner and organizers only",
      guard: async (ctx, row) => {
        loggedIn(ctx);
        if (!(await holdsRole(ctx, row.id as number, 'organizer'))) throw notFound('Event not found');
      },
    },
    'speaker-invites': recordsOfEvent(
      'speaker-invite',
      "invitations to speak at the event's sessions (see speaker-invite for who reads them)",
    ),
    feedbacks: {
      kind: 'toMany',
      type: 'feedback',
      foreignKey: 'eventId',
      readOnly: true,
      description:
        "ratings of the event and of its sessions: the caller's own, all for the event's organizers and coorganizers",
    },
    'session-favourites': {
      kind: 'toMany',
      type: 'user-favourite-session',
      through: { table: eventSessionFavourites, from: 'eventId', to: 'favouriteId' },
      readOnly: true,
      aliases: ['user-favourite-sessions'],
      description:
        "favourites of the event's sessions: the caller's own, all for the event's organizers and coorganizers",
    },
    organizers: role('organizer', 'organizers: owner rights except managing roles; only the owner changes them'),
    coorganizers: role('coorganizer', 'coorganizers edit the event and its records; only the owner changes them'),
    'track-organizers': role(
      'track_organizer',
      'track organizers see the event while it is a draft; only the owner changes them',
    ),
    registrars: role('registrar', 'registrars see the event while it is a draft; only the owner changes them'),
    moderators: role('moderator', 'moderators see the event while it is a draft; only the owner changes them'),
    roles: {
      kind: 'toMany',
      type: 'users-events-roles',
      foreignKey: 'eventId',
      readOnly: true,
      aliases: ['users-events-roles'],
      description: 'who holds which role in the event, the owner included',
    },
    'general-statistics': {
      kind: 'toOne',
      type: 'event-statistics-general',
      foreignKey: 'id',
      readOnly: true,
      description: "counts of the event's sessions, speakers and sponsors; its organizers and coorganizers only",
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
    'order-statistics': {
      kind: 'toOne',
      type: 'order-statistics-event',
      foreignKey: 'id',
      readOnly: true,
      description: "the event's orders, tickets sold and sales by status; its organizers and coorganizers only",
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
    'role-invites': {
      kind: 'toMany',
      type: 'role-invite',
      foreignKey: 'eventId',
      readOnly: true,
      description: 'invitations to roles in the event; its organizers and coorganizers only',
      guard: (ctx, row) => requireRole(ctx, row.id as number, 'coorganizer'),
    },
  },
  views: {
    upcoming: {
      summary: 'List upcoming events',
      description:
        'Published public events that have not ended (the home page of the Open Event front end), soonest first. ' +
        'Readable by everyone, like every published event.',
      where: (_ctx, t) =>
        and(eq(t.state!, constant('published')), eq(t.privacy!, constant('public')), gt(t.endsAt!, sql`now()`)),
      sort: 'starts-at',
      params: {
        upcoming: Type.Optional(
          Type.String({ maxLength: 16, description: 'sent by the Open Event front end (`true`); no effect' }),
        ),
      },
      volatile: true,
    },
  },
  policy: eventPolicy,
  hooks: withImageVariants('event', {
    beforeCreate(ctx, values) {
      values.ownerId = loggedIn(ctx).id;
      values.identifier = newIdentifier();
      checkPeriod(values);
      checkDocumentLinks(values);
    },
    afterCreate: (ctx, row) => createDefaultForms(ctx, row.id as number),
    beforeUpdate(_ctx, row, values) {
      checkPeriod(values, row);
      checkDocumentLinks(values, row);
    },
  }),
});

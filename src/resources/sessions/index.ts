import { Type } from '@sinclair/typebox';
import { sessions, speakersSessions } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { DateTime, Nullable, defineResource, type ToOneSpec } from '../../jsonapi/index.js';
import { createdAt, deletedAt, eventOf, optionalText, optionalUrl, requiredText } from '../attributes.js';
import { complexFieldValues, slides } from '../form-values.js';

import { checkPeriod } from '../period.js';
import { sessionSocialAttributes, sessionSocialRelationships } from './social.js';
import { requireDoor } from '../events/door-policy.js';
import { sessionPolicy } from './policy.js';
import { SESSION_STATES, transitionTable } from './states.js';
import { sessionActivity } from '../activity-lines.js';

const ofTheEvent = (type: string, column: string, description: string): ToOneSpec => ({
  kind: 'toOne',
  type,
  column,
  within: 'event',
  description: `${description}; must belong to the session's event`,
});

/** Moving into `submitted` stamps submitted-at unless the request sets it. */
function stampSubmission(values: Record<string, unknown>, previous?: unknown) {
  if (values.state === 'submitted' && previous !== 'submitted' && values.submittedAt === undefined)
    values.submittedAt = new Date();
}

export const sessionResource = defineResource({
  type: 'session',
  path: 'sessions',
  name: 'Session',
  tag: 'Sessions',
  description:
    "A session of an event. Organizers and coorganizers create and edit sessions; the session's speakers " +
    'may only move its state. State moves:\n\n' +
    transitionTable(),
  table: sessions,
  activity: sessionActivity,
  softDelete: 'deletedAt',
  attributes: {
    title: requiredText('title', 255),
    subtitle: optionalText('subtitle', 255),
    level: optionalText('level', 32, 'e.g. Beginner, Intermediate, Advanced, Expert'),
    'short-abstract': optionalText('shortAbstract', 10_000),
    'long-abstract': optionalText('longAbstract', 100_000),
    comments: optionalText('comments', 10_000),
    'starts-at': { column: 'startsAt', schema: Nullable(DateTime()) },
    'ends-at': { column: 'endsAt', schema: Nullable(DateTime({ description: 'after starts-at' })) },
    language: optionalText('language', 64),
    'slides-url': optionalUrl('slidesUrl'),
    'video-url': optionalUrl('videoUrl'),
    'audio-url': optionalUrl('audioUrl'),
    'signup-url': optionalUrl('signupUrl'),
    slides,
    website: optionalUrl('website'),
    twitter: optionalUrl('twitter'),
    facebook: optionalUrl('facebook'),
    github: optionalUrl('github'),
    gitlab: optionalUrl('gitlab'),
    linkedin: optionalUrl('linkedin'),
    instagram: optionalUrl('instagram'),
    mastodon: optionalUrl('mastodon'),
    'complex-field-values': complexFieldValues('complexFieldValues'),
    'send-email': {
      column: 'sendEmail',
      schema: Type.Boolean({
        description: 'whether the speakers are to be mailed about state changes (default false)',
      }),
    },
    'is-locked': {
      column: 'isLocked',
      schema: Type.Boolean({
        description:
          "default false; only the event's organizers and administrators set it, and a locked session can no longer be changed by its speakers",
      }),
    },
    'is-mail-sent': {
      column: 'isMailSent',
      schema: Type.Boolean({
        description: "default false; whether the speakers were mailed the session's state; set by organizers",
      }),
    },
    state: {
      column: 'state',
      schema: Type.Union(
        SESSION_STATES.map((s) => Type.Literal(s)),
        {
          default: 'draft',
          description: 'moves follow the transition table in the description of the session resource',
        },
      ),
      // ember-data sends an unset state as null (the call for speakers form never sets one): null
      // leaves the state as it is, draft for a new session.
      input: Type.Union([...SESSION_STATES.map((s) => Type.Literal(s)), Type.Null()], {
        description:
          'moves follow the transition table in the description of the session resource; null keeps the state (draft on create)',
      }),
      write: (value) => (value === null ? {} : { state: value }),
    },
    'submitted-at': {
      column: 'submittedAt',
      schema: Nullable(DateTime({ description: 'set on the move to submitted' })),
    },
    'created-at': createdAt,
    'last-modified-at': {
      column: 'lastModifiedAt',
      schema: DateTime({
        description: 'when the session was last changed (any change of its attributes or to-one relationships)',
      }),
      readOnly: true,
    },
    'deleted-at': deletedAt,
    ...sessionSocialAttributes,
  },
  relationships: {
    event: eventOf,
    track: ofTheEvent('track', 'trackId', 'the track'),
    microlocation: ofTheEvent('microlocation', 'microlocationId', 'the room'),
    'session-type': ofTheEvent('session-type', 'sessionTypeId', 'the kind of session'),
    speakers: {
      kind: 'toMany',
      type: 'speaker',
      through: { table: speakersSessions, from: 'sessionId', to: 'speakerId' },
      within: 'event',
      inverse: 'sessions',
      description: "the session's speakers, all of the session's event",
    },
    creator: {
      kind: 'toOne',
      type: 'user',
      column: 'creatorId',
      readOnly: true,
      callerOnCreate: true,
      description: 'the user who created the session (a create may name the caller)',
    },
    ...sessionSocialRelationships,
    'station-store-paxs': {
      kind: 'toMany',
      type: 'station-store-pax',
      foreignKey: 'sessionId',
      description: "the head counts the event's stations took of the session; its event's door staff only",
      guard: (ctx, row) => requireDoor(ctx, row.eventId as number, 'Session not found'),
    },
  },
  policy: sessionPolicy,
  hooks: {
    beforeCreate(ctx, values) {
      values.creatorId = loggedIn(ctx).id;
      checkPeriod(values);
      stampSubmission(values);
    },
    beforeUpdate(_ctx, row, values) {
      checkPeriod(values, row);
      stampSubmission(values, row.state);
    },
  },
});

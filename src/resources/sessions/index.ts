import { Type } from '@sinclair/typebox';
import { sessions, speakersSessions } from '../../../db/schema/index.js';
import { loggedIn } from '../../auth/caller.js';
import { defineResource, type ToOneSpec } from '../../jsonapi/resource.js';
import { DateTime, Nullable } from '../../jsonapi/types.js';
import { createdAt, deletedAt, eventOf, optionalText, optionalUrl, requiredText } from '../attributes.js';

import { checkPeriod } from '../period.js';
import { sessionSocialAttributes, sessionSocialRelationships } from './social.js';
import { sessionPolicy } from './policy.js';
import { SESSION_STATES, transitionTable } from './states.js';

const ofTheEvent = (type: string, column: string, description: string): ToOneSpec => ({
  kind: 'toOne',
  type,
  column,
  within: 'event',
  description: `${description}; must belong to the session's event`,
});

/** Moving into `submitted` stamps submitted-at unless the request sets it. */
function stampSubmission(values: Record<string, unknown>, previous?: unknown) {
  if (values.state === 'submitted' && previous !== 'submitted' && values.submittedAt === undefined) values.submittedAt = new Date();
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
    state: {
      column: 'state',
      schema: Type.Union(
        SESSION_STATES.map((s) => Type.Literal(s)),
        { default: 'draft', description: 'moves follow the transition table in the description of the session resource' },
      ),
    },
    'submitted-at': { column: 'submittedAt', schema: Nullable(DateTime({ description: 'set on the move to submitted' })) },
    'created-at': createdAt,
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
    creator: { kind: 'toOne', type: 'user', column: 'creatorId', readOnly: true, description: 'the user who created the session' },
    ...sessionSocialRelationships,
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

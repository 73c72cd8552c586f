import { Type } from '@sinclair/typebox';
import { speakers, speakersSessions } from '../../../db/schema/index.js';
import { withImageVariants } from '../../images/variants.js';
import { Email, INT4_MAX, Nullable, defineResource } from '../../jsonapi/index.js';
import { createdAt, deletedAt, derivedUrl, eventOf, optionalText, optionalUrl, requiredText } from '../attributes.js';
import { complexFieldValues, speakerPositions } from '../form-values.js';
import { speakerPolicy, submitterIsUser } from './policy.js';
import { speakerActivity } from '../activity-lines.js';

const PRIVATE_NOTE = "shown only to the speaker's user, the event's organizers and coorganizers, and administrators";

export const speakerResource = defineResource({
  type: 'speaker',
  path: 'speakers',
  name: 'Speaker',
  tag: 'Speakers',
  description: `A speaker of an event, optionally linked to a user account. Email and mobile are ${PRIVATE_NOTE}.`,
  table: speakers,
  activity: speakerActivity,
  softDelete: 'deletedAt',
  attributes: {
    name: requiredText('name', 255),
    email: {
      column: 'email',
      schema: Nullable(Email({ description: `one speaker per address in an event; ${PRIVATE_NOTE}` })),
      private: true,
      write: (v) => ({ email: v === null ? null : (v as string).trim() }),
    },
    mobile: { ...optionalText('mobile', 64, PRIVATE_NOTE), private: true },
    'photo-url': optionalUrl('photoUrl'),
    'thumbnail-image-url': derivedUrl('thumbnailImageUrl', 'thumbnail of the photo'),
    'small-image-url': derivedUrl('smallImageUrl', 'small photo'),
    'icon-image-url': derivedUrl('iconImageUrl', 'photo icon'),
    'short-biography': optionalText('shortBiography', 10_000),
    'long-biography': optionalText('longBiography', 100_000),
    'speaking-experience': optionalText('speakingExperience', 10_000),
    website: optionalUrl('website'),
    twitter: optionalUrl('twitter'),
    facebook: optionalUrl('facebook'),
    github: optionalUrl('github'),
    linkedin: optionalUrl('linkedin'),
    instagram: optionalUrl('instagram'),
    mastodon: optionalUrl('mastodon'),
    organisation: optionalText('organisation', 255),
    'is-featured': { column: 'isFeatured', schema: Type.Boolean({ description: 'default false' }) },
    position: optionalText('position', 255, 'job title'),
    country: optionalText('country', 255),
    city: optionalText('city', 255),
    gender: optionalText('gender', 32),
    'heard-from': optionalText('heardFrom', 255),
    'sponsorship-required': optionalText('sponsorshipRequired', 100_000),
    location: optionalText('location', 255, 'where the speaker lives or comes from'),
    order: {
      column: 'order',
      schema: Type.Integer({
        minimum: 0,
        maximum: INT4_MAX,
        description: 'display order on the speakers page (default 0); set by organizers',
      }),
      input: Nullable(Type.Integer({ minimum: 0, maximum: INT4_MAX, description: 'display order; null means 0' })),
      write: (value) => ({ order: value ?? 0 }),
    },
    'is-email-overridden': {
      column: 'isEmailOverridden',
      schema: Type.Boolean({
        description: 'default false; organizers only: the speaker is not mailed about their sessions',
      }),
    },
    'complex-field-values': complexFieldValues('complexFieldValues'),
    'speaker-positions': speakerPositions,
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    user: { kind: 'toOne', type: 'user', column: 'userId', description: 'the account of the speaker, if any' },
    sessions: {
      kind: 'toMany',
      type: 'session',
      through: { table: speakersSessions, from: 'speakerId', to: 'sessionId' },
      within: 'event',
      description: "the speaker's sessions, all of the speaker's event",
    },
  },
  policy: speakerPolicy,
  hooks: withImageVariants('speaker', { beforeCreate: submitterIsUser }),
  unique: {
    speakers_event_email_key: {
      pointer: '/data/attributes/email',
      detail: 'The event already has a speaker with this email',
    },
  },
});

import { Type } from '@sinclair/typebox';
import { attendees } from '../../../db/schema/index.js';
import { DateTime, Email, Nullable, defineResource, type AttributeSpec } from '../../jsonapi/index.js';
import { createdAt, deletedAt, eventOf, flexibleBoolean, optionalInteger, optionalText } from '../attributes.js';
import { attendeePolicy } from './policy.js';

const text = (column: string, max = 255, description?: string) => optionalText(column, max, description);
const flag = (column: string, description: string) => flexibleBoolean(column, description);

/** Wire names as ember-data writes the attendee model's attributes (app/models/attendee.js), dasherized. */
const details: Record<string, AttributeSpec> = {
  firstname: text('firstname'),
  lastname: text('lastname'),
  email: {
    column: 'email',
    schema: Nullable(Email({ description: "the ticket holder's address" })),
    write: (v) => ({ email: v === null ? null : (v as string).trim() }),
  },
  city: text('city'),
  state: text('state'),
  country: text('country'),
  address: text('address', 1024),
  'job-title': text('jobTitle'),
  phone: text('phone', 64),
  company: text('company'),
  'tax-business-info': text('taxBusinessInfo', 1024),
  'billing-address': text('billingAddress', 1024),
  'home-address': text('homeAddress', 1024),
  'shipping-address': text('shippingAddress', 1024),
  'work-address': text('workAddress', 1024),
  'work-phone': text('workPhone', 64),
  website: text('website', 2048),
  blog: text('blog', 2048),
  twitter: text('twitter', 2048),
  facebook: text('facebook', 2048),
  github: text('github', 2048),
  instagram: text('instagram', 2048),
  linkedin: text('linkedin', 2048),
  gender: text('gender'),
  'age-group': text('ageGroup'),
  'birth-date': { column: 'birthDate', schema: Nullable(DateTime()) },
  'native-language': text('nativeLanguage'),
  'fluent-language': text('fluentLanguage'),
  'home-wiki': text('homeWiki'),
  'wiki-scholarship': text('wikiScholarship'),
  'tag-id': optionalInteger('tagId', 'a tag of the ticket holder'),
  'complex-field-values': {
    column: 'complexFieldValues',
    schema: Nullable(
      Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), {
        maxProperties: 200,
        description: 'answers to custom form fields',
      }),
    ),
  },
  'same-as-buyer': flag('sameAsBuyer', 'whether the holder is the buyer (default false)'),
  'accept-receive-emails': flag('acceptReceiveEmails', 'consent to e-mails'),
  'accept-video-recording': flag('acceptVideoRecording', 'consent to being recorded'),
  'accept-share-details': flag('acceptShareDetails', 'consent to sharing details'),
  'is-consent-of-refund-policy': flag('isConsentOfRefundPolicy', 'accepted the refund policy'),
  'is-consent-form-field': flag('isConsentFormField', 'consent form answer'),
  'is-consent-form-field-photo': flag('isConsentFormFieldPhoto', 'consent to photos'),
  'is-consent-form-field-email': flag('isConsentFormFieldEmail', 'consent to e-mails'),
};

export const attendeeResource = defineResource({
  type: 'attendee',
  path: 'attendees',
  name: 'Attendee',
  tag: 'Attendees',
  description:
    "A ticket holder: one ticket of an order. Private: the event's organizers and coorganizers see the event's, " +
    'the buyer those of their orders, a holder linked to a user that user, administrators all. Organizers write ' +
    'them; the buyer adds and edits holders of an open (initializing or pending) order of theirs; check-in ' +
    'members are for organizers only. The ticket and the order must belong to the event.',
  table: attendees,
  softDelete: 'deletedAt',
  attributes: {
    ...details,
    'is-checked-in': flag('isCheckedIn', 'checked in at the event; set by organizers'),
    'checkin-times': text('checkinTimes', 10_000, 'check-in times, comma-separated; set by organizers'),
    'checkout-times': text('checkoutTimes', 10_000, 'check-out times, comma-separated; set by organizers'),
    'is-registered': flag('isRegistered', 'registered at the event (a badge handed out); set by organizers'),
    'register-times': text('registerTimes', 10_000, 'registration times, comma-separated; set by organizers'),
    'pdf-url': {
      column: 'pdfUrl',
      schema: Nullable(Type.String({ description: 'the ticket as PDF, when generated' })),
      readOnly: true,
    },
    'created-at': createdAt,
    'deleted-at': deletedAt,
  },
  relationships: {
    event: eventOf,
    order: {
      kind: 'toOne',
      type: 'order',
      column: 'orderId',
      within: 'event',
      description: 'the order the ticket belongs to',
    },
    ticket: {
      kind: 'toOne',
      type: 'ticket',
      column: 'ticketId',
      within: 'event',
      description: 'the kind of ticket held',
    },
    user: { kind: 'toOne', type: 'user', column: 'userId', description: "the holder's user account, if any" },
  },
  policy: attendeePolicy,
});

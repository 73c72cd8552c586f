import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { attendees } from '../../../db/schema/index.js';
import { DateTime, Email, Nullable, Url, conflict, defineResource, type AttributeSpec } from '../../jsonapi/index.js';
import { createdAt, deletedAt, eventOf, flexibleBoolean, optionalInteger, optionalText } from '../attributes.js';
import { holderPdfUrl } from '../orders/documents/urls.js';
import { isOpenOrder, recomputeOrder, takeTicket } from '../orders/holders.js';
import { attendeePolicy } from './policy.js';
import { checkTag } from './tag.js';

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
    "A ticket holder: one ticket of an order. Private: the event's organizers, coorganizers and registrars see the " +
    "event's, the buyer those of their orders, a holder linked to a user that user, administrators all. Organizers " +
    'write them; registrars change only the check-in members (is-checked-in, checkin-times, is-checked-out, ' +
    'checkout-times, device-name-checkin, is-registered, register-times, is-badge-printed, badge-printed-at: 403 ' +
    'naming any other member they would change); the buyer adds and edits holders of an open (initializing or ' +
    'pending) order of theirs, without check-in members. The ticket and the order must belong to the event.',
  table: attendees,
  softDelete: 'deletedAt',
  attributes: {
    ...details,
    'is-checked-in': flag('isCheckedIn', 'checked in at the event; set by organizers'),
    'checkin-times': text('checkinTimes', 10_000, 'check-in times, comma-separated; set by organizers'),
    'checkout-times': text('checkoutTimes', 10_000, 'check-out times, comma-separated; set by organizers'),
    'is-registered': flag('isRegistered', 'registered at the event (a badge handed out); set by organizers'),
    'register-times': text('registerTimes', 10_000, 'registration times, comma-separated; set by organizers'),
    'is-checked-out': flag('isCheckedOut', 'checked out of the event; set by organizers'),
    'device-name-checkin': text('deviceNameCheckin', 255, 'the device that checked the holder in; set by organizers'),
    'attendee-notes': text(
      'attendeeNotes',
      10_000,
      "the organizers' notes on the holder, comma-separated; set by organizers",
    ),
    'is-badge-printed': flag('isBadgePrinted', "the holder's badge was printed; set by organizers"),
    'badge-printed-at': {
      column: 'badgePrintedAt',
      schema: Nullable(DateTime({ description: 'when the badge was printed; set by organizers' })),
    },
    identifier: {
      column: 'identifier',
      schema: Type.String({ description: "the ticket's own identifier, which its QR code names; set by the server" }),
      readOnly: true,
    },
    'ticket-id': {
      select: (t) => sql`${t.ticketId}::text`,
      schema: Nullable(Type.String({ description: "the id of the ticket held, as text (the reference's member)" })),
      readOnly: true,
    },
    'is-discount-applied': {
      column: 'isDiscountApplied',
      schema: Type.Boolean({ description: 'a discount code lowered this ticket; set by the server' }),
      readOnly: true,
    },
    'is-access-code-applied': {
      column: 'isAccessCodeApplied',
      schema: Type.Boolean({ description: 'an access code showed this ticket; set by the server' }),
      readOnly: true,
    },
    'pdf-url': {
      select: holderPdfUrl,
      schema: Nullable(
        Url({
          description:
            'where the ticket is downloaded as PDF (GET /v1/orders/attendees/{id}.pdf) once its order is placed or ' +
            'completed; null before',
        }),
      ),
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
    tag: {
      kind: 'toOne',
      type: 'tag',
      column: 'tagId',
      within: 'event',
      description: "the event's tag on the holder (the same as tag-id); set by organizers",
    },
  },
  policy: attendeePolicy,
  hooks: {
    async beforeCreate(ctx, values) {
      await checkTag(ctx, values.eventId, values);
      // A holder of an order takes a ticket: none is sold beyond its quantity, and it costs what the ticket costs now.
      if (values.orderId != null && values.ticketId != null)
        values.price = await takeTicket(ctx.db, values.ticketId as number);
    },
    async afterCreate(ctx, row) {
      if (row.orderId != null) await recomputeOrder(ctx.db, row.orderId as number);
    },
    async beforeUpdate(ctx, row, values) {
      await checkTag(ctx, row.eventId, values);
      const moves = values.ticketId !== undefined && values.ticketId !== row.ticketId;
      if (moves && row.orderId != null && (await isOpenOrder(ctx.db, row.orderId as number)))
        throw conflict(
          'The order is open: its holders keep the tickets it was priced with (cancel it and order again)',
          '/data/relationships/ticket',
        );
    },
    async beforeDelete(ctx, row) {
      if (row.orderId != null) await recomputeOrder(ctx.db, row.orderId as number, row.id as number);
    },
  },
});

/**
 * The event's settings the Open Event front end edits in its wizard and dashboard (open-event-frontend
 * app/models/event.js:29-110): payment options, feature flags, owner details, documents. Meanings and
 * rules from the reference (open-event-server app/api/schema/events.py, app/api/events.py).
 */
import { Type } from '@sinclair/typebox';
import {
  DateTime,
  Email,
  Nullable,
  Text,
  Url,
  forbidden,
  unprocessable,
  type AttributeSpec,
  type Row,
  type WriteInput,
} from '../../jsonapi/index.js';
import { isStaff, type Caller } from '../../auth/caller.js';
import { flexibleBoolean, optionalText, optionalUrl } from '../attributes.js';

const flag = (column: string, description: string, value = false): AttributeSpec =>
  flexibleBoolean(column, description, value);

/** Flags only administrators set (the home page's featured and promoted lists); others may send the stored value back. */
export const ADMIN_FLAGS = {
  'is-featured': 'isFeatured',
  'is-promoted': 'isPromoted',
  'is-demoted': 'isDemoted',
} as const;

const DocumentLink = Type.Object(
  {
    name: Text(255),
    link: Type.Union([Url(), Type.Literal('')], {
      description: 'an http(s) URL; empty while the organizer fills the form in',
    }),
  },
  { additionalProperties: false },
);

export const eventOptions: Record<string, AttributeSpec> = {
  'after-order-message': optionalText('afterOrderMessage', 100_000, 'shown to buyers after an order'),
  'searchable-location-name': optionalText('searchableLocationName', 255, 'the place name searches match (the city)'),
  'public-stream-link': optionalUrl('publicStreamLink', 'a live stream shown on the public page'),
  'stream-loop': flag('streamLoop', 'the public stream loops'),
  'stream-autoplay': flag('streamAutoplay', 'the public stream starts by itself'),
  online: flag('online', 'an online event (with or without a place)'),
  'is-map-shown': flag('isMapShown', 'the public page shows a map of the place', true),
  'is-oneclick-signup-enabled': flag('isOneclickSignupEnabled', 'buyers sign up with one click'),
  'is-sponsors-enabled': flag('isSponsorsEnabled', 'the public page shows the sponsors'),
  'is-ticket-form-enabled': flag('isTicketFormEnabled', 'ticket holders fill in the attendee form'),
  'is-badges-enabled': flag('isBadgesEnabled', 'badges are printed for attendees'),
  'is-cfs-enabled': flag('isCfsEnabled', 'the call for speakers is shown'),
  'is-videoroom-enabled': flag('isVideoroomEnabled', 'the event has a video room'),
  'is-sessions-speakers-enabled': flag(
    'isSessionsSpeakersEnabled',
    'the event has sessions and speakers (its call for speakers is listed on the home page)',
  ),
  'is-featured': flag('isFeatured', 'listed among the featured events; set by administrators'),
  'is-promoted': flag('isPromoted', 'listed first on the home page; set by administrators'),
  'is-demoted': flag('isDemoted', 'left out of the home page lists; set by administrators'),
  'is-chat-enabled': flag('isChatEnabled', 'the event has a chat'),
  'is-billing-info-mandatory': flag('isBillingInfoMandatory', 'buyers must give billing details'),
  'is-document-enabled': flag(
    'isDocumentEnabled',
    'ticket holders receive the document links; each then needs a name and a link',
  ),
  'document-links': {
    column: 'documentLinks',
    schema: Nullable(
      Type.Array(DocumentLink, { maxItems: 50, description: 'documents for ticket holders: [{name, link}]' }),
    ),
  },
  'is-announced': flag('isAnnounced', 'announced to the followers of its group'),
  'is-tax-enabled': flag('isTaxEnabled', "ticket prices carry the event's tax"),
  'can-pay-by-paypal': flag('canPayByPaypal', 'buyers may pay with PayPal'),
  'can-pay-by-paytm': flag('canPayByPaytm', 'buyers may pay with Paytm'),
  'can-pay-by-stripe': flag('canPayByStripe', 'buyers may pay with Stripe'),
  'is-stripe-linked': {
    column: 'isStripeLinked',
    schema: Type.Boolean({ description: 'a Stripe account is connected; set by the server', default: false }),
    readOnly: true,
  },
  'can-pay-by-cheque': flag('canPayByCheque', 'buyers may pay by cheque'),
  'can-pay-by-invoice': flag('canPayByInvoice', 'buyers may pay against an invoice'),
  'can-pay-by-bank': flag('canPayByBank', 'buyers may pay by bank transfer'),
  'can-pay-by-omise': flag('canPayByOmise', 'buyers may pay with Omise'),
  'can-pay-by-alipay': flag('canPayByAlipay', 'buyers may pay with Alipay'),
  'can-pay-onsite': flag('canPayOnsite', 'buyers may pay on site'),
  'payment-country': optionalText('paymentCountry', 255, 'the country payments are made in, by name'),
  'payment-currency': {
    column: 'paymentCurrency',
    schema: Nullable(
      Type.String({
        pattern: '^[A-Z]{3}$',
        maxLength: 3,
        default: 'USD',
        description: "ISO 4217 code of the ticket prices' currency",
      }),
    ),
  },
  'paypal-email': {
    column: 'paypalEmail',
    schema: Nullable(Email({ description: 'the PayPal account payments go to; an empty string clears it' })),
    input: Type.Union([Email(), Type.Literal(''), Type.Null()]),
    write: (v) => ({ paypalEmail: typeof v === 'string' && v.trim() !== '' ? v.trim() : null }),
  },
  'cheque-details': optionalText('chequeDetails', 10_000, 'how to pay by cheque'),
  'invoice-details': optionalText('invoiceDetails', 10_000, 'how to pay against an invoice'),
  'bank-details': optionalText('bankDetails', 10_000, 'how to pay by bank transfer'),
  'onsite-details': optionalText('onsiteDetails', 10_000, 'how to pay on site'),
  'refund-policy': optionalText('refundPolicy', 10_000, 'the refund policy shown to buyers'),
  'schedule-published-on': {
    column: 'schedulePublishedOn',
    schema: Nullable(
      DateTime({ description: 'when the schedule was published; null or 1970-01-01T00:00:00Z means not published' }),
    ),
  },
  'has-owner-info': flag('hasOwnerInfo', "the public page shows the owner's name and description"),
  'owner-name': optionalText('ownerName', 255, 'the organizing body as the public page names it'),
  'owner-description': optionalText('ownerDescription', 100_000, 'about the organizing body'),
  'chat-room-name': {
    column: 'chatRoomName',
    schema: Nullable(Text(255, { description: "the event's chat room; set by the server" })),
    readOnly: true,
  },
};

/**
 * Only administrators change the admin flags (the reference lets any coorganizer feature their own
 * event); the front end sends every attribute on every save, so the stored value (false on create) passes.
 */
export function guardAdminFlags(caller: Caller | null, input: WriteInput, row?: Row) {
  if (isStaff(caller)) return;
  for (const [wire, key] of Object.entries(ADMIN_FLAGS)) {
    const sent = input.attributes[wire];
    const wanted = sent === 'true' || sent === 'false' ? sent === 'true' : sent;
    if (wanted === undefined || wanted === (row ? row[key] : false)) continue;
    throw forbidden(`Only administrators may change ${wire}`, `/data/attributes/${wire}`);
  }
}

/** With documents enabled, every document link needs a name and a link (the reference's rule). */
export function checkDocumentLinks(values: Record<string, unknown>, row?: Row) {
  const enabled = (values.isDocumentEnabled ?? row?.isDocumentEnabled) === true;
  const links = (values.documentLinks !== undefined ? values.documentLinks : row?.documentLinks) as
    | { name: string; link: string }[]
    | null
    | undefined;
  if (!enabled || !links) return;
  const at = links.findIndex((d) => d.name.trim() === '' || d.link === '');
  if (at >= 0)
    throw unprocessable(
      'Enter required fields link and name of every document',
      `/data/attributes/document-links/${at}`,
    );
}

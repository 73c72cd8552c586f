/**
 * Bodies of the ticket-related models as ember-data serialises them (open-event-frontend at e6f8b09a):
 * every non-readOnly attribute, defaults as values, unset ones as null (strings, numbers, moments) or
 * false (booleans); belongsTo as linkage when set.
 */
const day = (offsetDays: number) => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString();
};

/** app/models/ticket.js:11-29 with its defaultValues (sales from today for 10 days, orders 1..10, fee absorbed). */
export const ticketAttributes = (over: Record<string, unknown> = {}) => ({
  name: 'Standard',
  type: 'free',
  price: null,
  quantity: 100,
  description: null,
  'is-description-visible': true,
  'is-hidden': false,
  'sales-starts-at': day(0),
  'sales-ends-at': day(10),
  'min-order': 1,
  'max-order': 10,
  'min-price': 1,
  'max-price': null,
  'is-fee-absorbed': true,
  position: null,
  'form-id': '',
  'badge-id': '',
  ...over,
});

/** app/models/tax.js:6-21 (isInvoiceSent, isTaxIncludedInPrice default false). */
export const taxAttributes = (over: Record<string, unknown> = {}) => ({
  name: 'VAT',
  'tax-id': null,
  rate: 19,
  'should-send-invoice': false,
  country: null,
  'registered-company': null,
  'contact-name': null,
  email: null,
  phone: null,
  address: null,
  city: null,
  state: null,
  zip: null,
  'invoice-footer': null,
  'is-invoice-sent': false,
  'is-tax-included-in-price': false,
  ...over,
});

/** app/models/speakers-call.js:12-17 (starts 3 days ago, ends 2 days ago, soft end null, public, a uuid hash). */
export const speakersCallAttributes = (over: Record<string, unknown> = {}) => ({
  announcement: null,
  'starts-at': day(-3),
  'soft-ends-at': null,
  'ends-at': day(-2),
  privacy: 'public',
  hash: '0b5b7f3e-8c1a-4a8e-9d43-1f1f4f6e2a11',
  ...over,
});

/** app/models/attendee.js:10-57 with its defaultValues (consents true, the rest false or null). */
export const attendeeAttributes = (over: Record<string, unknown> = {}) => ({
  'same-as-buyer': false,
  city: null,
  firstname: null,
  lastname: null,
  'is-checked-in': false,
  'checkin-times': null,
  'checkout-times': null,
  state: null,
  address: null,
  'pdf-url': null,
  country: null,
  email: null,
  'job-title': null,
  phone: null,
  company: null,
  'tax-business-info': null,
  'billing-address': null,
  'home-address': null,
  'shipping-address': null,
  'work-address': null,
  'work-phone': null,
  website: null,
  blog: null,
  twitter: null,
  facebook: null,
  github: null,
  instagram: null,
  linkedin: null,
  gender: null,
  'age-group': null,
  'accept-receive-emails': true,
  'accept-video-recording': true,
  'accept-share-details': true,
  'birth-date': null,
  'complex-field-values': {},
  'is-consent-of-refund-policy': false,
  'native-language': null,
  'fluent-language': null,
  'home-wiki': null,
  'is-consent-form-field': false,
  'is-consent-form-field-photo': false,
  'is-consent-form-field-email': false,
  'wiki-scholarship': null,
  'tag-id': null,
  ...over,
});

export const linkage = (type: string, id: string | null) => ({ data: id === null ? null : { type, id } });

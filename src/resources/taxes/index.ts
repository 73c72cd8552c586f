import { Type } from '@sinclair/typebox';
import { taxes } from '../../../db/schema/index.js';
import { Nullable, defineResource, type AttributeSpec } from '../../jsonapi/index.js';
import { deletedAt, eventOf, flexibleBoolean, flexibleNumber, optionalText } from '../attributes.js';
import { inManagedEvent } from '../events/access.js';
import { eventRecordPolicy } from '../events/record-policy.js';

const ORGANIZERS = "shown only to the event's organizers, coorganizers and administrators";

/** Invoicing details: what the reference's TaxSchema adds to TaxSchemaPublic. */
const hidden = (spec: AttributeSpec): AttributeSpec => ({ ...spec, private: true });

export const taxResource = defineResource({
  type: 'tax',
  path: 'taxes',
  aliases: ['tax'],
  name: 'Tax',
  tag: 'Taxes',
  description:
    'The tax on the tickets of an event: at most one per event (a second one is 409). Name, rate and ' +
    `is-tax-included-in-price are public where the event is; the invoicing details are ${ORGANIZERS}. ` +
    "Written by the event's organizers and coorganizers.",
  table: taxes,
  softDelete: 'deletedAt',
  attributes: {
    name: optionalText('name', 255, 'e.g. VAT'),
    rate: flexibleNumber({
      column: 'rate',
      schema: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'percent, 0 to 100' })),
    }),
    'is-tax-included-in-price': flexibleBoolean(
      'isTaxIncludedInPrice',
      'whether ticket prices include the tax (default false)',
    ),
    'tax-id': hidden(optionalText('taxId', 255, ORGANIZERS)),
    country: hidden(optionalText('country', 255, ORGANIZERS)),
    'registered-company': hidden(optionalText('registeredCompany', 255, ORGANIZERS)),
    'contact-name': hidden(optionalText('contactName', 255, ORGANIZERS)),
    email: hidden(optionalText('email', 255, ORGANIZERS)),
    phone: hidden(optionalText('phone', 64, ORGANIZERS)),
    address: hidden(optionalText('address', 1024, ORGANIZERS)),
    city: hidden(optionalText('city', 255, ORGANIZERS)),
    state: hidden(optionalText('state', 255, ORGANIZERS)),
    zip: hidden(optionalText('zip', 32, ORGANIZERS)),
    'invoice-footer': hidden(optionalText('invoiceFooter', 10_000, ORGANIZERS)),
    'should-send-invoice': hidden(
      flexibleBoolean('shouldSendInvoice', `whether buyers receive invoices; ${ORGANIZERS}`),
    ),
    'is-invoice-sent': hidden(flexibleBoolean('isInvoiceSent', ORGANIZERS)),
    'deleted-at': deletedAt,
  },
  relationships: { event: eventOf },
  policy: { ...eventRecordPolicy(), seesPrivate: (ctx, t) => inManagedEvent(ctx.caller, t.eventId!) },
  unique: { taxes_event_id_key: { pointer: '/data/relationships/event', detail: 'The event already has a tax' } },
});

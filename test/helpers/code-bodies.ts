/**
 * Discount and access code documents as the front end's create and edit pages send them (open-event-frontend at
 * e6f8b09a): every attribute of app/models/discount-code.js and access-code.js that is not readOnly, with the values
 * the create routes set (app/routes/events/view/tickets/discount-codes/create.js: used-for ticket, min and max
 * quantity 1, valid-till the event's end; access-codes/create.js: min and max 1, a week of validity), moments as
 * ISO strings, unset values as null; belongsTo (event, marketer) and the many-to-none tickets as linkage.
 */
const startOfDay = (offsetDays = 0) => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString();
};

const linkage = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ type, id })) });

/** What the create and edit pages send of a code: its event, marketer and tickets; attributes over the defaults. */
export interface CodeInput {
  event: string;
  marketer: string;
  tickets: string[];
  attributes?: Record<string, unknown>;
  id?: string;
}

/** A code's document: the create route's `defaults` with `o.attributes` over them, and its linkage. */
const codeDocument = (type: string, defaults: Record<string, unknown>, o: CodeInput) => ({
  data: {
    ...(o.id ? { id: o.id } : {}),
    type,
    attributes: { ...defaults, ...o.attributes },
    relationships: {
      event: { data: { type: 'event', id: o.event } },
      marketer: { data: { type: 'user', id: o.marketer } },
      tickets: linkage('ticket', o.tickets),
    },
  },
});

export const discountCodeDocument = (o: CodeInput) =>
  codeDocument(
    'discount-code',
    {
      code: 'EARLY_BIRD',
      type: 'amount',
      value: 5,
      'tickets-number': 10,
      'min-quantity': 1,
      'max-quantity': 1,
      'valid-from': startOfDay(0),
      'discount-url': 'https://eventyay.example.org/e/abcdef?code=EARLY_BIRD',
      'valid-till': startOfDay(30),
      'used-for': 'ticket',
      'is-active': true,
      'created-at': null,
    },
    o,
  );

export const accessCodeDocument = (o: CodeInput) =>
  codeDocument(
    'access-code',
    {
      code: 'CREW',
      'access-url': 'https://eventyay.example.org/e/abcdef?code=CREW',
      'is-active': true,
      'tickets-number': 10,
      'min-quantity': 1,
      'max-quantity': 1,
      'valid-from': startOfDay(0),
      'valid-till': startOfDay(7),
    },
    o,
  );

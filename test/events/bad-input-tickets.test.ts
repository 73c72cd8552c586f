/**
 * Bad input to tickets, taxes, speakers calls, ticket holders and stripe authorizations: wrong types,
 * over-long values, unknown members, and the ticket and call rules (the spec's error table: "max-order
 * should be greater than min-order" at /data/attributes/max-order), checked on create and on update
 * against the stored values. The event's owner sends every request, so only validation decides; each
 * answer is a 4xx error document at the expected pointer and no table changes.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  create,
  createCast,
  createEvent,
  expectRefused,
  rel,
  snapshotOf,
  type RefusedCase,
} from '../helpers/events.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Rules Conf', 'published');
const token = cast.owner.token;
const of = { event: rel('event', event.id) };
const at = (name: string) => `/data/attributes/${name}`;
const sales = { 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' };
const ticket = await create(
  app,
  token,
  'tickets',
  'ticket',
  { name: 'Standard', quantity: 10, 'min-order': 2, 'max-order': 5, ...sales },
  of,
);
const donation = await create(
  app,
  token,
  'tickets',
  'ticket',
  { name: 'Give', type: 'donation', 'min-price': 5, 'max-price': 50, ...sales },
  of,
);
const tax = await create(app, token, 'taxes', 'tax', { name: 'VAT', rate: 19 }, of);
const speakersCall = await create(
  app,
  token,
  'speakers-calls',
  'speakers-call',
  { 'starts-at': '2030-01-01T00:00:00Z', 'ends-at': '2030-03-01T00:00:00Z' },
  of,
);
const order = await create(app, token, 'orders', 'order', { amount: 0 }, of);
const attendee = await create(
  app,
  token,
  'attendees',
  'attendee',
  { firstname: 'Ada' },
  { ...of, order: rel('order', order), ticket: rel('ticket', ticket) },
);
const other = await createEvent(app, cast, 'Other Conf', 'published');
const otherTicket = await create(
  app,
  token,
  'tickets',
  'ticket',
  { name: 'Elsewhere', ...sales },
  { event: rel('event', other.id) },
);

const snapshot = snapshotOf(app, ['tickets', 'taxes', 'speakers_calls', 'attendees', 'stripe_authorizations']);
const before = await snapshot();

type Body =
  | { method: 'POST' | 'PATCH'; path: string; type: string; id?: string; attributes?: unknown; relationships?: unknown }
  | string;
const send = (b: Body) =>
  typeof b === 'string'
    ? call(app, { method: 'POST', url: '/v1/tickets', token, body: b })
    : call(app, {
        method: b.method,
        url: b.id ? `/v1/${b.path}/${b.id}` : `/v1/${b.path}`,
        token,
        body: {
          data: {
            type: b.type,
            ...(b.id ? { id: b.id } : {}),
            ...(b.attributes !== undefined ? { attributes: b.attributes } : {}),
            relationships: b.relationships ?? (b.id ? undefined : of),
          },
        },
      });
const newTicket = (attributes: Record<string, unknown>): Body => ({
  method: 'POST',
  path: 'tickets',
  type: 'ticket',
  attributes: { name: 'New', ...sales, ...attributes },
});
const patchTicket = (attributes: Record<string, unknown>, id = ticket): Body => ({
  method: 'PATCH',
  path: 'tickets',
  type: 'ticket',
  id,
  attributes,
});

const TICKETS: RefusedCase<Body>[] = [
  ['max-order below min-order', newTicket({ 'min-order': 5, 'max-order': 2, quantity: 10 }), 422, at('max-order')],
  ['max-order below the stored min-order (update)', patchTicket({ 'max-order': 1 }), 422, at('max-order')],
  ['min-order above the stored max-order (update)', patchTicket({ 'min-order': 6 }), 422, at('max-order')],
  ['quantity 0', newTicket({ quantity: 0 }), 422, at('quantity')],
  ['quantity below max-order', newTicket({ quantity: 3, 'max-order': 10 }), 422, at('quantity')],
  ['quantity below the stored max-order (update)', patchTicket({ quantity: 4 }), 422, at('quantity')],
  ['quantity below min-order', newTicket({ quantity: 1, 'min-order': 2, 'max-order': null }), 422, at('quantity')],
  ['a paid ticket without a price', newTicket({ type: 'paid', price: null }), 422, at('price')],
  ['a paid ticket priced 0', newTicket({ type: 'paid', price: 0 }), 422, at('price')],
  ['made paid without a stored price (update)', patchTicket({ type: 'paid' }), 422, at('price')],
  [
    'donation min-price above max-price',
    newTicket({ type: 'donation', 'min-price': 10, 'max-price': 5 }),
    422,
    at('min-price'),
  ],
  [
    'donation min-price above the stored max-price (update)',
    patchTicket({ 'min-price': 60 }, donation),
    422,
    at('min-price'),
  ],
  ['sales ending before they start', newTicket({ 'sales-ends-at': '2029-12-31T00:00:00Z' }), 422, at('sales-ends-at')],
  [
    'sales ending before the stored start (update)',
    patchTicket({ 'sales-ends-at': '2029-06-01T00:00:00Z' }),
    422,
    at('sales-ends-at'),
  ],
  ['an unknown type', newTicket({ type: 'vip' }), 422, at('type')],
  ['price as a string', newTicket({ price: '10' }), 422, at('price')],
  ['a negative price', newTicket({ price: -1 }), 422, at('price')],
  ['a fractional quantity', newTicket({ quantity: 1.5 }), 422, at('quantity')],
  ['a negative min-order', newTicket({ 'min-order': -1 }), 422, at('min-order')],
  ['quantity beyond int4', newTicket({ quantity: 2 ** 31 }), 422, at('quantity')],
  ['a name over 255 characters', newTicket({ name: 'n'.repeat(256) }), 422, at('name')],
  ['an empty name', newTicket({ name: '' }), 422, at('name')],
  [
    'no sales-starts-at',
    {
      method: 'POST',
      path: 'tickets',
      type: 'ticket',
      attributes: { name: 'x', 'sales-ends-at': sales['sales-ends-at'] },
    },
    422,
    at('sales-starts-at'),
  ],
  ['sales-starts-at not a date', newTicket({ 'sales-starts-at': 'tomorrow' }), 422, at('sales-starts-at')],
  ['is-hidden as a number', newTicket({ 'is-hidden': 1 }), 422, at('is-hidden')],
  ['an unknown attribute', newTicket({ 'is-vip': true }), 422, at('is-vip')],
  ['a NUL in the description', newTicket({ description: 'a\u0000b' }), 422, at('description')],
  [
    'orders named on create',
    {
      ...(newTicket({}) as object),
      relationships: { ...of, orders: { data: [{ type: 'order', id: order }] } },
    } as Body,
    422,
    '/data/relationships/orders',
  ],
  ['malformed JSON', '{"data": {', 400],
];

const other_ = { event: rel('event', other.id) };
const OTHERS: RefusedCase<Body>[] = [
  [
    'a second tax for the event',
    { method: 'POST', path: 'taxes', type: 'tax', attributes: { name: 'GST' } },
    409,
    '/data/relationships/event',
  ],
  [
    'a tax rate above 100',
    { method: 'POST', path: 'taxes', type: 'tax', attributes: { rate: 101 }, relationships: other_ },
    422,
    at('rate'),
  ],
  [
    'a negative tax rate (update)',
    { method: 'PATCH', path: 'taxes', type: 'tax', id: tax, attributes: { rate: -1 } },
    422,
    at('rate'),
  ],
  [
    'a tax email over 255 characters',
    { method: 'PATCH', path: 'taxes', type: 'tax', id: tax, attributes: { email: `${'e'.repeat(250)}@example.org` } },
    422,
    at('email'),
  ],
  [
    'a tax rate as a string that is not a number',
    { method: 'PATCH', path: 'taxes', type: 'tax', id: tax, attributes: { rate: '19 %' } },
    422,
    at('rate'),
  ],
  [
    'an unknown tax attribute',
    { method: 'PATCH', path: 'taxes', type: 'tax', id: tax, attributes: { percent: 19 } },
    422,
    at('percent'),
  ],
  [
    'a second call for speakers',
    {
      method: 'POST',
      path: 'speakers-calls',
      type: 'speakers-call',
      attributes: { 'starts-at': '2030-01-01T00:00:00Z', 'ends-at': '2030-02-01T00:00:00Z' },
    },
    409,
    '/data/relationships/event',
  ],
  [
    'a call ending before it starts',
    {
      method: 'POST',
      path: 'speakers-calls',
      type: 'speakers-call',
      attributes: { 'starts-at': '2030-02-01T00:00:00Z', 'ends-at': '2030-01-01T00:00:00Z' },
      relationships: other_,
    },
    422,
    at('ends-at'),
  ],
  [
    'a call starting after its stored end (update)',
    {
      method: 'PATCH',
      path: 'speakers-calls',
      type: 'speakers-call',
      id: speakersCall,
      attributes: { 'starts-at': '2030-04-01T00:00:00Z' },
    },
    422,
    at('starts-at'),
  ],
  [
    'a soft end before the start',
    {
      method: 'PATCH',
      path: 'speakers-calls',
      type: 'speakers-call',
      id: speakersCall,
      attributes: { 'soft-ends-at': '2029-01-01T00:00:00Z' },
    },
    422,
    at('soft-ends-at'),
  ],
  [
    'an unknown privacy',
    {
      method: 'PATCH',
      path: 'speakers-calls',
      type: 'speakers-call',
      id: speakersCall,
      attributes: { privacy: 'secret' },
    },
    422,
    at('privacy'),
  ],
  [
    'privacy cleared',
    { method: 'PATCH', path: 'speakers-calls', type: 'speakers-call', id: speakersCall, attributes: { privacy: null } },
    422,
    at('privacy'),
  ],
  [
    'a holder with a bad email',
    { method: 'PATCH', path: 'attendees', type: 'attendee', id: attendee, attributes: { email: 'not-an-email' } },
    422,
    at('email'),
  ],
  [
    'a holder name over 255 characters',
    { method: 'PATCH', path: 'attendees', type: 'attendee', id: attendee, attributes: { firstname: 'f'.repeat(256) } },
    422,
    at('firstname'),
  ],
  [
    'complex-field-values as a string',
    { method: 'PATCH', path: 'attendees', type: 'attendee', id: attendee, attributes: { 'complex-field-values': 'x' } },
    422,
    at('complex-field-values'),
  ],
  [
    'a pdf-url set by the client',
    {
      method: 'PATCH',
      path: 'attendees',
      type: 'attendee',
      id: attendee,
      attributes: { 'pdf-url': 'https://example.org/t.pdf' },
    },
    422,
    at('pdf-url'),
  ],
  [
    'an unknown holder attribute',
    { method: 'PATCH', path: 'attendees', type: 'attendee', id: attendee, attributes: { 'seat-number': 'x' } },
    422,
    at('seat-number'),
  ],
  [
    'a ticket of another event',
    {
      method: 'POST',
      path: 'attendees',
      type: 'attendee',
      attributes: {},
      relationships: { ...of, ticket: rel('ticket', otherTicket) },
    },
    422,
    '/data/relationships/ticket',
  ],
  [
    'a holder without an event',
    {
      method: 'POST',
      path: 'attendees',
      type: 'attendee',
      attributes: {},
      relationships: { ticket: rel('ticket', ticket) },
    },
    422,
    '/data/relationships/event',
  ],
  [
    'a missing ticket',
    {
      method: 'POST',
      path: 'attendees',
      type: 'attendee',
      attributes: {},
      relationships: { ...of, ticket: rel('ticket', '999999') },
    },
    404,
  ],
  [
    'a stripe auth code over 1024 characters',
    {
      method: 'POST',
      path: 'stripe-authorizations',
      type: 'stripe-authorization',
      attributes: { 'stripe-auth-code': 'a'.repeat(1025) },
    },
    422,
    at('stripe-auth-code'),
  ],
  [
    'a stripe publishable key set by the client',
    {
      method: 'POST',
      path: 'stripe-authorizations',
      type: 'stripe-authorization',
      attributes: { 'stripe-publishable-key': 'pk_live' },
    },
    422,
    at('stripe-publishable-key'),
  ],
];

t.test('ticket rules and types', (t) => expectRefused(t, TICKETS, send, snapshot, before));
t.test('taxes, speakers calls, ticket holders, stripe authorizations', (t) =>
  expectRefused(t, OTHERS, send, snapshot, before),
);

t.test('the edges pass: max-order equal to min-order and to quantity', async (t) => {
  const res = await send(newTicket({ quantity: 3, 'min-order': 3, 'max-order': 3 }));
  t.equal(res.status, 201, JSON.stringify(res.body.errors ?? ''));
});

/**
 * Bad input to the routes issue 41 adds beside the order CRUD: `POST /v1/orders?onsite=true` (tickets sold at the
 * door, by the event's organizer) and the payment provider's `POST /v1/orders/{identifier}/charge` and
 * `/create-paypal-payment`. Each answer is a 4xx error document with the expected status and source, never a 500,
 * and no order or ticket holder is written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { sellTickets } from '../helpers/orders.js';
import { createTicket } from '../helpers/tickets.js';
import { seedUser } from '../helpers/users.js';

interface Input {
  body: unknown;
  query?: string;
  type?: string;
  path?: string;
}
type Case = RefusedCase<Input>;

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const organizer = world.cast.organizer;
const pub = world.published.event;
const paid = await createTicket(app, organizer.token, pub, {
  name: 'Door',
  type: 'paid',
  price: 20,
  quantity: 3,
  'max-order': 3,
});
const buyer = await seedUser(app);
const open = await sellTickets(app, { buyer, organizerToken: organizer.token, ticketId: paid, status: 'initializing' });
const snapshot = snapshotOf(app, ['orders', 'attendees']);
const before = await snapshot();

const door = (id: unknown, quantity: unknown) => ({ data: { type: 'on-site-ticket', attributes: { id, quantity } } });
const onsite = (attributes: Record<string, unknown>, query = 'onsite=true'): Input => ({
  query,
  body: { data: { type: 'order', attributes, relationships: { event: rel('event', pub) } } },
});
const tickets = 'on-site-tickets';
const at = (more = '') => `/data/attributes/${tickets}${more}`;

const send =
  (url: (input: Input) => string) =>
  ({ body, query, type }: Input) =>
    call(app, {
      method: 'POST',
      url: `${url({ body, query } as Input)}${query ? `?${query}` : ''}`,
      token: organizer.token,
      body,
      ...(type ? { headers: { 'content-type': type } } : {}),
    });

t.test('POST /v1/orders?onsite=true', async (t) => {
  const cases: Case[] = [
    ['on-site tickets without ?onsite=true', onsite({ [tickets]: [door(paid, 1)] }, ''), 422, at()],
    ['?onsite=true without on-site tickets', onsite({}), 422, at()],
    ['an empty list', onsite({ [tickets]: [] }), 422, at()],
    ['on-site tickets as an object', onsite({ [tickets]: door(paid, 1) }), 422, at()],
    ['a ticket id as a word', onsite({ [tickets]: [door('abc', 1)] }), 422, at('/0/data/attributes/id')],
    ['a quantity of 0', onsite({ [tickets]: [door(paid, 0)] }), 422, at('/0/data/attributes/quantity')],
    ['a negative quantity', onsite({ [tickets]: [door(paid, '-1')] }), 422, at('/0/data/attributes/quantity')],
    ['a huge quantity', onsite({ [tickets]: [door(paid, 1e9)] }), 422, at('/0/data/attributes/quantity')],
    [
      'another type',
      onsite({ [tickets]: [{ data: { type: 'ticket', attributes: { id: paid, quantity: 1 } } }] }),
      422,
      at('/0/data/type'),
    ],
    ['an extra member', onsite({ [tickets]: [{ data: { ...door(paid, 1).data, id: paid } }] }), 422, at('/0/data/id')],
    ['a ticket that does not exist', onsite({ [tickets]: [door('999999', 1)] }), 422, at('/0/id')],
    ['more than are left', onsite({ [tickets]: [door(paid, 3)] }), 409, at('/0/quantity')],
    ['the same ticket twice', onsite({ [tickets]: [door(paid, 1), door(paid, 1)] }), 422, at('/1/id')],
    [
      'an amount (the server computes it)',
      onsite({ [tickets]: [door(paid, 1)], amount: 5 }),
      422,
      '/data/attributes/amount',
    ],
    [
      'an online payment method',
      onsite({ [tickets]: [door(paid, 1)], 'payment-mode': 'stripe' }),
      422,
      '/data/attributes/payment-mode',
    ],
    [
      'free for a paid ticket',
      onsite({ [tickets]: [door(paid, 1)], 'payment-mode': 'free' }),
      422,
      '/data/attributes/payment-mode',
    ],
    [
      'completed without a method',
      onsite({ [tickets]: [door(paid, 1)], status: 'completed' }),
      422,
      '/data/attributes/status',
    ],
    ['expired', onsite({ [tickets]: [door(paid, 1)], status: 'expired' }), 422, '/data/attributes/status'],
    ['malformed JSON', { query: 'onsite=true', body: '{"data":' }, 400],
  ];
  await expectRefused(
    t,
    cases,
    send(() => '/v1/orders'),
    snapshot,
    before,
  );
  const other = await seedUser(app);
  const res = await call(app, {
    method: 'POST',
    url: '/v1/orders?onsite=true',
    token: other.token,
    body: onsite({ [tickets]: [door(paid, 1)] }).body,
  });
  t.equal(res.status, 403, 'a stranger does not sell at the door');
  const maybe = await send(() => '/v1/orders')(onsite({ [tickets]: [door(paid, 1)] }, 'onsite=maybe'));
  t.equal(maybe.status, 400, '?onsite=maybe is 400');
  t.same(maybe.body.errors[0].source, { parameter: 'onsite' }, 'naming the parameter');
  t.same(await snapshot(), before, 'nothing written');
});

for (const [action, type, attributes] of [
  ['charge', 'charge', { stripe: 'tok_visa' }],
  ['create-paypal-payment', 'paypal-payment', { 'return-url': 'https://example.org/paid' }],
] as const) {
  t.test(`POST /v1/orders/{identifier}/${action}`, async (t) => {
    const doc = { data: { type, attributes } };
    const member = Object.keys(attributes)[0]!;
    const cases: Case[] = [
      ['malformed JSON', { body: '{"data":' }, 400],
      ['no data', { body: {} }, 422, '/data'],
      ['another type', { body: { data: { type: 'order', attributes } } }, 409, '/data/type'],
      [
        'an unknown attribute',
        { body: { data: { type, attributes: { ...attributes, amount: 0 } } } },
        422,
        '/data/attributes/amount',
      ],
      [
        'a number for a text',
        { body: { data: { type, attributes: { [member]: 5 } } } },
        422,
        `/data/attributes/${member}`,
      ],
      [
        'a text over its limit',
        { body: { data: { type, attributes: { [member]: 'x'.repeat(3000) } } } },
        422,
        `/data/attributes/${member}`,
      ],
      ['application/json', { body: JSON.stringify(doc), type: 'application/json' }, 415],
      ['an order that does not exist', { body: doc, path: '00000000-0000-4000-8000-000000000000' }, 404],
      ['an id that does not exist', { body: doc, path: '424242' }, 404],
      ['no provider is configured', { body: doc }, 422, '/data/attributes'],
    ];
    await expectRefused(
      t,
      cases,
      (input) =>
        call(app, {
          method: 'POST',
          url: `/v1/orders/${input.path ?? open.identifier}/${action}`,
          token: buyer.token,
          body: input.body,
          ...(input.type ? { headers: { 'content-type': input.type } } : {}),
        }),
      snapshot,
      before,
    );
    const named = await call(app, {
      method: 'POST',
      url: `/v1/orders/${open.identifier}/${action}`,
      token: buyer.token,
      body: doc,
    });
    t.match(named.body.errors[0].detail, action === 'charge' ? /Stripe/ : /PayPal/, 'the 422 names the provider');
    const long = await call(app, {
      method: 'POST',
      url: `/v1/orders/${'x'.repeat(65)}/${action}`,
      token: buyer.token,
      body: doc,
    });
    t.equal(long.status, 400, 'an over-long identifier is 400');
    t.same(long.body.errors[0].source, { parameter: 'identifier' }, 'naming the identifier');
    t.same(await snapshot(), before, 'nothing written');
  });
}

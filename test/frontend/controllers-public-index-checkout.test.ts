/**
 * The public checkout of the Open Event front end: app/components/public/ticket-list.js posts its
 * `orderAmountInput` ({tickets: [{id, quantity, price}], 'discount-code'}) to `/orders/calculate-amount` through
 * the loader, and app/controllers/public/index.js (save) posts the same to `/orders/create-order`, then opens
 * `orders.new` with the identifier of the answer. The server computes every amount from its records (tickets, the
 * discount code, the platform's fee, the event's tax), reserves the tickets without ever selling more than their
 * quantity, and ends reservations left unpaid; the buyer moves the order on as app/controllers/orders/new.js and
 * pending.js do.
 */
import t from 'tap';
import { expireOrder } from '../../src/resources/orders/expiry.js';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const base = await listening(app);
const cast = await createCast(app);
const owner = cast.owner.token;
const { id: event } = await createEvent(app, cast, 'Checkout Conf', 'published');
const of = { event: rel('event', event) };
const patchEvent = (attributes: Record<string, unknown>) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token: owner,
    body: { data: { type: 'event', id: event, attributes } },
  });
// Tax of 18% added to the prices; the platform's fee of 2% (at most 1.00) on lines whose fee is not absorbed.
const setUp = await patchEvent({ 'is-tax-enabled': true, 'payment-currency': 'EUR', 'payment-country': 'DE' });
if (setUp.status !== 200) throw new Error(`the event's payment settings: ${JSON.stringify(setUp.body)}`);
await create(app, owner, 'taxes', 'tax', { name: 'VAT', rate: 18, 'is-tax-included-in-price': false }, of);
await app.sql`insert into ticket_fees (currency, country, service_fee, maximum_fee) values ('EUR', 'DE', 2, 1)`;
const ticket = (over: Record<string, unknown>) => create(app, owner, 'tickets', 'ticket', ticketAttributes(over), of);
const standard = await ticket({ name: 'Standard', type: 'paid', price: 100, quantity: 100, 'is-fee-absorbed': false });
const donation = await ticket({ name: 'Support', type: 'donation', 'min-price': 5, 'max-price': 500, quantity: 100 });
const free = await ticket({ name: 'Community', type: 'free', quantity: 100 });
const last = await ticket({ name: 'Last seats', type: 'paid', price: 10, quantity: 10 });
const code = await create(
  app,
  owner,
  'discount-codes',
  'discount-code',
  {
    code: 'EARLY10',
    type: 'percent',
    value: 10,
    'tickets-number': 3,
    'min-quantity': 1,
    'max-quantity': 3,
    'used-for': 'ticket',
    'is-active': true,
  },
  { ...of, tickets: { data: [{ type: 'ticket', id: standard }] } },
);

const buyer = await seedUser(app);
const fe = frontEnd(base, buyer.token);
const anonymous = frontEnd(base);

t.test(
  'calculate-amount as ticket-list.js posts it: prices from the records, a code, the fee and the tax',
  async (t) => {
    const input = {
      tickets: [
        // The front end sends the price it shows; only a donation's is read.
        { id: standard, quantity: 2, price: 0.01 },
        { id: donation, quantity: 1, price: 20 },
        { id: free, quantity: 1, price: null },
      ],
      'discount-code': code,
    };
    const res = await anonymous.loader('POST', '/v1/orders/calculate-amount', input);
    t.equal(res.status, 200, JSON.stringify(res.body));
    const [s, d, f] = res.body.tickets;
    t.match(s, { id: Number(standard), price: 100, quantity: 2, ticket_fee: 1, sub_total: 181 });
    t.match(s.discount, { code: 'EARLY10', percent: 10, amount: 10, total: 20, type: 'percent' });
    t.match(d, { price: 20, sub_total: 20, discount: null, ticket_fee: 0 });
    t.match(f, { price: 0, sub_total: 0 });
    // 200 - 20 + 1 (the fee: 2% of 200, at most 1) + 20 = 201; tax 18% = 36.18.
    t.match(res.body, { sub_total: 201, discount: 20, total: 237.18 });
    t.same(res.body.tax, { included: false, amount: 36.18, percent: 18, name: 'VAT' });

    const refusals: Array<[string, unknown, string]> = [
      ['an amount of its own', { tickets: [{ id: standard, quantity: 1 }], amount: 0.01 }, '/amount'],
      ['a donation outside its range', { tickets: [{ id: donation, quantity: 1, price: 1 }] }, '/tickets/0/price'],
      ['a ticket that does not exist', { tickets: [{ id: '999999', quantity: 1 }] }, '/tickets/0/id'],
      ['a ticket named twice', { tickets: [{ id: free }, { id: free }] }, '/tickets/1/id'],
      ['a code the event does not have', { tickets: [{ id: standard }], 'discount-code': 'NOPE' }, '/discount-code'],
    ];
    for (const [what, body, pointer] of refusals) {
      const refused = await anonymous.loader('POST', '/v1/orders/calculate-amount', body);
      t.equal(refused.status, 422, what);
      t.equal(refused.body.errors?.[0]?.source?.pointer, pointer, `${what}: ${refused.body.errors?.[0]?.detail}`);
    }
  },
);

t.test('create-order as public/index.js saves it: the order, its blank holders, the amount', async (t) => {
  const res = await fe.loader('POST', '/v1/orders/create-order', {
    tickets: [{ id: standard, quantity: 2, price: 100 }],
    'discount-code': code,
  });
  t.equal(res.status, 200, JSON.stringify(res.body));
  const order = res.body.data;
  t.match(order.attributes, {
    status: 'initializing',
    amount: 213.58,
    'payment-mode': null,
    'discount-code-id': Number(code),
  });
  t.ok(order.attributes.identifier, 'the identifier orders.new opens');
  const holders = await app.sql`select ticket_id, price, is_discount_applied from attendees
    where order_id = ${Number(order.id)} and deleted_at is null order by id`;
  t.same(
    holders.map((h) => [h.ticket_id, Number(h.price), h.is_discount_applied]),
    [
      [Number(standard), 100, true],
      [Number(standard), 100, true],
    ],
  );
  // The code had 3 uses: 2 are taken by this order, so the next order of 2 is lowered once.
  const next = await fe.loader('POST', '/v1/orders/calculate-amount', {
    tickets: [{ id: standard, quantity: 2 }],
    'discount-code': code,
  });
  t.match(next.body.tickets[0], { discounted_quantity: 1, discount: { total: 10 } });
  t.match(next.body.tickets[0].discount.warning, /not fully discounted/);

  const buyerEdits = await fe.adapter('PATCH', `/v1/orders/${order.id}`, {
    body: { data: { type: 'order', id: order.id, attributes: { amount: 0.01 } } },
  });
  t.equal(buyerEdits.status, 422, 'the amount is read-only');
  t.equal(buyerEdits.body.errors[0].source.pointer, '/data/attributes/amount');
  const sameBack = await fe.adapter('PATCH', `/v1/orders/${order.id}`, {
    body: { data: { type: 'order', id: order.id, attributes: { amount: 213.58, company: 'ACME' } } },
  });
  t.equal(sameBack.status, 200, 'sent back unchanged, as ember-data does, it is accepted');

  t.equal((await anonymous.loader('POST', '/v1/orders/create-order', { tickets: [{ id: free }] })).status, 401);
});

t.test('50 checkouts at once for the last 10 tickets sell exactly 10', async (t) => {
  const buyers = await Promise.all(Array.from({ length: 50 }, () => seedUser(app)));
  const answers = await Promise.all(
    buyers.map((b) =>
      frontEnd(base, b.token).loader('POST', '/v1/orders/create-order', { tickets: [{ id: last, quantity: 1 }] }),
    ),
  );
  const statuses = answers.map((a) => a.status).sort();
  t.equal(statuses.filter((s) => s === 200).length, 10, 'ten orders');
  t.equal(statuses.filter((s) => s === 409).length, 40, `the others are told it sold out: ${statuses.join(' ')}`);
  const [{ n }] =
    await app.sql`select count(*)::int as n from attendees where ticket_id = ${Number(last)} and deleted_at is null`;
  t.equal(n, 10, 'ten holders');
  const availability = await anonymous.loader('GET', `/v1/events/${event}/tickets/availability`);
  t.match(
    availability.body.find((a: { id: number }) => a.id === Number(last)),
    { available: 0 },
  );
});

t.test('an unpaid reservation expires and its tickets are on sale again', async (t) => {
  const res = await fe.loader('POST', '/v1/orders/create-order', { tickets: [{ id: standard, quantity: 3 }] });
  t.equal(res.status, 200);
  const id = res.body.data.id;
  const left = async () =>
    (await anonymous.loader('GET', `/v1/events/${event}/tickets/availability`)).body.find(
      (a: { id: number }) => a.id === Number(standard),
    ).available;
  const before = await left();
  t.equal((await expireOrder(app, Number(id))) instanceof Date, true, 'not due yet: looked at again later');
  await app.sql`update orders set created_at = now() - interval '1 hour' where id = ${Number(id)}`;
  const late = await fe.adapter('PATCH', `/v1/orders/${id}`, {
    body: { data: { type: 'order', id, attributes: { status: 'pending' } } },
  });
  t.equal(late.status, 410, 'the buyer is told it expired');
  t.equal(await expireOrder(app, Number(id)), undefined);
  const read = await fe.adapter('GET', `/v1/orders/${id}`);
  t.equal(read.body.data.attributes.status, 'expired');
  t.equal(await left(), before + 3, 'its three tickets are on sale again');
});

t.test('orders/new.js and pending.js: a free order completes, an offline one is placed and marked paid', async (t) => {
  const freeOrder = await fe.loader('POST', '/v1/orders/create-order', { tickets: [{ id: free, quantity: 1 }] });
  t.match(freeOrder.body.data.attributes, { amount: 0, 'payment-mode': 'free' });
  const done = await fe.adapter('PATCH', `/v1/orders/${freeOrder.body.data.id}`, {
    body: { data: { type: 'order', id: freeOrder.body.data.id, attributes: { status: 'completed' } } },
  });
  t.equal(done.status, 200);
  t.ok(done.body.data.attributes['completed-at'], 'completed-at set');

  const paid = await fe.loader('POST', '/v1/orders/create-order', { tickets: [{ id: standard, quantity: 1 }] });
  const id = paid.body.data.id;
  const patch = (token: string, attributes: Record<string, unknown>) =>
    frontEnd(base, token).adapter('PATCH', `/v1/orders/${id}`, { body: { data: { type: 'order', id, attributes } } });
  const selfComplete = await patch(buyer.token, { status: 'completed', 'payment-mode': 'bank' });
  t.ok([403, 422].includes(selfComplete.status), 'the buyer cannot complete a paid order');
  const stripe = await patch(buyer.token, { status: 'pending', 'payment-mode': 'stripe' });
  t.equal(stripe.status, 422);
  t.match(stripe.body.errors[0].detail, /Stripe are not configured/);
  const notAccepted = await patch(buyer.token, { status: 'placed', 'payment-mode': 'bank' });
  t.equal(notAccepted.status, 422, 'the event does not accept bank transfers yet');
  t.equal((await patchEvent({ 'can-pay-by-bank': true })).status, 200);
  const placed = await patch(buyer.token, { status: 'placed', 'payment-mode': 'bank' });
  t.equal(placed.status, 200, JSON.stringify(placed.body));
  t.equal((await patch(buyer.token, { status: 'completed' })).status, 403, 'still not by the buyer');
  const marked = await patch(owner, { status: 'completed' });
  t.equal(marked.status, 200, 'the organizers mark it paid');
  t.match(marked.body.data.attributes, { status: 'completed', 'payment-mode': 'bank', amount: 119.18 });
  const cancel = await patch(buyer.token, { status: 'cancelled' });
  t.equal(cancel.status, 403, 'a completed order is the organizers to cancel');
});

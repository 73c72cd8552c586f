/**
 * open-event-frontend orders: `app/routes/public/index.js:66-70` makes the order with `event` and
 * `user` (the signed-in buyer); `app/controllers/orders/new.js:25-32` saves it with the billing
 * details the order form collects (`app/components/forms/orders/order-form.js`), with
 * `isBillingEnabled`. Bodies as ember-data serialises app/models/order.js:10-31: every attr that is
 * not readOnly, unset ones null (false for booleans), defaults `payment-mode: free`,
 * `status: initializing`. The order serializer always adds the `attendees` relationship
 * (app/serializers/order.js:14-30): empty on create, the holders read on a later save.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { cast, published } = world;

/** app/models/order.js:10-31: the attrs without readOnly. */
const ORDER_ATTRIBUTES = [
  'amount',
  'company',
  'tax-business-info',
  'address',
  'city',
  'state',
  'country',
  'zipcode',
  'payment-mode',
  'status',
  'exp-month',
  'exp-year',
  'brand',
  'last4',
  'paid-via',
  'is-billing-enabled',
  'tickets-pdf-url',
];
const saved = (attributes: Record<string, unknown>) =>
  Object.fromEntries(ORDER_ATTRIBUTES.map((n) => [n, attributes[n] ?? null]));

t.test('the buyer creates an order and saves it with billing details', async (t) => {
  const buyer = cast.other;
  const fe = frontEnd(base, buyer.token);
  const relationships = {
    user: { data: { type: 'user', id: buyer.id } },
    event: { data: { type: 'event', id: published.event } },
    attendees: { data: [] as { type: string; id: string }[] },
  };
  const created = await fe.adapter('POST', '/v1/orders', {
    body: {
      data: {
        type: 'order',
        attributes: { ...saved({}), 'payment-mode': 'free', status: 'initializing', 'is-billing-enabled': false },
        relationships,
      },
    },
  });
  t.equal(created.status, 201, JSON.stringify(created.body?.errors));
  const order = created.body.data;
  t.match(order.attributes, {
    amount: 0,
    status: 'initializing',
    'is-billing-enabled': false,
    company: null,
    brand: null,
  });
  t.same(order.relationships.user.data, { type: 'user', id: buyer.id }, 'the buyer is the caller');

  const billing = {
    company: 'ACME Ltd',
    'tax-business-info': 'DE123456789',
    address: 'Main Street 1',
    city: 'Berlin',
    state: 'Berlin',
    country: 'DE',
    zipcode: '10115',
    'is-billing-enabled': true,
  };
  // The order is named by its identifier in the URL (app/mixins/custom-primary-key.js), by its id in the body.
  const res = await fe.adapter('PATCH', `/v1/orders/${order.attributes.identifier}`, {
    body: {
      data: { type: 'order', id: order.id, attributes: { ...saved(order.attributes), ...billing }, relationships },
    },
  });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.match(res.body.data.attributes, billing, 'billing details stored');
  const organizer = await frontEnd(base, cast.organizer.token).adapter(
    'GET',
    `/v1/orders/${order.attributes.identifier}`,
  );
  t.match(organizer.body.data.attributes, billing, "the event's organizers read them");

  // Payment details are the provider's: the buyer cannot fill them in.
  for (const [name, value] of [
    ['brand', 'Visa'],
    ['last4', '4242'],
    ['paid-via', 'stripe'],
    ['tickets-pdf-url', 'https://files.example.org/t.pdf'],
  ]) {
    const refused = await fe.adapter('PATCH', `/v1/orders/${order.id}`, {
      body: {
        data: { type: 'order', id: order.id, attributes: { ...saved(res.body.data.attributes), [name!]: value } },
      },
    });
    t.equal(refused.status, 422, `${name} is read-only`);
    t.same(refused.body.errors[0].source, { pointer: `/data/attributes/${name}` });
  }
  const stranger = await frontEnd(base, cast.speaker.token).adapter('PATCH', `/v1/orders/${order.id}`, {
    body: { data: { type: 'order', id: order.id, attributes: { company: 'Mine' } } },
  });
  t.equal(stranger.status, 403, 'no one else changes the billing details');
});

/**
 * open-event-frontend `app/routes/admin/sales/`: the administrator's Sales pages. `index.js:17-64` queries
 * `admin-sales-by-event` with the tab's filter (live, past or all), the search on `name`, pages and the sort
 * (`app/controllers/admin/sales/index.js:11-12`: `-starts-at`); `organizers.js`, `marketer.js`, `locations.js`,
 * `discounted-events.js` and `revenue.js` `findAll` their report (the adapters turn the types into
 * `/v1/admin/sales/<report>`, `app/adapters/admin-sales-*.js`). Every figure is checked against orders seeded
 * through the checkout (deleted ones among them), then who may read the reports.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { type SaleStatus, sellTickets } from '../helpers/orders.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const [u1, u2, u3, u4] = [await seedUser(app), await seedUser(app), await seedUser(app), await seedUser(app)];
const admin = frontEnd(base, cast.admin.token);

const event = (owner: typeof u1, name: string, attributes: Record<string, unknown>, relationships = {}) =>
  create(app, owner.token, 'events', 'event', { ...eventAttributes(name), ...attributes }, relationships);
const at = (day: string) => ({ 'starts-at': `${day}T09:00:00Z`, 'ends-at': `${day}T18:00:00Z` });

const alpha = await event(
  u1,
  'Alpha',
  { ...at('2030-05-01'), online: true, 'location-name': 'Berlin' },
  {
    organizers: { data: [{ type: 'user', id: u2.id }] },
  },
);
const beta = await event(u2, 'Beta', { ...at('2030-06-01'), 'location-name': 'Berlin' });
const gamma = await event(u3, 'Gamma', { ...at('2030-07-01'), online: true });
const delta = await event(u1, 'Delta', at('2020-01-01'));
const epsilon = await event(u3, 'Epsilon', { ...at('2031-01-01'), 'location-name': 'Munich', state: 'draft' });
const gone = await event(u4, 'Gone', { ...at('2030-08-01'), 'location-name': 'Paris' });

/**
 * An order of `amount` in `status` with `holders` ticket holders, sold through the checkout to the event's owner (who
 * may buy outside the sales period): `holders` tickets of price amount / holders, or, with `split`, one of `split`
 * and the others of (amount - split) / (holders - 1).
 */
async function order(
  owner: typeof u1,
  eventId: string,
  status: SaleStatus,
  amount: number,
  holders: number,
  split?: number,
) {
  const of = { event: rel('event', eventId) };
  const ticket = (name: string, price: number) =>
    create(
      app,
      owner.token,
      'tickets',
      'ticket',
      { name, type: 'paid', price, 'sales-starts-at': '2029-01-01T00:00:00Z', 'sales-ends-at': '2029-12-01T00:00:00Z' },
      of,
    );
  const first = await ticket(`T${status}`, split ?? amount / holders);
  const more =
    split === undefined
      ? []
      : [{ id: await ticket(`T${status} 2`, (amount - split) / (holders - 1)), quantity: holders - 1 }];
  const sale = await sellTickets(app, {
    buyer: owner,
    organizerToken: owner.token,
    ticketId: first,
    quantity: split === undefined ? holders : 1,
    more,
    status,
  });
  if (sale.amount !== amount) throw new Error(`order of ${amount}: ${sale.amount}`);
  return sale.id;
}
await order(u1, alpha, 'completed', 30, 2);
await order(u1, alpha, 'placed', 10, 1);
await order(u1, alpha, 'pending', 20, 1);
await order(u1, alpha, 'cancelled', 5, 1);
const deleted = await order(u1, alpha, 'completed', 100, 1);
await order(u2, beta, 'completed', 40, 3, 20);
await order(u1, delta, 'placed', 15, 1);
await order(u4, gone, 'completed', 50, 2);
for (const [path, id, token] of [
  ['orders', deleted, cast.admin.token],
  ['events', gone, u4.token],
] as const) {
  const res = await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token });
  if (res.status !== 200) throw new Error(`delete ${path}/${id}: ${res.status}`);
}

const zero = { sales_total: 0, ticket_count: 0 };
const sales = (placed = zero, completed = zero, pending = zero) => ({ placed, completed, pending });

const BY_EVENTS: Record<string, Record<string, unknown>> = {
  Alpha: {
    type: 'Hybrid',
    owner: u1.email,
    'owner-id': Number(u1.id),
    'completed-order-sales': 30,
    'completed-order-tickets': 2,
    'placed-order-sales': 10,
    'placed-order-tickets': 1,
    'pending-order-sales': 20,
    'pending-order-tickets': 1,
  },
  Beta: { type: 'Venue', owner: u2.email, 'completed-order-sales': 40, 'completed-order-tickets': 3 },
  Gamma: { type: 'Online', owner: u3.email },
  Delta: { type: 'To be announced', owner: u1.email, 'placed-order-sales': 15, 'placed-order-tickets': 1 },
  Epsilon: { type: 'Venue', owner: u3.email },
};
const figures = (name: string) => ({
  'completed-order-sales': 0,
  'completed-order-tickets': 0,
  'placed-order-sales': 0,
  'placed-order-tickets': 0,
  'pending-order-sales': 0,
  'pending-order-tickets': 0,
  ...BY_EVENTS[name],
});

t.test('the overview: sales by event, by tab, searched, paged and sorted as the route asks', async (t) => {
  const now = new Date().toISOString();
  const tabs: Record<string, unknown[]> = {
    all: [],
    live: [
      {
        or: [
          { name: 'starts-at', op: 'ge', val: now },
          {
            and: [
              { name: 'starts-at', op: 'le', val: now },
              { name: 'ends-at', op: 'gt', val: now },
            ],
          },
        ],
      },
    ],
    past: [{ name: 'ends-at', op: 'lt', val: now }],
  };
  const query = (filter: unknown[], page = 1) => ({
    filter,
    'page[size]': 10,
    'page[number]': page,
    sort: '-starts-at',
  });
  const all = await admin.adapter('GET', '/v1/admin/sales/by-events', { query: query(tabs.all!) });
  t.equal(all.status, 200);
  t.strictSame(
    all.body.data.map((e: { attributes: { name: string } }) => e.attributes.name),
    ['Epsilon', 'Gamma', 'Beta', 'Alpha', 'Delta'],
    'every live event, the latest first; the deleted one left out',
  );
  t.equal(all.body.meta.count, 5);
  for (const record of all.body.data) {
    const { name } = record.attributes;
    t.match(record, { type: 'admin-sales-by-events', links: { self: '/v1/admin/sales/by-events' } }, name);
    t.match(record.attributes, figures(name), `${name}: its figures`);
    const of = (status: string) => ({
      sales_total: record.attributes[`${status}-order-sales`],
      ticket_count: record.attributes[`${status}-order-tickets`],
    });
    t.strictSame(record.attributes.sales, sales(of('placed'), of('completed'), of('pending')), `${name}: as sales`);
    t.match(record.attributes, { 'payment-currency': 'USD', 'deleted-at': null }, `${name}: its currency`);
  }
  const alphaRecord = all.body.data.find((e: { id: string }) => e.id === alpha);
  t.match(alphaRecord.attributes, { 'starts-at': '2030-05-01T09:00:00.000Z', 'ends-at': '2030-05-01T18:00:00.000Z' });
  const names = async (filter: unknown[]) =>
    (await admin.adapter('GET', '/v1/admin/sales/by-events', { query: query(filter) })).body.data.map(
      (e: { attributes: { name: string } }) => e.attributes.name,
    );
  t.strictSame(await names(tabs.live!), ['Epsilon', 'Gamma', 'Beta', 'Alpha'], 'live');
  t.strictSame(await names(tabs.past!), ['Delta'], 'past');
  t.strictSame(await names([{ name: 'name', op: 'ilike', val: '%ph%' }]), ['Alpha'], 'searched by name');
  const paged = await admin.adapter('GET', '/v1/admin/sales/by-events', {
    query: { ...query([]), 'page[size]': 2, 'page[number]': 2 },
  });
  t.strictSame(
    paged.body.data.map((e: { attributes: { name: string } }) => e.attributes.name),
    ['Beta', 'Alpha'],
    'the second page of two',
  );
  const trashed = await admin.adapter('GET', '/v1/admin/sales/by-events', {
    query: { get_trashed: true, filter: [{ name: 'deleted-at', op: 'ne', val: null }] },
  });
  t.match(
    trashed.body.data.map((e: { attributes: Record<string, unknown> }) => e.attributes),
    [{ name: 'Gone', 'completed-order-sales': 50, 'completed-order-tickets': 2 }],
    'a deleted event, asked for with get_trashed',
  );
});

t.test('sales by organizer: the events each owns or organizes', async (t) => {
  const res = await admin.adapter('GET', '/v1/admin/sales/by-organizers');
  t.equal(res.status, 200);
  t.strictSame(
    res.body.data.map((r: { id: string; type: string; attributes: unknown }) => [r.type, r.id, r.attributes]),
    [
      [
        'admin-sales-by-organizers',
        u1.id,
        {
          'first-name': null,
          'last-name': null,
          email: u1.email,
          sales: sales(
            { sales_total: 25, ticket_count: 2 },
            { sales_total: 30, ticket_count: 2 },
            {
              sales_total: 20,
              ticket_count: 1,
            },
          ),
        },
      ],
      [
        'admin-sales-by-organizers',
        u2.id,
        {
          'first-name': null,
          'last-name': null,
          email: u2.email,
          sales: sales(
            { sales_total: 10, ticket_count: 1 },
            { sales_total: 70, ticket_count: 5 },
            {
              sales_total: 20,
              ticket_count: 1,
            },
          ),
        },
      ],
      ['admin-sales-by-organizers', u3.id, { 'first-name': null, 'last-name': null, email: u3.email, sales: sales() }],
    ],
    'owners and organizers of live events (u4 owns a deleted one only)',
  );
});

t.test('sales by location, marketer, discount code, and the revenue', async (t) => {
  const location = await admin.adapter('GET', '/v1/admin/sales/by-location');
  t.equal(location.status, 200);
  t.strictSame(location.body, {
    data: [
      {
        type: 'admin-sales-by-location',
        id: 'Berlin',
        attributes: {
          'location-name': 'Berlin',
          sales: sales(
            { sales_total: 10, ticket_count: 1 },
            { sales_total: 70, ticket_count: 5 },
            {
              sales_total: 20,
              ticket_count: 1,
            },
          ),
        },
        links: { self: '/v1/admin/sales/by-location' },
      },
      {
        type: 'admin-sales-by-location',
        id: 'Munich',
        attributes: { 'location-name': 'Munich', sales: sales() },
        links: { self: '/v1/admin/sales/by-location' },
      },
    ],
    links: { self: '/v1/admin/sales/by-location' },
    meta: { count: 2 },
    jsonapi: { version: '1.0' },
  });
  // These orders were bought without a discount code, so no marketer has sales (admin-sales-discounted.test.ts sells with codes).
  for (const report of ['by-marketer', 'discounted']) {
    const res = await admin.adapter('GET', `/v1/admin/sales/${report}`);
    t.strictSame(res.body, {
      data: [],
      links: { self: `/v1/admin/sales/${report}` },
      meta: { count: 0 },
      jsonapi: { version: '1.0' },
    });
  }
  const fees = await admin.adapter('GET', '/v1/admin/sales/fees');
  t.equal(fees.status, 200);
  t.strictSame(
    Object.fromEntries(
      fees.body.data.map((r: { attributes: Record<string, unknown> }) => [
        r.attributes.name,
        [
          r.attributes.revenue,
          r.attributes['ticket-count'],
          r.attributes['fee-percentage'],
          r.attributes['maximum-fee'],
        ],
      ]),
    ),
    {
      Alpha: [30, 2, 0, 0],
      Beta: [40, 3, 0, 0],
      Gamma: [0, 0, 0, 0],
      Delta: [0, 0, 0, 0],
      Epsilon: [0, 0, 0, 0],
    },
  );
  t.match(fees.body.data.find((r: { id: string }) => r.id === gamma).attributes, {
    'payment-currency': 'USD',
    'event-date': '2030-07-01T09:00:00.000Z',
  });
});

t.test('administrators only', async (t) => {
  const reports = ['by-events', 'by-organizers', 'by-marketer', 'by-location', 'discounted', 'fees'];
  for (const report of reports) {
    for (const [who, token, status] of [
      ['anonymous', undefined, 401],
      ['an organizer', u1.token, 403],
      ['an administrator', cast.admin.token, 200],
    ] as const) {
      const res = await call(app, { url: `/v1/admin/sales/${report}`, token });
      t.equal(res.status, status, `${report}: ${who}`);
    }
  }
  for (const method of ['POST', 'PATCH', 'DELETE']) {
    const res = await call(app, { method, url: '/v1/admin/sales/by-events', token: cast.admin.token, body: {} });
    t.equal(res.status, 405, `${method}: nobody writes a report`);
  }
  void [beta, delta, epsilon];
});

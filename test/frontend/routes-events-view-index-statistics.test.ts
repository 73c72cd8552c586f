/**
 * open-event-frontend `app/routes/events/view/index.js:19-35`: the event dashboard asks for the event's
 * `generalStatistics` and `orderStatistics` (`eventDetails.query(..., {'page[size]': 0})`, a GET of the
 * relationships' related links), and `app/routes/events/view/tickets/index.js:13` for `orderStatistics` again;
 * `app/serializers/ticket.js:11-15` links each ticket to `/v1/tickets/{id}/order-statistics`, which the
 * dashboard's ticket table reads (`app/templates/components/events/view/overview/event-tickets.hbs:36-38`).
 * Every figure is checked against records seeded through the API (orders through the checkout), deleted ones among
 * them; then who may read them.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { expireOrder } from '../../src/resources/orders/expiry.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { type SaleStatus, sellTickets } from '../helpers/orders.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const { id: event, identifier } = await createEvent(app, cast, 'Stats Camp', 'published');
const draft = await createEvent(app, cast, 'Hidden Camp', 'draft');
const owner = cast.owner.token;
const of = { event: rel('event', event) };

const remove = async (path: string, id: string, token = owner) => {
  const res = await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token });
  if (res.status !== 200) throw new Error(`delete ${path}/${id}: ${res.status} ${JSON.stringify(res.body)}`);
};

// Speakers: A and B speak at accepted sessions (A also at a rejected one), C at a withdrawn one; D has no
// session, E only a deleted one; F is deleted.
const speaker = (name: string) => create(app, owner, 'speakers', 'speaker', { name }, of);
const [a, b, c, d, e, f] = [
  await speaker('A'),
  await speaker('B'),
  await speaker('C'),
  await speaker('D'),
  await speaker('E'),
  await speaker('F'),
];
let hour = 0;
const session = (state: string, speakers: string[] = []) =>
  create(
    app,
    owner,
    'sessions',
    'session',
    {
      title: `${state} ${++hour}`,
      'starts-at': `2030-05-01T${String(hour).padStart(2, '0')}:00:00Z`,
      'ends-at': `2030-05-01T${String(hour).padStart(2, '0')}:30:00Z`,
      state,
    },
    { ...of, speakers: { data: speakers.map((id) => ({ type: 'speaker', id })) } },
  );
await session('draft');
await session('submitted');
await session('pending');
await session('accepted', [a, f]);
await session('accepted', [b]);
await session('confirmed');
await session('rejected', [a]);
await session('canceled');
const withdrawn = await session('pending', [c]);
await call(app, {
  method: 'PATCH',
  url: `/v1/sessions/${withdrawn}`,
  token: owner,
  body: { data: { type: 'session', id: withdrawn, attributes: { state: 'withdrawn' } } },
});
await remove('sessions', await session('accepted', [e]));
await remove('speakers', f);
for (const name of ['ACME', 'Globex', 'Initech']) await create(app, owner, 'sponsors', 'sponsor', { name }, of);
await remove('sponsors', await create(app, owner, 'sponsors', 'sponsor', { name: 'Gone' }, of));
void d;

// Tickets on sale: 100 paid at 10.00, 50 free; a deleted one of 7 counts nowhere.
const sales = { 'sales-starts-at': '2020-01-01T00:00:00Z', 'sales-ends-at': '2030-04-30T00:00:00Z' };
const paid = await create(
  app,
  owner,
  'tickets',
  'ticket',
  { name: 'Paid', type: 'paid', price: 10, quantity: 100, ...sales },
  of,
);
const free = await create(app, owner, 'tickets', 'ticket', { name: 'Free', quantity: 50, ...sales }, of);
await remove('tickets', await create(app, owner, 'tickets', 'ticket', { name: 'Old', quantity: 7, ...sales }, of));

/** Tickets sold to `cast.other` and moved to `status` (paid ones placed by bank and marked paid by the organizer). */
const sell = (status: SaleStatus, ticketId: string, quantity: number, more: { id: string; quantity: number }[] = []) =>
  sellTickets(app, { buyer: cast.other, organizerToken: cast.organizer.token, ticketId, quantity, more, status });
// Completed: 30.00 for three paid and one free; one paid holder is removed afterwards (the amount stays).
const completed = await sell('completed', paid, 3, [{ id: free, quantity: 1 }]);
await remove('attendees', completed.holders[2]!);
await sell('placed', paid, 1);
await sell('pending', paid, 2);
// Cancelled and expired orders keep their amounts; their holders go (the tickets are on sale again).
await sell('cancelled', paid, 1);
await sell('initializing', free, 1);
const expired = await sell('initializing', paid, 1);
await app.sql`update orders set created_at = now() - interval '1 day' where id = ${Number(expired.id)}`;
await expireOrder(app, Number(expired.id));
await remove('orders', (await sell('completed', paid, 10)).id, cast.admin.token);

const figures = (o: Record<string, number>) => ({
  total: 0,
  draft: 0,
  initializing: 0,
  pending: 0,
  placed: 0,
  completed: 0,
  cancelled: 0,
  expired: 0,
  ...o,
});

const GENERAL = {
  identifier,
  sessions: 9,
  'sessions-draft': 1,
  'sessions-pending': 1,
  'sessions-submitted': 1,
  'sessions-accepted': 2,
  'sessions-confirmed': 1,
  'sessions-rejected': 1,
  'sessions-canceled': 1,
  'sessions-withdrawn': 1,
  speakers: {
    draft: 0,
    pending: 0,
    submitted: 0,
    accepted: 2,
    confirmed: 0,
    rejected: 1,
    canceled: 0,
    withdrawn: 1,
    total: 3,
  },
  'speaker-without-session': 2,
  sponsors: 3,
};

const ORDERS = {
  identifier,
  orders: figures({ total: 6, initializing: 1, pending: 1, placed: 1, completed: 1, cancelled: 1, expired: 1 }),
  tickets: { ...figures({ total: 7, initializing: 1, pending: 2, placed: 1, completed: 3 }), max: 150 },
  sales: figures({ total: 80, pending: 20, placed: 10, completed: 30, cancelled: 10, expired: 10 }),
};

t.test('the dashboard: general and order statistics through the related links, by id and by identifier', async (t) => {
  const client = frontEnd(base, cast.coorganizer.token);
  const record = await client.adapter('GET', `/v1/events/${identifier}`);
  const { relationships } = record.body.data;
  for (const [name, type, attributes] of [
    ['general-statistics', 'event-statistics-general', GENERAL],
    ['order-statistics', 'order-statistics-event', ORDERS],
  ] as const) {
    const related = relationships[name].links.related as string;
    t.equal(related, `/v1/events/${event}/${name}`, `${name}: the link the route follows`);
    const res = await client.adapter('GET', related, { query: { 'page[size]': 0 } });
    t.equal(res.status, 200, name);
    t.strictSame(
      res.body.data,
      { type, id: event, attributes, relationships: {}, links: { self: `/v1/events/${event}/${name}` } },
      `${name}: every figure`,
    );
    const byIdentifier = await client.adapter('GET', `/v1/events/${identifier}/${name}`);
    t.strictSame(byIdentifier.body.data.attributes, attributes, `${name} by the identifier`);
    const linkage = await client.adapter('GET', `/v1/events/${event}/relationships/${name}`);
    t.strictSame(linkage.body.data, { type, id: event }, `${name}: the linkage`);
  }
  // The tickets page asks without parameters.
  const tickets = await client.adapter('GET', `/v1/events/${event}/order-statistics`);
  t.strictSame(tickets.body.data.attributes, ORDERS);
});

t.test("each ticket's order statistics, as the ticket serializer links them", async (t) => {
  const client = frontEnd(base, cast.organizer.token);
  const res = await client.adapter('GET', `/v1/events/${event}/tickets`, { query: { 'page[size]': 0 } });
  const links = Object.fromEntries(
    res.body.data.map((ticket: { id: string; relationships: Record<string, { links: { related: string } }> }) => [
      ticket.id,
      ticket.relationships['order-statistics']!.links.related,
    ]),
  );
  t.strictSame(links, {
    [paid]: `/v1/tickets/${paid}/order-statistics`,
    [free]: `/v1/tickets/${free}/order-statistics`,
  });
  const expected = {
    [paid]: {
      tickets: figures({ total: 5, pending: 2, placed: 1, completed: 2 }),
      orders: figures({ total: 3, pending: 1, placed: 1, completed: 1 }),
      sales: figures({ total: 50, pending: 20, placed: 10, completed: 20 }),
    },
    [free]: {
      tickets: figures({ total: 2, initializing: 1, completed: 1 }),
      orders: figures({ total: 2, initializing: 1, completed: 1 }),
      sales: figures({}),
    },
  };
  for (const [ticket, attributes] of Object.entries(expected)) {
    const stats = await client.adapter('GET', `/v1/tickets/${ticket}/order-statistics`);
    t.strictSame(
      stats.body.data,
      {
        type: 'order-statistics-ticket',
        id: ticket,
        attributes,
        relationships: {},
        links: { self: `/v1/tickets/${ticket}/order-statistics` },
      },
      `ticket ${ticket}`,
    );
  }
  const included = await client.adapter('GET', `/v1/events/${event}/tickets`, {
    query: { include: 'order-statistics', 'page[size]': 0 },
  });
  t.strictSame(
    Object.fromEntries(included.body.included.map((r: { id: string; attributes: unknown }) => [r.id, r.attributes])),
    expected,
    'included with the tickets',
  );
});

t.test('figures follow the records: a new session and a completed order show at once', async (t) => {
  const token = cast.organizer.token;
  const before = await call(app, { url: `/v1/events/${event}?include=general-statistics,order-statistics`, token });
  const stats = (body: { included: { type: string; attributes: Record<string, unknown> }[] }, type: string) =>
    body.included.find((r) => r.type === type)!.attributes;
  t.equal(stats(before.body, 'event-statistics-general').sessions, 9);
  await session('confirmed', [d]);
  const added = await sell('completed', paid, 1);
  const after = await call(app, { url: `/v1/events/${event}?include=general-statistics,order-statistics`, token });
  const general = stats(after.body, 'event-statistics-general');
  t.match(general, { sessions: 10, 'sessions-confirmed': 2, 'speaker-without-session': 1 });
  t.match(stats(after.body, 'order-statistics-event'), {
    sales: { total: 90, completed: 40 },
    tickets: { total: 8, completed: 4 },
  });
  await remove('orders', added.id, cast.admin.token);
});

t.test("only the event's owner, organizers, coorganizers and administrators read them", async (t) => {
  const paths = [
    `/v1/events/${event}/general-statistics`,
    `/v1/events/${event}/order-statistics`,
    `/v1/events/${event}/relationships/general-statistics`,
    `/v1/events/${event}/relationships/order-statistics`,
    `/v1/tickets/${paid}/order-statistics`,
    `/v1/tickets/${paid}/relationships/order-statistics`,
  ];
  for (const path of paths) {
    for (const [who, token, status] of [
      ['anonymous', undefined, 401],
      ['another user', cast.other.token, 403],
      ["the session's speaker user", cast.speaker.token, 403],
      ['the coorganizer', cast.coorganizer.token, 200],
      ['the organizer', cast.organizer.token, 200],
      ['the owner', cast.owner.token, 200],
      ['an administrator', cast.admin.token, 200],
    ] as const) {
      const res = await call(app, { url: path, token });
      t.equal(res.status, status, `${path}: ${who}`);
    }
  }
  for (const name of ['general-statistics', 'order-statistics']) {
    const res = await call(app, { url: `/v1/events/${draft.id}/${name}`, token: cast.other.token });
    t.equal(res.status, 404, `${name} of a draft: 404 to those who cannot see it`);
  }
  // Included, they are left out for everyone else, the way an event's orders are.
  const include = 'general-statistics,order-statistics,tickets.order-statistics';
  const outsider = await call(app, { url: `/v1/events/${event}?include=${include}`, token: cast.other.token });
  t.equal(outsider.status, 200);
  t.strictSame(outsider.body.data.relationships['general-statistics'].data, null);
  t.strictSame(outsider.body.data.relationships['order-statistics'].data, null);
  t.strictSame(
    outsider.body.included.map((r: { type: string }) => r.type),
    ['ticket', 'ticket'],
    'the tickets, without any statistics',
  );
  const anonymous = await call(app, { url: `/v1/events/${event}?include=${include}` });
  t.notOk(
    anonymous.body.included.some((r: { type: string }) => r.type !== 'ticket'),
    'nor for anonymous callers',
  );
});

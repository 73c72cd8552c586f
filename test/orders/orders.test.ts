/**
 * Orders: create, the read-only amount the server computes, the status rules (the buyer moves an open order on,
 * the organizers mark an offline order paid), the buyer's limited right to change an open order, delete by admins
 * only (soft), the immutable event, the read-only user and identifier, and sorting and filtering of order lists.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, eventAttributes, rel, snapshotOf } from '../helpers/events.js';
import { acceptPayment, sellTickets } from '../helpers/orders.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const buyer = await seedUser(app);
const pub = world.published.event;
const snapshot = snapshotOf(app, ['orders']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A paid ticket of the published event (10.00) and one of a tenth (to see amounts kept to cents). */
const paidTicket = (price: number, event = pub) =>
  create(app, cast.owner.token, 'tickets', 'ticket', ticketAttributes({ type: 'paid', price, quantity: 1000 }), {
    event: rel('event', event),
  });
const ten = await paidTicket(10);
/** A paid order of the published event, bought by `buyer` and moved to `status`; its id. */
const paidOrder = async (status: 'initializing' | 'placed' | 'completed' = 'initializing') =>
  (await sellTickets(app, { buyer, organizerToken: cast.owner.token, ticketId: ten, status })).id;

const post = (
  token: string | undefined,
  attributes: Record<string, unknown>,
  relationships: Record<string, unknown> = { event: rel('event', pub) },
) =>
  call(app, { method: 'POST', url: '/v1/orders', token, body: { data: { type: 'order', attributes, relationships } } });
const patch = (
  token: string,
  id: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/orders/${id}`,
    token,
    body: { data: { type: 'order', id, attributes, ...(relationships ? { relationships } : {}) } },
  });
const newOrder = (token = buyer.token, attributes: Record<string, unknown> = {}, event = pub) =>
  create(app, token, 'orders', 'order', attributes, { event: rel('event', event) });
const row = async (id: string) => (await app.sql`select * from orders where id = ${Number(id)}`)[0]!;
/** A timestamp taken between `from` and now (a few seconds of slack for clocks). */
const recent = (t: Test, value: unknown, from: number, what: string) => {
  const at = Date.parse(String(value));
  t.ok(at >= from - 5000 && at <= Date.now() + 5000, `${what} is about now (${String(value)})`);
};

t.test('a user creates an order: defaults, generated identifier, the caller as buyer, attendees trimmed', async (t) => {
  const from = Date.now();
  const res = await post(buyer.token, { attendees: [{ name: '  Ada Lovelace ', email: ' ada@example.org  ' }] });
  t.equal(res.status, 201);
  const { id } = res.body.data;
  t.equal(res.headers.location, `/v1/orders/${id}`, 'Location');
  t.match(res.body.data.attributes.identifier, UUID, 'identifier is a uuid');
  t.strictSame(
    { ...res.body.data.attributes, identifier: 'x', 'created-at': 'x' },
    {
      identifier: 'x',
      amount: 0,
      status: 'initializing',
      'payment-mode': 'free',
      attendees: [{ name: 'Ada Lovelace', email: 'ada@example.org' }],
      company: null,
      'tax-business-info': null,
      address: null,
      city: null,
      state: null,
      country: null,
      zipcode: null,
      'is-billing-enabled': false,
      'exp-month': null,
      'exp-year': null,
      brand: null,
      last4: null,
      'paid-via': null,
      'tickets-pdf-url': null,
      'completed-at': null,
      'created-at': 'x',
      'deleted-at': null,
      'cancel-note': null,
      'order-notes': null,
      'transaction-id': null,
      'discount-code-id': null,
    },
    'every attribute, with its default',
  );
  recent(t, res.body.data.attributes['created-at'], from, 'created-at');
  t.same(res.body.data.relationships.user.data, { type: 'user', id: buyer.id }, 'the buyer is the caller');
  t.same(res.body.data.relationships.event.data, { type: 'event', id: pub });
  const stored = await row(id);
  t.match(stored, {
    user_id: Number(buyer.id),
    event_id: Number(pub),
    status: 'initializing',
    payment_mode: 'free',
    completed_at: null,
  });
  t.same(stored.attendees, [{ name: 'Ada Lovelace', email: 'ada@example.org' }], 'stored trimmed');
  const again = await call(app, { url: `/v1/orders/${id}`, token: buyer.token });
  t.same(again.body.data, res.body.data, 'read back the same');
});

t.test('the amount is read-only: the server computes it, to cents', async (t) => {
  const before = await snapshot();
  for (const amount of [0.01, 5, 100, -1]) {
    expectError(t, await post(buyer.token, { amount }), 422, { pointer: '/data/attributes/amount' });
    expectError(t, await post(cast.owner.token, { amount }), 422, { pointer: '/data/attributes/amount' });
  }
  t.same(await snapshot(), before, 'nothing written');
  for (const amount of [0, null]) {
    const res = await post(buyer.token, { amount });
    t.equal(res.status, 201, `a new order of amount ${amount}, as the front end sends it`);
    t.strictSame(res.body.data.attributes.amount, 0);
  }
  // Three tenths make 0.30000000000000004 in floating point: the order keeps cents.
  const tenth = await paidTicket(0.1);
  const sale = await sellTickets(app, {
    buyer,
    organizerToken: cast.owner.token,
    ticketId: tenth,
    quantity: 3,
    status: 'initializing',
  });
  t.strictSame(sale.amount, 0.3, 'answered as the number 0.3');
  t.equal(String((await row(sale.id)).amount), '0.30', 'stored as 0.30');
  const read = await call(app, { url: `/v1/orders/${sale.id}`, token: buyer.token });
  t.strictSame(read.body.data.attributes.amount, 0.3, 'read back as a number');
  const unchanged = await patch(buyer.token, sale.id, { amount: 0.3, company: 'ACME' });
  t.equal(unchanged.status, 200, 'the amount sent back unchanged is harmless (ember-data sends every attribute)');
  for (const who of [buyer, cast.organizer, cast.admin]) {
    expectError(t, await patch(who.token, sale.id, { amount: 0 }), 422, { pointer: '/data/attributes/amount' });
  }
  t.equal(String((await row(sale.id)).amount), '0.30', 'no one writes it');
});

t.test('status on create: a new order is initializing, for everyone', async (t) => {
  const before = await snapshot();
  for (const status of ['completed', 'pending', 'placed', 'cancelled', 'expired']) {
    for (const who of [buyer, cast.owner, cast.organizer, cast.coorganizer, cast.admin]) {
      expectError(t, await post(who.token, { status, 'payment-mode': 'bank' }), 422, {
        pointer: '/data/attributes/status',
      });
    }
  }
  t.same(await snapshot(), before, 'nothing written');
  const initial = await post(buyer.token, { status: 'initializing' });
  t.equal(initial.status, 201, 'the default status, which the front end sends with every new order, is harmless');
  t.equal(initial.body.data.attributes['completed-at'], null, 'not completed');
});

t.test('the organizer marks a placed order paid: completed-at set once', async (t) => {
  const id = await paidOrder('placed');
  t.equal((await row(id)).completed_at, null, 'placed: not completed yet');
  const from = Date.now();
  const res = await patch(cast.organizer.token, id, { status: 'completed' });
  t.equal(res.status, 200);
  recent(t, res.body.data.attributes['completed-at'], from, 'completed-at');
  const first = res.body.data.attributes['completed-at'];
  await app.sql`update orders set completed_at = now() - interval '1 day' where id = ${Number(id)}`;
  const [aged] =
    await app.sql`select (extract(epoch from completed_at) * 1000)::float8 as ms from orders where id = ${Number(id)}`;
  const again = await patch(cast.coorganizer.token, id, { status: 'completed', amount: 10 });
  t.equal(again.status, 200, 'the status and amount sent back unchanged');
  t.equal(
    Date.parse(again.body.data.attributes['completed-at']),
    Number(aged!.ms),
    'completing again keeps the first completed-at',
  );
  t.not(again.body.data.attributes['completed-at'], first);
  t.equal(again.body.data.attributes.amount, 10, 'the amount the buyer agreed to');
  expectError(t, await patch(cast.organizer.token, id, { amount: 5 }), 422, { pointer: '/data/attributes/amount' });
});

t.test('a paid order is completed only by the organizers, once placed', async (t) => {
  const open = await paidOrder();
  const before = await snapshot();
  expectError(t, await patch(buyer.token, open, { status: 'completed' }), 403, { pointer: '/data/attributes/status' });
  for (const who of [cast.organizer, cast.admin])
    expectError(t, await patch(who.token, open, { status: 'completed' }), 403, {
      pointer: '/data/attributes/status',
    });
  t.same(await snapshot(), before, 'nothing written');
  const placed = await paidOrder('placed');
  expectError(t, await patch(buyer.token, placed, { status: 'completed' }), 403, {
    pointer: '/data/attributes/status',
  });
  t.equal((await row(placed)).status, 'placed', 'the buyer does not mark it paid');
  const free = await newOrder();
  const done = await patch(buyer.token, free, { status: 'completed' });
  t.equal(done.status, 200, 'an order of nothing to pay is completed by its buyer');
  t.not(done.body.data.attributes['completed-at'], null);
});

t.test("cancel-note: null until organizers write it with the cancellation; the buyer's is refused", async (t) => {
  const id = await newOrder();
  const fresh = await call(app, { url: `/v1/orders/${id}`, token: buyer.token });
  t.equal(fresh.body.data.attributes['cancel-note'], null, 'null on a new order');
  expectError(t, await post(buyer.token, { 'cancel-note': 'Please cancel' }), 403, {
    pointer: '/data/attributes/cancel-note',
  });
  const own = await patch(buyer.token, id, { 'cancel-note': 'I cancel it myself' });
  expectError(t, own, 403, { pointer: '/data/attributes/cancel-note' });
  t.equal((await row(id)).cancel_note, null, 'unchanged by the refusal');
  const same = await patch(buyer.token, id, { 'cancel-note': null, company: 'ACME' });
  t.equal(same.status, 200, 'the buyer may send the note back unchanged');
  const res = await patch(cast.organizer.token, id, { status: 'cancelled', 'cancel-note': 'The venue closed' });
  t.equal(res.status, 200);
  t.match(res.body.data.attributes, { status: 'cancelled', 'cancel-note': 'The venue closed' });
  const read = await call(app, { url: `/v1/orders/${id}`, token: buyer.token });
  t.equal(read.body.data.attributes['cancel-note'], 'The venue closed', 'the buyer reads it');
});

t.test('the buyer changes an open order and moves it on; others may not change it', async (t) => {
  const id = await paidOrder();
  const attendees = [{ name: 'Grace', email: 'grace@example.org' }];
  const ok = await patch(buyer.token, id, { attendees, company: 'ACME' });
  t.equal(ok.status, 200, 'initializing: the buyer edits');
  t.match(ok.body.data.attributes, { attendees, company: 'ACME', status: 'initializing', 'payment-mode': null });
  let before = await snapshot();
  expectError(t, await patch(buyer.token, id, { 'payment-mode': 'paypal' }), 422, {
    pointer: '/data/attributes/payment-mode',
    detail: /PayPal are not configured on this server/,
  });
  expectError(t, await patch(buyer.token, id, { 'payment-mode': 'free' }), 422, {
    pointer: '/data/attributes/payment-mode',
  });
  expectError(t, await patch(buyer.token, id, { 'payment-mode': 'cheque' }), 422, {
    pointer: '/data/attributes/payment-mode',
    detail: 'The event does not accept cheque',
  });
  expectError(t, await patch(buyer.token, id, { status: 'completed' }), 403, { pointer: '/data/attributes/status' });
  expectError(t, await patch(buyer.token, id, { status: 'expired' }), 422, { pointer: '/data/attributes/status' });
  expectError(t, await patch(buyer.token, id, { status: 'pending', amount: 1 }), 422, {
    pointer: '/data/attributes/amount',
  });
  expectError(t, await patch(buyer.token, id, { 'order-notes': 'VIP' }), 403, {
    pointer: '/data/attributes/order-notes',
  });
  for (const who of [cast.other, cast.speaker]) expectError(t, await patch(who.token, id, { company: 'Evil' }), 403);
  expectError(
    t,
    await call(app, {
      method: 'PATCH',
      url: `/v1/orders/${id}`,
      body: { data: { type: 'order', id, attributes: {} } },
    }),
    401,
  );
  t.same(await snapshot(), before, 'nothing written');

  t.equal((await patch(buyer.token, id, { status: 'pending' })).status, 200, 'the buyer sets pending');
  t.equal((await patch(buyer.token, id, { company: 'ACME Ltd' })).status, 200, 'pending: the buyer still edits');
  await acceptPayment(app, cast.owner.token, pub, 'cheque');
  const placed = await patch(buyer.token, id, { 'payment-mode': 'cheque', status: 'placed' });
  t.equal(placed.status, 200, 'the buyer places it, paying by a cheque the event accepts');
  t.match(placed.body.data.attributes, { status: 'placed', 'payment-mode': 'cheque', 'completed-at': null });
  before = await snapshot();
  expectError(t, await patch(buyer.token, id, { attendees: [] }), 403);
  expectError(t, await patch(buyer.token, id, { 'payment-mode': 'bank' }), 403, {
    pointer: '/data/attributes/payment-mode',
  });
  t.same(await snapshot(), before, 'placed: the buyer changes nothing');
  t.match((await row(id)).attendees, attendees);
  const notes = await patch(cast.organizer.token, id, { 'order-notes': 'paid at the desk' });
  t.equal(notes.status, 200, 'the organizers write order notes');
});

t.test('cancelled and expired orders never change; expired reservations are gone', async (t) => {
  const cancelled = await paidOrder();
  t.equal((await patch(buyer.token, cancelled, { status: 'cancelled' })).status, 200, 'the buyer cancels it');
  const [{ live }] = (await app.sql`select count(*)::int as live from attendees
    where order_id = ${Number(cancelled)} and deleted_at is null`) as unknown as [{ live: number }];
  t.equal(live, 0, 'its ticket holders go');
  const expired = await paidOrder();
  await app.sql`update orders set status = 'expired' where id = ${Number(expired)}`;
  const before = await snapshot();
  for (const id of [cancelled, expired])
    for (const [who, status] of [
      [buyer, 'pending'],
      [cast.organizer, 'completed'],
      [cast.admin, 'placed'],
    ] as const)
      expectError(t, await patch(who.token, id, { status }), 409, { pointer: '/data/attributes/status' });
  t.same(await snapshot(), before, 'nothing written');
  const stale = await paidOrder();
  await app.sql`update orders set created_at = now() - interval '1 day' where id = ${Number(stale)}`;
  expectError(t, await patch(buyer.token, stale, { status: 'pending' }), 410);
});

t.test('delete: admins only, a soft delete after which the order is gone', async (t) => {
  const id = await newOrder();
  const identifier = (await row(id)).identifier as string;
  const before = await snapshot();
  for (const who of [buyer, cast.owner, cast.organizer, cast.coorganizer]) {
    expectError(t, await call(app, { method: 'DELETE', url: `/v1/orders/${id}`, token: who.token }), 403);
  }
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/orders/${id}` }), 401);
  t.same(await snapshot(), before, 'nothing written');
  const del = await call(app, { method: 'DELETE', url: `/v1/orders/${id}`, token: cast.admin.token });
  t.equal(del.status, 200);
  t.same(del.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  t.not((await row(id)).deleted_at, null, 'kept with deleted_at set');
  for (const who of [buyer, cast.organizer, cast.admin]) {
    for (const url of [`/v1/orders/${id}`, `/v1/orders/${identifier}`, `/v1/orders/${id}/relationships/event`]) {
      expectError(t, await call(app, { url, token: who.token }), 404, { detail: 'Object not found.' });
    }
  }
  const lists = [
    ['/v1/orders', cast.admin],
    ['/v1/orders', buyer],
    [`/v1/events/${pub}/orders`, cast.organizer],
    [`/v1/users/${buyer.id}/orders`, buyer],
  ] as const;
  for (const [url, who] of lists) {
    const res = await call(app, { url: `${url}?page[size]=100`, token: who.token });
    t.equal(res.status, 200);
    t.notOk(
      res.body.data.some((d: { id: string }) => d.id === id),
      `gone from ${url}`,
    );
  }
  const inc = await call(app, { url: `/v1/events/${pub}?include=orders`, token: cast.admin.token });
  t.notOk(
    inc.body.included.some((r: { type: string; id: string }) => r.type === 'order' && r.id === id),
    'and from includes',
  );
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/orders/${id}`, token: cast.admin.token }), 404, {});
  expectError(t, await patch(cast.admin.token, id, { company: 'ACME' }), 404);
});

t.test('an event the buyer cannot see, or that is gone, is not found', async (t) => {
  const gone = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Gone Fair'));
  t.equal((await call(app, { method: 'DELETE', url: `/v1/events/${gone}`, token: cast.owner.token })).status, 200);
  const before = await snapshot();
  for (const event of [world.draft.event, gone, '424242']) {
    for (const who of [buyer, cast.other]) {
      expectError(t, await post(who.token, {}, { event: rel('event', event) }), 404, {
        detail: `Related event "${event}" not found`,
      });
    }
  }
  expectError(t, await post(cast.admin.token, {}, { event: rel('event', gone) }), 404);
  t.same(await snapshot(), before, 'nothing written');
  const draftOrder = await post(cast.coorganizer.token, {}, { event: rel('event', world.draft.event) });
  t.equal(draftOrder.status, 201, "the draft's coorganizer may order for it");
});

t.test('the event is immutable, the user and identifier are read-only', async (t) => {
  const id = await newOrder();
  const other = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Another Fair'));
  const before = await snapshot();
  const event = '/data/relationships/event';
  for (const who of [buyer, cast.organizer, cast.admin]) {
    expectError(t, await patch(who.token, id, {}, { event: rel('event', other) }), 422, { pointer: event });
  }
  const linkage = (token: string, name: string, data: unknown) =>
    call(app, { method: 'PATCH', url: `/v1/orders/${id}/relationships/${name}`, token, body: { data } });
  expectError(t, await linkage(cast.organizer.token, 'event', { type: 'event', id: other }), 422, { pointer: event });
  expectError(t, await linkage(cast.organizer.token, 'event', null), 422, { pointer: '/data' });
  // Read-only relationships: refused in documents (422 at the member) as events refuse `owner`, and
  // their relationship endpoint allows only reads (405).
  const user = '/data/relationships/user';
  expectError(t, await patch(buyer.token, id, {}, { user: rel('user', cast.other.id) }), 422, { pointer: user });
  expectError(t, await patch(cast.admin.token, id, {}, { user: rel('user', cast.other.id) }), 422, { pointer: user });
  expectError(t, await post(buyer.token, {}, { event: rel('event', pub), user: rel('user', cast.other.id) }), 422, {
    pointer: user,
  });
  const put = await linkage(cast.admin.token, 'user', { type: 'user', id: cast.other.id });
  expectError(t, put, 405);
  t.match(put.headers.allow, /GET/);
  t.notMatch(put.headers.allow, /PATCH/);
  for (const [name, value] of [
    ['identifier', '00000000-0000-4000-8000-000000000000'],
    ['completed-at', '2030-01-01T00:00:00Z'],
    ['created-at', '2030-01-01T00:00:00Z'],
  ]) {
    const pointer = `/data/attributes/${name}`;
    expectError(t, await post(cast.admin.token, { [name]: value }), 422, { pointer });
    expectError(t, await patch(cast.admin.token, id, { [name]: value }), 422, { pointer });
  }
  t.same(await snapshot(), before, 'nothing written');
  const same = await patch(buyer.token, id, {}, { event: rel('event', pub) });
  t.equal(same.status, 200, 'naming the same event again is harmless');
  const sameUser = await patch(cast.admin.token, id, {}, { user: rel('user', buyer.id) });
  t.equal(
    sameUser.status,
    200,
    'the read-only user sent back unchanged is harmless (the front end sends every member)',
  );
  const named = await post(buyer.token, {}, { event: rel('event', pub), user: rel('user', buyer.id) });
  t.equal(named.status, 201, 'a create may name the caller as the buyer, as the front end does');
});

t.test('order lists sort by created-at and amount and filter by status', async (t) => {
  const fair = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Sorting Fair'));
  const five = await paidTicket(5, fair);
  const made: Record<string, string> = {};
  for (const [name, quantity, status, day] of [
    ['a', 6, 'completed', 3],
    ['b', 2, 'pending', 1],
    ['c', 4, 'completed', 2],
    ['d', 1, 'cancelled', 4],
  ] as const) {
    const sale = await sellTickets(app, { buyer, organizerToken: cast.owner.token, ticketId: five, quantity, status });
    made[name] = sale.id;
    await app.sql`update orders set created_at = ${`2030-01-0${day}T00:00:00Z`} where id = ${Number(made[name])}`;
  }
  const order = (names: string) => [...names].map((n) => made[n]);
  const list = async (query: string) => {
    const res = await call(app, { url: `/v1/events/${fair}/orders?${query}`, token: cast.owner.token });
    t.equal(res.status, 200, query);
    return res.body.data.map((d: { id: string }) => d.id);
  };
  t.same(await list('sort=created-at'), order('bcad'));
  t.same(await list('sort=-created-at'), order('dacb'));
  t.same(await list('sort=amount'), order('dbca'));
  t.same(await list('sort=-amount'), order('acbd'));
  const completed = encodeURIComponent('[{"name":"status","op":"eq","val":"completed"}]');
  t.same(await list(`filter=${completed}&sort=amount`), order('ca'));
  const all = await call(app, {
    url: `/v1/orders?filter=${completed}&sort=-amount&page[size]=100`,
    token: cast.owner.token,
  });
  t.ok(
    all.body.data.every((d: { attributes: { status: string } }) => d.attributes.status === 'completed'),
    '/v1/orders filtered',
  );
  const amounts = all.body.data.map((d: { attributes: { amount: number } }) => d.attributes.amount);
  t.same(
    amounts,
    [...amounts].sort((a: number, b: number) => b - a),
    '/v1/orders sorted by -amount',
  );
  t.equal(all.body.meta.count, all.body.data.length);
  expectError(t, await call(app, { url: `/v1/orders?sort=bogus`, token: cast.owner.token }), 400, {
    parameter: 'sort',
  });
});

t.test('the orders of a deleted event vanish with it, as every record under an event does', async (t) => {
  const doomed = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Doomed Fair'));
  const id = await newOrder(buyer.token, {}, doomed);
  t.equal((await call(app, { method: 'DELETE', url: `/v1/events/${doomed}`, token: cast.owner.token })).status, 200);
  for (const who of [buyer, cast.owner, cast.admin]) {
    expectError(t, await call(app, { url: `/v1/orders/${id}`, token: who.token }), 404);
    expectError(t, await patch(who.token, id, { company: 'ACME' }), 404);
    const mine = await call(app, { url: '/v1/orders?page[size]=100', token: who.token });
    t.notOk(
      mine.body.data.some((d: { id: string }) => d.id === id),
      'gone from /v1/orders',
    );
  }
  const bought = await call(app, { url: `/v1/users/${buyer.id}/orders?page[size]=100`, token: buyer.token });
  t.notOk(
    bought.body.data.some((d: { id: string }) => d.id === id),
    "gone from the buyer's orders",
  );
});

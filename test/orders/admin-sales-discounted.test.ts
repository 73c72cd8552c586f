/**
 * `GET /v1/admin/sales/discounted` (the front end's admin/sales/discounted-events page): each event, discount code and
 * marketer (the code's maker) of orders sold through the checkout with a code, with the amounts and ticket holders of
 * those orders by status. Orders without a code, deleted orders and deleted events count nowhere; a deleted code
 * keeps its sales.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes, rel } from '../helpers/events.js';
import { type SaleStatus, sellTickets } from '../helpers/orders.js';
import { createTicket } from '../helpers/tickets.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const [u1, u2, u3, buyer] = [await seedUser(app), await seedUser(app), await seedUser(app), await seedUser(app)];

const event = (owner: typeof u1, name: string, attributes: Record<string, unknown> = {}, relationships = {}) =>
  create(app, owner.token, 'events', 'event', { ...eventAttributes(name), ...attributes }, relationships);
const alpha = await event(u1, 'Alpha', {}, { organizers: { data: [{ type: 'user', id: u2.id }] } });
const beta = await event(u3, 'Beta', { 'payment-currency': 'EUR' });
const gone = await event(u3, 'Gone');

/** A paid ticket of 50 and a discount code on it made by `maker` (its marketer); answers both ids and the code. */
async function discounted(eventId: string, maker: typeof u1, code: string, type: 'amount' | 'percent', value: number) {
  const ticket = await createTicket(app, maker.token, eventId, { name: `Paid ${code}`, type: 'paid', price: 50 });
  const id = await create(
    app,
    maker.token,
    'discount-codes',
    'discount-code',
    { code, type, value },
    { event: rel('event', eventId), tickets: { data: [{ type: 'ticket', id: ticket }] } },
  );
  return { ticket, id, code };
}
const early = await discounted(alpha, u1, 'EARLY', 'amount', 10);
const half = await discounted(alpha, u2, 'HALF', 'percent', 50);
const euro = await discounted(beta, u3, 'EURO5', 'amount', 5);
const lost = await discounted(gone, u3, 'LOST', 'amount', 5);

const sell = async (
  code: { ticket: string; code: string } | { ticket: string; code?: undefined },
  organizer: typeof u1,
  status: SaleStatus,
  quantity = 1,
) =>
  sellTickets(app, {
    buyer,
    organizerToken: organizer.token,
    ticketId: code.ticket,
    quantity,
    status,
    discountCode: code.code,
  });

const sold = [
  await sell(early, u1, 'completed', 2),
  await sell(early, u1, 'placed'),
  await sell(early, u1, 'pending'),
  await sell(early, u1, 'cancelled'),
  await sell(half, u1, 'completed'),
  await sell(euro, u3, 'placed'),
  await sell(lost, u3, 'completed'),
];
const without = await sell({ ticket: early.ticket }, u1, 'completed');
const deletedOrder = await sell(early, u1, 'completed', 3);
for (const [url, token] of [
  [`/v1/orders/${deletedOrder.id}`, cast.admin.token],
  [`/v1/events/${gone}`, u3.token],
  [`/v1/discount-codes/${half.id}`, u1.token],
] as const) {
  const res = await call(app, { method: 'DELETE', url, token });
  if (res.status !== 200) throw new Error(`DELETE ${url}: ${res.status} ${JSON.stringify(res.body)}`);
}

const zero = { sales_total: 0, ticket_count: 0 };
const row = (
  eventId: string,
  code: { id: string; code: string },
  marketer: typeof u1,
  eventName: string,
  currency: string,
  sales: Record<string, typeof zero>,
) => ({
  type: 'admin-sales-discounted',
  id: `${eventId}-${code.id}-${marketer.id}`,
  attributes: {
    code: code.code,
    email: marketer.email,
    'event-name': eventName,
    'payment-currency': currency,
    sales: { placed: zero, completed: zero, pending: zero, ...sales },
  },
  links: { self: '/v1/admin/sales/discounted' },
});

t.test('each event, code and marketer of discounted orders, with their sums by status', async (t) => {
  t.same(
    sold.map((s) => s.amount),
    [80, 40, 40, 40, 25, 45, 45],
    'the checkout lowered every order by its code',
  );
  t.equal(without.amount, 50, 'an order without a code');
  const res = await call(app, { url: '/v1/admin/sales/discounted', token: cast.admin.token });
  assertDocument(t, res, 200);
  t.strictSame(res.body, {
    data: [
      row(alpha, early, u1, 'Alpha', 'USD', {
        completed: { sales_total: 80, ticket_count: 2 },
        placed: { sales_total: 40, ticket_count: 1 },
        pending: { sales_total: 40, ticket_count: 1 },
      }),
      row(alpha, half, u2, 'Alpha', 'USD', { completed: { sales_total: 25, ticket_count: 1 } }),
      row(beta, euro, u3, 'Beta', 'EUR', { placed: { sales_total: 45, ticket_count: 1 } }),
    ],
    links: { self: '/v1/admin/sales/discounted' },
    meta: { count: 3 },
    jsonapi: { version: '1.0' },
  });
});

t.test('the marketers of the same orders in the by-marketer report agree', async (t) => {
  const res = await call(app, { url: '/v1/admin/sales/by-marketer', token: cast.admin.token });
  assertDocument(t, res, 200);
  const byId = Object.fromEntries(
    res.body.data.map((r: { id: string; attributes: { sales: unknown } }) => [r.id, r.attributes.sales]),
  );
  t.same(byId[u2.id], { placed: zero, completed: { sales_total: 25, ticket_count: 1 }, pending: zero });
  t.same(byId[u3.id], { placed: { sales_total: 45, ticket_count: 1 }, completed: zero, pending: zero });
});

t.test('administrators only', async (t) => {
  for (const [who, token, status] of [
    ['anonymous', undefined, 401],
    ['the marketer', u1.token, 403],
    ['an administrator', cast.admin.token, 200],
  ] as const) {
    const res = await call(app, { url: '/v1/admin/sales/discounted', token });
    t.equal(res.status, status, who);
  }
});

/**
 * Bad input to the event invoices' routes: each a clear 4xx error document, never a 500, and nothing written (the
 * invoices stay as they were; a refused run issues none).
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';
import { inMonth, LAST_MONTH, makeFee, sale, sellsIn } from './invoice-sales.js';

const MB = 1024 * 1024;
const { app } = await buildTestApp(t);
const cast = await createCast(app);
const admin = cast.admin.token;
const event = await createEvent(app, cast, 'Harbour Days', 'published');
await makeFee(app, admin, { currency: 'EUR', country: 'DE', 'service-fee': 5, 'maximum-fee': 100 });
await sellsIn(app, event.id, 'EUR', 'DE');
await sale(app, event.id, (await seedUser(app)).id, 200, inMonth(LAST_MONTH));
const [row] = await app.sql<{ id: number; identifier: string }[]>`
  insert into event_invoices (identifier, amount, user_id, event_id, month, issued_at)
  values ('200002U-000001', 12.5, ${Number(cast.owner.id)}, ${Number(event.id)}, '2000-01', '2000-02-01T00:00:00Z')
  returning id, identifier`;
const id = String(row!.id);

const snapshot = () => app.sql`select * from event_invoices order by id`;
const before = await snapshot();

/** [what, body (a string is sent as is), status, pointer when one is expected]. */
type Case = [string, unknown, number, string?];
const patch = (attributes: unknown, extra: Record<string, unknown> = {}) => ({
  data: { type: 'event-invoice', id, attributes, ...extra },
});

const PATCHES: Case[] = [
  ['malformed JSON', '{"data": {"type": "event-invoice",', 400],
  ['a JSON array', '[]', 422, ''],
  ['no data', {}, 422, '/data'],
  ['attributes is a string', patch('paid'), 422, '/data/attributes'],
  ['another type', { data: { type: 'order', id, attributes: { status: 'paid' } } }, 409, '/data/type'],
  ['another id', { data: { type: 'event-invoice', id: '999999', attributes: { status: 'paid' } } }, 409, '/data/id'],
  ['an unknown status', patch({ status: 'cancelled' }), 422, '/data/attributes/status'],
  ['status is a number', patch({ status: 1 }), 422, '/data/attributes/status'],
  ['paid via a provider', patch({ 'paid-via': 'stripe' }), 422, '/data/attributes/paid-via'],
  ['a changed amount', patch({ amount: 0 }), 422, '/data/attributes/amount'],
  ['a negative amount', patch({ amount: -5 }), 422, '/data/attributes/amount'],
  ['a changed identifier', patch({ identifier: 'MINE-1' }), 422, '/data/attributes/identifier'],
  ['a completion date', patch({ 'completed-at': '2030-01-01T00:00:00Z' }), 422, '/data/attributes/completed-at'],
  [
    'a PDF of ones own',
    patch({ 'invoice-pdf-url': 'https://evil.example/x.pdf' }),
    422,
    '/data/attributes/invoice-pdf-url',
  ],
  ['a card token', patch({ 'stripe-token': 'tok_visa' }), 422, '/data/attributes/stripe-token'],
  ['unknown attribute', patch({ discount: 10 }), 422, '/data/attributes/discount'],
  ['payment-mode over 32 characters', patch({ 'payment-mode': 'm'.repeat(33) }), 422, '/data/attributes/payment-mode'],
  ['a NUL character', patch({ 'transaction-id': 'a\u0000b' }), 422, '/data/attributes/transaction-id'],
  [
    'another event',
    patch({}, { relationships: { event: { data: { type: 'event', id: '999999' } } } }),
    422,
    '/data/relationships/event',
  ],
  [
    'another user',
    patch({}, { relationships: { user: { data: { type: 'user', id: cast.other.id } } } }),
    422,
    '/data/relationships/user',
  ],
  ['a 1 MB payment mode', patch({ 'payment-mode': 'm'.repeat(MB) }), 413],
];

t.test('PATCH /v1/event-invoices/{id} refuses bad input and writes nothing', async (t) => {
  for (const [what, body, status, pointer] of PATCHES) {
    const res = await call(app, { method: 'PATCH', url: `/v1/event-invoices/${id}`, token: admin, body });
    t.test(what, async (t) => expectError(t, res, status, pointer === undefined ? {} : { pointer }));
  }
  t.same(await snapshot(), before, 'the invoice is as it was');
});

t.test('wrong ids answer 404 or 400, never a 500', async (t) => {
  for (const bad of ['0', '999999', '-1', '1.5', 'NOPE-000001', '%00', "x' or '1'='1"]) {
    const res = await call(app, { url: `/v1/event-invoices/${encodeURIComponent(bad)}`, token: admin });
    t.ok([400, 404].includes(res.status), `${bad}: ${res.status}`);
    expectError(
      t,
      res,
      res.status,
      res.body.errors[0].source ? { parameter: res.body.errors[0].source.parameter } : {},
    );
  }
  expectError(t, await call(app, { url: `/v1/event-invoices/${'9'.repeat(80)}`, token: admin }), 400, {
    parameter: 'id',
  });
  const sort = await call(app, { url: '/v1/event-invoices?sort=stripe_secret', token: admin });
  expectError(t, sort, 400, { parameter: 'sort' });
  const filter = await call(app, {
    url: `/v1/event-invoices?filter=${encodeURIComponent('[{"name":"password","op":"eq","val":"x"}]')}`,
    token: admin,
  });
  expectError(t, filter, 400, { parameter: 'filter' });
});

const run = (body: unknown) => call(app, { method: 'POST', url: '/v1/event-invoices/monthly-run', token: admin, body });
const runOf = (attributes: unknown) => ({ data: { type: 'event-invoice-run', attributes } });

const RUNS: Case[] = [
  ['malformed JSON', '{"data":', 400],
  ['no data', {}, 422, '/data'],
  ['another type', { data: { type: 'event-invoice', attributes: { month: LAST_MONTH } } }, 409, '/data/type'],
  ['no month', runOf({}), 422, '/data/attributes/month'],
  ['a month of 13', runOf({ month: '2024-13' }), 422, '/data/attributes/month'],
  ['a date, not a month', runOf({ month: `${LAST_MONTH}-01` }), 422, '/data/attributes/month'],
  ['a number', runOf({ month: 202410 }), 422, '/data/attributes/month'],
  ['a month to come', runOf({ month: '2999-01' }), 422, '/data/attributes/month'],
  ['an amount of ones own', runOf({ month: LAST_MONTH, amount: 1 }), 422, '/data/attributes/amount'],
];

t.test('POST /v1/event-invoices/monthly-run refuses bad input and issues nothing', async (t) => {
  for (const [what, body, status, pointer] of RUNS) {
    const res = await run(body);
    t.test(what, async (t) => expectError(t, res, status, pointer === undefined ? {} : { pointer }));
  }
  t.same(await snapshot(), before, 'no invoice was issued');
});

t.test('the payment routes refuse bad input before anything else', async (t) => {
  const pay = (body: unknown) =>
    call(app, { method: 'POST', url: `/v1/event-invoices/${row!.identifier}/charge`, token: cast.owner.token, body });
  expectError(t, await pay('{"data":'), 400);
  expectError(t, await pay({}), 422, { pointer: '/data' });
  expectError(t, await pay({ data: { type: 'order' } }), 409, { pointer: '/data/type' });
  expectError(t, await pay({ data: { type: 'charge', attributes: { stripe: 5 } } }), 422, {
    pointer: '/data/attributes/stripe',
  });
  t.same(await snapshot(), before, 'nothing changed');
});

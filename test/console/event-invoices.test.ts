/**
 * Event invoices: a month's run bills each event's completed sales at its ticket fee (one invoice per event and
 * month, however often or concurrently it runs), with its PDF; organisers see theirs, administrators all, others
 * nothing; only administrators change one (marking it paid offline); online payment answers that it is not here.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { readPdf } from '../helpers/pdf.js';
import { expectError, seedUser } from '../helpers/users.js';
import { inMonth, LAST_MONTH, makeFee, MONTH_BEFORE, sale, sellsIn } from './invoice-sales.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const admin = cast.admin.token;
const buyer = (await seedUser(app)).id;
const cafe = await createEvent(app, cast, 'Café Ünïcode Summit', 'published');
const small = await createEvent(app, cast, 'Small Meetup', 'published');
const global = await createEvent(app, cast, 'Global Fair', 'draft');
const other = await seedUser(app);
const otherEvent = (
  await call(app, {
    method: 'POST',
    url: '/v1/events',
    token: other.token,
    body: {
      data: {
        type: 'event',
        attributes: {
          name: 'Elsewhere',
          'starts-at': '2030-05-01T09:00:00Z',
          'ends-at': '2030-05-02T09:00:00Z',
          timezone: 'UTC',
        },
      },
    },
  })
).body.data.id as string;

await makeFee(app, admin, { currency: 'EUR', country: 'DE', 'service-fee': 5, 'maximum-fee': 1000 });
await makeFee(app, admin, { currency: null, country: 'global', 'service-fee': 10, 'maximum-fee': 20 });
await sellsIn(app, cafe.id, 'EUR', 'DE');
await sellsIn(app, small.id, 'USD', null);
await sellsIn(app, global.id, 'USD', 'US');
await sellsIn(app, otherEvent, 'EUR', 'DE');

// The café: 350.50 completed last month (5%: 17.53); orders not completed or deleted do not count, nor one the month
// before's invoice billed.
const billed = [
  await sale(app, cafe.id, buyer, 100, inMonth(LAST_MONTH, 1)),
  await sale(app, cafe.id, buyer, 250.5, inMonth(LAST_MONTH, 28)),
];
const placed = await sale(app, cafe.id, buyer, 999, null, 'placed');
const deleted = await sale(app, cafe.id, buyer, 500, inMonth(LAST_MONTH));
await app.sql`update orders set deleted_at = now() where id = ${deleted}`;
const earlier = await sale(app, cafe.id, buyer, 80, inMonth(MONTH_BEFORE));
// The meetup: 15 at the global fee (10%: 1.50) is under the minimum of 2: no invoice.
await sale(app, small.id, buyer, 15, inMonth(LAST_MONTH));
// The fair: 900 at 10% is 90, over the global maximum of 20.
await sale(app, global.id, buyer, 900, inMonth(LAST_MONTH));
// Someone else's event: 60 at 5% = 3.00.
await sale(app, otherEvent, buyer, 60, inMonth(LAST_MONTH));

const run = (month: string, token = admin) =>
  call(app, {
    method: 'POST',
    url: '/v1/event-invoices/monthly-run',
    token,
    body: { data: { type: 'event-invoice-run', attributes: { month } } },
  });

const issuedPrefix = `${new Date().toISOString().slice(0, 7).replace('-', '')}U-`;

t.test('runs at once make one invoice per event and month', async (t) => {
  const [a, b] = await Promise.all([run(MONTH_BEFORE), run(MONTH_BEFORE)]);
  t.equal(a.status, 200);
  t.equal(b.status, 200);
  t.same([...a.body.meta.issued, ...b.body.meta.issued].length, 1, 'the café, 5% of 80, once');
  const rows = await app.sql`select event_id, amount from event_invoices where month = ${MONTH_BEFORE}`;
  t.same(
    rows.map((r) => [String(r.event_id), Number(r.amount)]),
    [[cafe.id, 4]],
  );
  const ids = await app.sql`select identifier from event_invoices`;
  t.equal(ids.length, 1, 'one invoice in all');
});

t.test('a run bills each event with completed sales once, at its fee', async (t) => {
  const first = await run(LAST_MONTH);
  assertDocument(t, first, 200);
  t.same(first.body.meta.month, LAST_MONTH);
  t.equal(first.body.meta.issued.length, 3, 'the café, the fair and the other event; not the meetup under the minimum');
  t.equal(first.body.meta.existing, 0);
  t.ok(
    first.body.meta.issued.every((id: string) => id.startsWith(issuedPrefix) && /U-[0-9]{6}$/.test(id)),
    'numbered YYYYMMU-000001 by the month they are issued in',
  );
  const again = await run(LAST_MONTH);
  t.same(again.body.meta, { month: LAST_MONTH, issued: [], existing: 3 }, 'a second run adds nothing');

  const list = await call(app, { url: '/v1/event-invoices?include=event,user&sort=id', token: admin });
  assertDocument(t, list, 200);
  t.equal(list.body.meta.count, 4, "these three and the café's of the month before");
  const byEvent = new Map(list.body.data.map((d: any) => [d.relationships.event.data.id, d]));
  const invoice = byEvent.get(cafe.id) as any;
  t.equal(invoice.attributes.amount, 17.53, '5% of 350.50, rounded to cents');
  t.equal(invoice.attributes.status, 'due');
  t.equal(invoice.attributes.month, LAST_MONTH);
  t.equal(invoice.relationships.user.data.id, cast.owner.id, 'billed to the owner');
  const issued = new Date(invoice.attributes['issued-at']).getTime();
  t.equal(issued, Date.parse(`${new Date().toISOString().slice(0, 7)}-01T00:00:00Z`), 'issued as the month ends');
  t.equal(new Date(invoice.attributes['due-at']).getTime() - issued, 30 * 86_400_000, 'due 30 days later');
  t.equal((byEvent.get(global.id) as any).attributes.amount, 20, 'at most the maximum fee');
  t.equal((byEvent.get(otherEvent) as any).attributes.amount, 3);
  t.notOk(byEvent.has(small.id));
  t.ok(list.body.included.some((r: any) => r.type === 'event' && r.id === cafe.id));

  // The orders it billed name it (the reference's order event-invoice); the others do not.
  const invoiceOf = async (order: number) => {
    const [row] = await app.sql<{ identifier: string }[]>`select identifier from orders where id = ${order}`;
    const read = await call(app, { url: `/v1/orders/${row!.identifier}?include=event-invoice`, token: admin });
    assertDocument(t, read, 200);
    return read.body.data.relationships['event-invoice'].data?.id ?? null;
  };
  for (const order of billed) t.equal(await invoiceOf(order), invoice.id, 'a billed order names its invoice');
  t.equal(await invoiceOf(placed), null, 'an order not completed is not billed');
  const [before] = await app.sql<{ id: number }[]>`select id from event_invoices where month = ${MONTH_BEFORE}`;
  t.equal(await invoiceOf(earlier), String(before!.id), "an order of the month before names that month's invoice");
  const ids = await app.sql`select identifier from event_invoices`;
  t.equal(new Set(ids.map((r) => r.identifier)).size, 4, 'every identifier is its own');

  const url = new URL(invoice.attributes['invoice-pdf-url']);
  const pdf = await app.inject({ url: url.pathname });
  t.equal(pdf.statusCode, 200, 'the PDF is served at its URL, as the front end links it');
  const [page] = await readPdf(pdf.rawPayload);
  t.match(page!.text, 'Café Ünïcode Summit', 'the accented name reads back right');
  t.match(page!.text, invoice.attributes.identifier);
  t.match(page!.text, 'EUR 17.53');
  t.match(page!.text, 'EUR 350.50', 'what the event earned');
  t.match(page!.text, 'Fees (5%)');
});

t.test('a run is for administrators, of a month that has ended', async (t) => {
  expectError(t, await run(LAST_MONTH, cast.owner.token), 403);
  expectError(t, await run(LAST_MONTH, ''), 401);
  const thisMonth = new Date().toISOString().slice(0, 7);
  expectError(t, await run(thisMonth), 422, { pointer: '/data/attributes/month', detail: /has not ended/ });
  expectError(t, await run('2026-13'), 422, { pointer: '/data/attributes/month' });
  const unknown = await call(app, {
    method: 'POST',
    url: '/v1/event-invoices/monthly-run',
    token: admin,
    body: { data: { type: 'event-invoice-run', attributes: { month: LAST_MONTH, amount: 1 } } },
  });
  t.equal(unknown.status, 422, 'unknown members are refused');
});

const invoiceOf = async (eventId: string) =>
  (
    await call(app, {
      url: `/v1/events/${eventId}/event-invoices?filter=[{"name":"month","op":"eq","val":"${LAST_MONTH}"}]`,
      token: admin,
    })
  ).body.data[0];

t.test('organisers see their invoices, administrators all, others nothing', async (t) => {
  const invoice = await invoiceOf(cafe.id);
  const { identifier } = invoice.attributes;
  const mine = await call(app, { url: `/v1/users/${cast.owner.id}/event-invoices`, token: cast.owner.token });
  assertDocument(t, mine, 200);
  t.same(mine.body.data.map((d: any) => d.relationships.event.data.id).sort(), [cafe.id, cafe.id, global.id].sort());
  const byIdentifier = await call(app, {
    url: `/v1/event-invoices/${identifier}?include=event,user`,
    token: cast.owner.token,
  });
  assertDocument(t, byIdentifier, 200);
  t.equal(byIdentifier.body.data.id, invoice.id, 'the identifier names it as the id does');
  const organizer = await call(app, { url: `/v1/events/${cafe.id}/event-invoices`, token: cast.organizer.token });
  t.equal(organizer.body.meta.count, 2, "the event's organizer sees its invoices");
  t.equal((await call(app, { url: `/v1/event-invoices/${invoice.id}/event`, token: cast.owner.token })).status, 200);
  t.equal((await call(app, { url: `/v1/event-invoices/${invoice.id}/user`, token: cast.owner.token })).status, 200);

  expectError(t, await call(app, { url: `/v1/event-invoices/${invoice.id}`, token: other.token }), 404);
  expectError(t, await call(app, { url: `/v1/event-invoices/${identifier}`, token: cast.coorganizer.token }), 404);
  // Another user's records answer 403 here, as every list of a user's own records does (users/policy.ts).
  expectError(t, await call(app, { url: `/v1/users/${cast.owner.id}/event-invoices`, token: other.token }), 403);
  expectError(t, await call(app, { url: `/v1/events/${cafe.id}/event-invoices`, token: cast.coorganizer.token }), 404);
  expectError(t, await call(app, { url: '/v1/event-invoices', token: cast.owner.token }), 403);
  expectError(t, await call(app, { url: '/v1/event-invoices' }), 401);
  const theirs = await call(app, { url: `/v1/users/${other.id}/event-invoices`, token: other.token });
  t.same(
    theirs.body.data.map((d: any) => d.relationships.event.data.id),
    [otherEvent],
  );
  const event = await call(app, { url: `/v1/events/${cafe.id}?include=event-invoices`, token: cast.owner.token });
  t.equal(event.body.data.relationships['event-invoices'].data.length, 2, "the event's relationship lists them");
});

t.test('only administrators change an invoice; marking it paid is offline', async (t) => {
  const invoice = await invoiceOf(cafe.id);
  const patch = (token: string, attributes: Record<string, unknown>) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/event-invoices/${invoice.id}`,
      token,
      body: { data: { type: 'event-invoice', id: invoice.id, attributes } },
    });
  expectError(t, await patch(cast.owner.token, { status: 'paid' }), 403);
  expectError(t, await patch(admin, { amount: 1 }), 422, { pointer: '/data/attributes/amount' });
  expectError(t, await patch(admin, { status: 'void' }), 422, { pointer: '/data/attributes/status' });
  expectError(t, await patch(admin, { 'paid-via': 'paypal' }), 422, { pointer: '/data/attributes/paid-via' });
  // As the admin page saves it: every attribute the front end's model holds, status changed.
  const sent = { ...invoice.attributes, status: 'paid' };
  for (const key of ['month', 'paid-via']) delete sent[key];
  const paid = await patch(admin, sent);
  assertDocument(t, paid, 200);
  t.equal(paid.body.data.attributes.status, 'paid');
  t.equal(paid.body.data.attributes['paid-via'], 'offline');
  t.equal(paid.body.data.attributes['payment-mode'], 'offline');
  t.ok(Date.now() - Date.parse(paid.body.data.attributes['completed-at']) < 60_000, 'completed now');
  t.equal(paid.body.data.attributes.amount, 17.53, 'the amount stays');
  const again = await patch(admin, { status: 'due' });
  t.equal(again.body.data.attributes['completed-at'], null, 'due again: not completed');
  const cheque = await patch(admin, { status: 'paid', 'paid-via': 'cheque', 'transaction-id': 'CHQ 0042' });
  t.equal(cheque.body.data.attributes['paid-via'], 'cheque');
  t.equal(cheque.body.data.attributes['transaction-id'], 'CHQ 0042');

  const create = await call(app, {
    method: 'POST',
    url: '/v1/event-invoices',
    token: admin,
    body: { data: { type: 'event-invoice', attributes: { status: 'due' } } },
  });
  expectError(t, create, 403);
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/event-invoices/${invoice.id}`, token: admin }), 403);
});

t.test('online payment answers that it is not available here', async (t) => {
  const due = await invoiceOf(global.id);
  const pay = (identifier: string, token: string, path = 'charge') =>
    call(app, {
      method: 'POST',
      url: `/v1/event-invoices/${identifier}/${path}`,
      token,
      body: { data: { type: path === 'charge' ? 'charge' : 'paypal-payment', attributes: { paypal_payer_id: 'P' } } },
    });
  expectError(t, await pay(due.attributes.identifier, cast.owner.token), 422, {
    pointer: '/data',
    detail: /not available on this server/,
  });
  expectError(t, await pay(due.attributes.identifier, cast.owner.token, 'create-paypal-payment'), 422, {
    pointer: '/data',
  });
  expectError(t, await pay(due.attributes.identifier, other.token), 404);
  expectError(t, await pay('nothing-here', admin), 404);
  const paid = await invoiceOf(cafe.id);
  expectError(t, await pay(paid.id, admin), 409);
});

t.test('administrators list the invoices in brief', async (t) => {
  const res = await call(app, { url: '/v1/admin/sales/invoices?sort=id', token: admin });
  assertDocument(t, res, 200);
  t.equal(res.body.meta.count, 4);
  const row = res.body.data.find(
    (d: any) => d.attributes['event-name'] === 'Café Ünïcode Summit' && d.attributes.status === 'paid',
  );
  t.equal(row.type, 'admin-sales-invoice');
  t.match(row.attributes['sent-to'], `<${cast.owner.email}>`);
  t.equal(row.attributes.amount, 17.53);
  t.ok(row.attributes['completed-at']);
  expectError(t, await call(app, { url: '/v1/admin/sales/invoices', token: cast.owner.token }), 403);
});

t.test('a fee under the minimum waits: its orders are billed with the next invoice that reaches it', async (t) => {
  // The meetup's 15 (10%: 1.50) was not billed; 20 more, completed later, make 35 (3.50).
  const late = await sale(app, small.id, buyer, 20, inMonth(LAST_MONTH, 20));
  const res = await run(LAST_MONTH);
  assertDocument(t, res, 200);
  t.equal(res.body.meta.issued.length, 1, 'the meetup only');
  const [invoice] = await app.sql<{ id: number; amount: string }[]>`
    select id, amount from event_invoices where event_id = ${Number(small.id)}`;
  t.equal(Number(invoice!.amount), 3.5);
  const billed = await app.sql<{ id: number }[]>`
    select id from orders where event_id = ${Number(small.id)} and event_invoice_id = ${invoice!.id} order by id`;
  t.equal(billed.length, 2, 'both orders name it');
  t.ok(billed.some((o) => o.id === late));
});

/**
 * The tickets and the invoice of an order as PDF (src/resources/orders/documents/): read back as a reader and a
 * scanner see them, who may download them, and which orders have them.
 */
import t from 'tap';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { createCast, tokenOf, type RoleName } from '../helpers/events.js';
import { download, EVENT_NAME, printedEvent, setStatus } from '../helpers/order-documents.js';
import { readPdf } from '../helpers/pdf.js';
import { seedUser } from '../helpers/users.js';
import { orderAmounts } from '../../src/resources/orders/invoice-amounts.js';

const PUBLIC_URL = 'https://tickets.example.org';
const { app } = await buildTestApp(t, { PUBLIC_URL });
const cast = await createCast(app);
await app.sql`update settings set app_name = 'Eventyay' where id = 1`;
const printed = await printedEvent(app, cast);
const placed = await printed.order([
  ['vip', 'Ada', 'ada@example.org'],
  ['vip', 'Ζωή', 'zoe@example.org'],
  ['free', 'Grace', 'grace@example.org'],
]);
await setStatus(app, placed.order.id, 'placed');

t.test(
  'the tickets of an order: one page per holder with the event, the holder and a QR code of its identifier',
  async (t) => {
    const res = await download(app, `/v1/orders/${placed.order.identifier}/tickets-pdf`, placed.buyer.token);
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'application/pdf');
    t.match(res.headers['content-disposition'], `attachment; filename="tickets-${placed.order.identifier}.pdf"`);
    t.equal(res.headers['cache-control'], 'private, no-store');
    const pages = await readPdf(res.bytes);
    t.equal(pages.length, 3, 'one page per ticket holder');
    t.same(
      pages.map((p) => p.qr),
      placed.holders.map((h) => h.identifier),
      "each page's QR code is its holder's identifier",
    );
    const [ada, zoe, grace] = pages;
    for (const page of pages) {
      t.match(page.text, EVENT_NAME);
      t.match(page.text, 'Eventyay');
      t.match(page.text, `Order ${placed.order.identifier}`);
      t.match(page.text, 'Event taking place at Kongresshaus, Zürich.');
      // 2030-05-01T09:00Z and 2030-05-03T18:00Z in Europe/Berlin (summer time).
      t.match(page.text, 'From: Wednesday, 1 May 2030, 11:00 (Europe/Berlin)');
      t.match(page.text, 'To: Friday, 3 May 2030, 20:00 (Europe/Berlin)');
      t.match(page.text, 'Doors open at 8:30.');
    }
    t.match(ada!.text, 'Ada Tester');
    t.match(ada!.text, 'VIP');
    t.match(ada!.text, 'EUR 80.00 (discount code EARLY20)');
    t.match(zoe!.text, 'Ζωή Tester', 'names in any European script');
    t.match(grace!.text, 'Grace Tester');
    t.match(grace!.text, 'Community');
    t.match(grace!.text, 'Free');
  },
);

t.test(
  'the front end downloads the tickets at /v1/tickets/{order identifier}; a number there is still a ticket',
  async (t) => {
    const res = await download(app, `/v1/tickets/${placed.order.identifier}`, placed.buyer.token);
    t.equal(res.status, 200);
    t.same(
      (await readPdf(res.bytes)).map((p) => p.qr),
      placed.holders.map((h) => h.identifier),
    );
    const ticket = await download(app, '/v1/tickets/1', placed.buyer.token);
    t.equal(ticket.status, 200);
    t.equal(JSON.parse(ticket.body).data.type, 'ticket');
  },
);

t.test('the invoice: seller, buyer, lines with discount, tax and the stored total', async (t) => {
  const res = await download(app, `/v1/orders/invoices/${placed.order.identifier}`, placed.buyer.token);
  t.equal(res.status, 200);
  t.equal(res.headers['content-type'], 'application/pdf');
  const [page, ...more] = await readPdf(res.bytes);
  t.equal(more.length, 0, 'one page');
  const text = page!.text;
  for (const expected of [
    'Invoice',
    'Summit GmbH',
    'DE123456789',
    'Buyer AG',
    'Bahnhofstrasse 1',
    'CHE-123.456.789',
    placed.buyer.email,
    `Order ${placed.order.identifier}`,
    'Ticket: VIP for Open Summit Zürich, 1 May 2030',
    'EUR 100.00',
    'EARLY20: −EUR 40.00 (2×)',
    'EUR 160.00',
    'Ticket: Community',
    'Sub-total EUR 160.00',
    'VAT 19% EUR 30.40',
    'Total EUR 190.40',
    'Thank you for coming.',
  ])
    t.match(text, expected, expected);
  t.notMatch(text, 'Adjustment', 'the lines add up to the stored amount');
  t.equal(page!.qr, null, 'no QR code on an invoice');
});

t.test('the invoice says by how much a total the organizers set differs from the lines', async (t) => {
  await app.sql`update orders set amount = 150 where id = ${Number(placed.order.id)}`;
  const res = await download(app, `/v1/orders/invoices/${placed.order.identifier}`, cast.organizer.token);
  const [page] = await readPdf(res.bytes);
  t.match(page!.text, 'Adjustment by the organizer EUR -40.40');
  t.match(page!.text, 'Total EUR 150.00');
  await app.sql`update orders set amount = 190.4 where id = ${Number(placed.order.id)}`;
});

t.test('one ticket: the buyer, its holder and the organizers; no one else', async (t) => {
  const [ada, zoe] = placed.holders;
  const url = `/v1/orders/attendees/${ada!.id}.pdf`;
  const res = await download(app, url, placed.holderUser.token);
  t.equal(res.status, 200, 'the user the holder names downloads their ticket');
  t.match(res.headers['content-disposition'], `filename="ticket-${ada!.id}.pdf"`);
  const pages = await readPdf(res.bytes);
  t.equal(pages.length, 1);
  t.equal(pages[0]!.qr, ada!.identifier);
  t.match(pages[0]!.text, 'Ada Tester');
  t.equal(
    (await download(app, `/v1/orders/attendees/${zoe!.id}.pdf`, placed.holderUser.token)).status,
    404,
    'not another holder of the order',
  );
  t.equal(
    (await download(app, `/v1/orders/invoices/${placed.order.identifier}`, placed.holderUser.token)).status,
    404,
    'nor the invoice',
  );
  t.equal((await download(app, `/v1/orders/attendees/${zoe!.id}.pdf`, placed.buyer.token)).status, 200);
  t.equal((await download(app, `/v1/orders/attendees/99999999.pdf`, placed.buyer.token)).status, 404);
});

const ROLES: [RoleName, number][] = [
  ['anonymous', 401],
  ['other', 404],
  ['speaker', 404],
  ['coorganizer', 200],
  ['organizer', 200],
  ['owner', 200],
  ['admin', 200],
];

t.test('who may download: buyer, organizers, coorganizers, administrators; others find nothing', async (t) => {
  const urls = [
    `/v1/orders/${placed.order.identifier}/tickets-pdf`,
    `/v1/tickets/${placed.order.identifier}`,
    `/v1/orders/attendees/${placed.holders[1]!.id}.pdf`,
    `/v1/orders/invoices/${placed.order.identifier}`,
  ];
  for (const url of urls) {
    t.equal((await download(app, url, placed.buyer.token)).status, 200, `buyer ${url}`);
    for (const [role, status] of ROLES) {
      const res = await download(app, url, tokenOf(cast, role));
      t.equal(res.status, status, `${role} ${url} -> ${status}`);
      if (status !== 200) {
        t.equal(res.headers['content-type'], 'application/vnd.api+json');
        t.equal(JSON.parse(res.body).errors[0].status, String(status));
      }
    }
  }
});

t.test('only placed and completed orders have tickets and an invoice', async (t) => {
  const open = await printed.order([['vip', 'Open', 'open@example.org']]);
  const urls = [
    `/v1/orders/${open.order.identifier}/tickets-pdf`,
    `/v1/orders/attendees/${open.holders[0]!.id}.pdf`,
    `/v1/orders/invoices/${open.order.identifier}`,
  ];
  for (const status of ['initializing', 'pending', 'cancelled', 'expired']) {
    if (status !== 'initializing') await setStatus(app, open.order.id, status);
    for (const url of urls) {
      const res = await download(app, url, open.buyer.token);
      t.equal(res.status, 409, `${status}: ${url}`);
      t.match(JSON.parse(res.body).errors[0].detail, `The order is ${status}`);
    }
  }
  t.equal((await download(app, urls[0]!, (await seedUser(app)).token)).status, 404, 'a stranger still finds nothing');
  await setStatus(app, open.order.id, 'completed');
  for (const url of urls) t.equal((await download(app, url, open.buyer.token)).status, 200, `completed: ${url}`);
});

t.test(
  "the order's tickets-pdf-url and its holders' pdf-url: absolute, while the PDFs can be downloaded",
  async (t) => {
    const order = await printed.order([
      ['vip', 'Link', 'link@example.org'],
      ['free', 'Zelda', 'zelda@example.org'],
    ]);
    const { identifier } = order.order;
    const ticketsUrl = `${PUBLIC_URL}/v1/orders/${identifier}/tickets-pdf`;
    const holderUrls = order.holders.map((h) => `${PUBLIC_URL}/v1/orders/attendees/${h.id}.pdf`);
    const read = async (token = order.buyer.token) => {
      const res = await call(app, { url: `/v1/orders/${identifier}?include=attendees`, token });
      t.equal(res.status, 200);
      return {
        tickets: res.body.data.attributes['tickets-pdf-url'] as string | null,
        holders: (res.body.included as { id: string; attributes: Record<string, unknown> }[])
          .sort((a, b) => Number(a.id) - Number(b.id))
          .map((a) => a.attributes['pdf-url']),
      };
    };
    t.same(await read(), { tickets: null, holders: [null, null] }, 'initializing: nothing to download yet');
    for (const status of ['pending', 'cancelled', 'expired']) {
      await setStatus(app, order.order.id, status);
      t.same(await read(), { tickets: null, holders: [null, null] }, `${status}: none`);
    }
    for (const status of ['placed', 'completed']) {
      await setStatus(app, order.order.id, status);
      t.same(await read(), { tickets: ticketsUrl, holders: holderUrls }, `${status}: the download routes`);
    }
    t.same(await read(cast.organizer.token), { tickets: ticketsUrl, holders: holderUrls }, 'the organizers read them');
    const one = await call(app, { url: `/v1/attendees/${order.holders[1]!.id}`, token: order.buyer.token });
    t.equal(one.body.data.attributes['pdf-url'], holderUrls[1], 'an attendee read on its own');
    const listed = await call(app, {
      url: `/v1/events/${printed.event.id}/orders?page[size]=0`,
      token: cast.owner.token,
    });
    const inList = listed.body.data.find((o: { id: string }) => o.id === order.order.id);
    t.equal(inList.attributes['tickets-pdf-url'], ticketsUrl, "in the event's list of orders too");

    // Each URL is the route that serves the PDF.
    for (const url of [ticketsUrl, ...holderUrls]) {
      const res = await download(app, url.slice(PUBLIC_URL.length), order.buyer.token);
      t.equal(res.status, 200, url);
      t.equal(res.headers['content-type'], 'application/pdf');
    }
    // Sent back unchanged they are ignored, as every read-only member; anything else is refused.
    const back = await call(app, {
      method: 'PATCH',
      url: `/v1/orders/${order.order.id}`,
      token: cast.owner.token,
      body: { data: { type: 'order', id: order.order.id, attributes: { 'tickets-pdf-url': ticketsUrl } } },
    });
    t.equal(back.status, 200, 'the value read, sent back');
    const other = await call(app, {
      method: 'PATCH',
      url: `/v1/orders/${order.order.id}`,
      token: cast.owner.token,
      body: {
        data: { type: 'order', id: order.order.id, attributes: { 'tickets-pdf-url': `${PUBLIC_URL}/elsewhere.pdf` } },
      },
    });
    assertError(t, other, 422, { pointer: '/data/attributes/tickets-pdf-url' });

    await app.sql`update attendees set deleted_at = now() where id = ${Number(order.holders[0]!.id)}`;
    const trashed = await call(app, {
      url: `/v1/attendees/${order.holders[0]!.id}?get_trashed=true`,
      token: cast.admin.token,
    });
    t.equal(trashed.status, 200);
    t.equal(trashed.body.data.attributes['pdf-url'], null, 'a deleted holder has none');
    await app.sql`update orders set deleted_at = now() where id = ${Number(order.order.id)}`;
    const gone = await call(app, { url: `/v1/orders/${order.order.id}?get_trashed=true`, token: cast.admin.token });
    t.equal(gone.status, 200);
    t.equal(gone.body.data.attributes['tickets-pdf-url'], null, 'a deleted order has none');
  },
);

t.test('an order without ticket holders has an invoice but no tickets', async (t) => {
  const empty = await printed.order([]);
  await setStatus(app, empty.order.id, 'completed');
  const res = await download(app, `/v1/orders/${empty.order.identifier}/tickets-pdf`, empty.buyer.token);
  t.equal(res.status, 409);
  t.equal(JSON.parse(res.body).errors[0].detail, 'The order has no ticket holders');
  t.equal((await download(app, `/v1/orders/invoices/${empty.order.identifier}`, empty.buyer.token)).status, 200);
});

t.test('bad input: unknown, deleted and malformed names are 4xx error documents, never a 500', async (t) => {
  const token = placed.buyer.token;
  const nothing = '00000000-0000-4000-8000-000000000000';
  const cases: [string, number, string?][] = [
    [`/v1/orders/${nothing}/tickets-pdf`, 404],
    [`/v1/orders/${'x'.repeat(65)}/tickets-pdf`, 400, 'identifier'],
    [`/v1/orders/a%00b/tickets-pdf`, 404],
    [`/v1/orders/${encodeURIComponent("' or 1=1 --")}/tickets-pdf`, 404],
    [`/v1/orders/${placed.order.identifier.toUpperCase()}/tickets-pdf`, 404],
    [`/v1/tickets/${nothing}`, 404],
    ['/v1/orders/attendees/0.pdf', 404],
    ['/v1/orders/attendees/4294967296.pdf', 404],
    ['/v1/orders/attendees/12345678901.pdf', 400, 'attendee_id'],
    ['/v1/orders/attendees/-1.pdf', 400, 'attendee_id'],
    ['/v1/orders/attendees/1x.pdf', 400, 'attendee_id'],
    ['/v1/orders/invoices/nothing', 404],
    [`/v1/orders/invoices/${'x'.repeat(65)}`, 400, 'identifier'],
    ['/v1/orders/invoices/a%00b', 404],
    [`/v1/orders/invoices/${encodeURIComponent('Ωμέγα')}`, 404],
  ];
  for (const [url, status, parameter] of cases)
    assertError(t, await callJson(url, token), status, parameter ? { parameter } : undefined);
  const posted = await app.inject({ method: 'POST', url: `/v1/orders/invoices/${placed.order.identifier}` });
  t.ok(posted.statusCode >= 400 && posted.statusCode < 500, `POST: ${posted.statusCode}`);
  const gone = await printed.order([['free', 'Gone', 'gone@example.org']]);
  await setStatus(app, gone.order.id, 'completed');
  await app.sql`update orders set deleted_at = now() where id = ${Number(gone.order.id)}`;
  assertError(t, await callJson(`/v1/orders/${gone.order.identifier}/tickets-pdf`, gone.buyer.token), 404);
  assertError(t, await callJson(`/v1/orders/attendees/${gone.holders[0]!.id}.pdf`, gone.buyer.token), 404);
  const left = await printed.order([['free', 'Left', 'left@example.org']]);
  await setStatus(app, left.order.id, 'completed');
  await app.sql`update attendees set deleted_at = now() where id = ${Number(left.holders[0]!.id)}`;
  assertError(t, await callJson(`/v1/orders/attendees/${left.holders[0]!.id}.pdf`, left.buyer.token), 404);
});

async function callJson(url: string, token: string) {
  const res = await download(app, url, token);
  return { status: res.status, headers: res.headers, body: JSON.parse(res.body) };
}

t.test('fifty tickets render in well under a second, one page each', async (t) => {
  const many = await printed.order(
    Array.from({ length: 50 }, (_, i) => ['vip', `Guest${i}`, `guest${i}@example.org`] as ['vip', string, string]),
  );
  await setStatus(app, many.order.id, 'completed');
  const started = performance.now();
  const res = await download(app, `/v1/orders/${many.order.identifier}/tickets-pdf`, many.buyer.token);
  const ms = Math.round(performance.now() - started);
  t.equal(res.status, 200);
  t.comment(`50 tickets: ${ms} ms, ${res.bytes.length} bytes`);
  const pages = await readPdf(res.bytes);
  t.equal(pages.length, 50);
  t.same(
    pages.map((p) => p.qr),
    many.holders.map((h) => h.identifier),
  );
});

t.test('the amounts: discounts, fees, tax included or added, donations on lines of their own', async (t) => {
  const holder = (over: Partial<Parameters<typeof orderAmounts>[0][number]> = {}) => ({
    ticketId: 1,
    ticketName: 'Standard',
    ticketType: 'paid',
    isFeeAbsorbed: false,
    price: 50,
    isDiscountApplied: false,
    ...over,
  });
  const plain = orderAmounts([holder(), holder()], { discount: null, tax: null, fee: null });
  t.same([plain.lines.length, plain.lines[0]!.quantity, plain.subTotal, plain.total], [1, 2, 100, 100]);

  const amount = orderAmounts([holder({ isDiscountApplied: true }), holder()], {
    discount: { code: 'TEN', type: 'amount', value: 10 },
    tax: { name: 'VAT', rate: 10, included: true },
    fee: { serviceFee: 5, maximumFee: 3 },
  });
  const line = amount.lines[0]!;
  t.same(line.discount, { code: 'TEN', type: 'amount', percent: 20, amount: 10, total: 10 });
  t.equal(line.fee, 3, 'the fee is 5% of 100, at most 3');
  t.equal(line.subTotal, 93, '3 + 40 + 50');
  t.equal(amount.tax!.amount, 8.45, 'the tax included in 93');
  t.equal(amount.total, 93);

  const added = orderAmounts([holder({ isFeeAbsorbed: true })], {
    discount: null,
    tax: { name: 'GST', rate: 7.5, included: false },
    fee: { serviceFee: 5, maximumFee: 3 },
  });
  t.same([added.lines[0]!.fee, added.tax!.amount, added.total], [0, 3.75, 53.75], 'an absorbed fee, a tax added');

  const donations = orderAmounts(
    [
      holder({ ticketType: 'donation', price: 5 }),
      holder({ ticketType: 'donation', price: 25 }),
      holder({ ticketId: 2, ticketType: 'free', price: 30, isDiscountApplied: true }),
    ],
    { discount: { code: 'ALL', type: 'percent', value: 100 }, tax: null, fee: null },
  );
  t.same(
    donations.lines.map((l) => [l.price, l.quantity, l.subTotal, l.discount]),
    [
      [5, 1, 5, null],
      [25, 1, 25, null],
      [0, 1, 0, null],
    ],
    'a donation line per amount; a free ticket costs nothing and takes no discount',
  );
});

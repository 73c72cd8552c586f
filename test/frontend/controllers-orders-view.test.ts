/**
 * The order page's downloads (app/controllers/orders/view.js:39-99): `downloadInvoice` fetches
 * `/orders/invoices/{order identifier}` and `downloadTickets` `/tickets/{order identifier}` through
 * loader.downloadFile (app/services/loader.ts:201-225): an XMLHttpRequest from the front end's origin with the
 * adapter's headers (its token, Accept: application/vnd.api+json) and `responseType: 'blob'`, saved as
 * `{event}-Invoice-{order}.pdf` and `{event}-Tickets-{order}.pdf`. The blob must be the PDF itself, readable across
 * origins.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { createCast } from '../helpers/events.js';
import { listening } from '../helpers/front-end-client.js';
import { download, EVENT_NAME, printedOrder } from '../helpers/order-documents.js';
import { readPdf } from '../helpers/pdf.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const order = await printedOrder(app, cast, 'completed');

t.test('downloadInvoice: the invoice PDF, readable by the front end', async (t) => {
  const res = await download(base, `/v1/orders/invoices/${order.order.identifier}`, order.buyer.token);
  t.equal(res.status, 200);
  t.equal(res.headers['content-type'], 'application/pdf');
  t.equal(res.headers['access-control-allow-origin'], '*', 'the blob is readable from any origin (CORS_ORIGINS)');
  const [page] = await readPdf(res.bytes);
  t.match(page!.text, 'Invoice');
  t.match(page!.text, `Ticket: VIP for ${EVENT_NAME}`);
  t.match(page!.text, 'Total EUR 95.20');
});

t.test('downloadTickets: every ticket of the order, each QR code its holder', async (t) => {
  const res = await download(base, `/v1/tickets/${order.order.identifier}`, order.buyer.token);
  t.equal(res.status, 200);
  t.equal(res.headers['content-type'], 'application/pdf');
  t.equal(res.headers['access-control-allow-origin'], '*');
  const pages = await readPdf(res.bytes);
  t.same(
    pages.map((p) => p.qr),
    order.holders.map((h) => h.identifier),
  );
  t.match(pages[0]!.text, 'Ada Tester');
  t.match(pages[1]!.text, 'Grace Tester');
});

t.test("the organizer's copy, and nothing for a stranger (the page's catch shows an error)", async (t) => {
  t.equal((await download(base, `/v1/tickets/${order.order.identifier}`, cast.organizer.token)).status, 200);
  const stranger = await download(base, `/v1/orders/invoices/${order.order.identifier}`, cast.other.token);
  t.equal(stranger.status, 404);
  t.equal(JSON.parse(stranger.bytes.toString()).errors[0].status, '404');
});

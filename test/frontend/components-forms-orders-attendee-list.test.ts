/**
 * The ticket holders of an order page (app/components/forms/orders/attendee-list.js:167-190):
 * `downloadTicketForAttendee` fetches `/orders/attendees/{attendee id}.pdf` through loader.downloadFile (the
 * adapter's headers and token, from the front end's origin) and saves `{event}-Ticket-{order}-{attendee}.pdf`.
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
const order = await printedOrder(app, cast, 'placed');

t.test(
  "downloadTicketForAttendee: one holder's ticket with its QR code, for the buyer and the organizers",
  async (t) => {
    for (const [i, holder] of order.holders.entries()) {
      for (const token of [order.buyer.token, cast.organizer.token]) {
        const res = await download(base, `/v1/orders/attendees/${holder.id}.pdf`, token);
        t.equal(res.status, 200);
        t.equal(res.headers['content-type'], 'application/pdf');
        t.equal(res.headers['access-control-allow-origin'], '*');
        const pages = await readPdf(res.bytes);
        t.equal(pages.length, 1);
        t.equal(pages[0]!.qr, holder.identifier);
        t.match(pages[0]!.text, holder.name);
        t.match(pages[0]!.text, EVENT_NAME);
        t.match(pages[0]!.text, i === 0 ? 'VIP' : 'Community');
      }
    }
  },
);

t.test('the holder of the ticket downloads their own, not the others', async (t) => {
  const [own, other] = order.holders;
  t.equal((await download(base, `/v1/orders/attendees/${own!.id}.pdf`, order.holderUser.token)).status, 200);
  t.equal((await download(base, `/v1/orders/attendees/${other!.id}.pdf`, order.holderUser.token)).status, 404);
  t.equal((await download(base, `/v1/orders/attendees/${other!.id}.pdf`, cast.other.token)).status, 404);
});

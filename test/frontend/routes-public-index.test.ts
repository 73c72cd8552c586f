/**
 * open-event-frontend app/routes/public.js:17 loads the event with include=...speakers-call,tax,...;
 * app/routes/public/index.js:17-54 then lists the event's tickets on sale (filter on sales-starts-at and
 * sales-ends-at, cache=true, public=true, page[size]=0: anonymous) and reads the tax. Hidden tickets
 * are not for the public (the reference lists them to organizers only); the invoicing details of the
 * tax stay with the organizers.
 */
import t from 'tap';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { startForFrontEnd } from '../helpers/front-end-auth.js';
import { speakersCallAttributes, taxAttributes, ticketAttributes } from '../helpers/ticket-bodies.js';

const { apiHost, app } = await startForFrontEnd(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Public Conf', 'published');
const of = { event: rel('event', event.id) };
const token = cast.owner.token;
const onSale = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'On sale' }), of);
const hidden = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Crew', 'is-hidden': true }), of);
await create(
  app,
  token,
  'tickets',
  'ticket',
  ticketAttributes({
    name: 'Later',
    'sales-starts-at': '2031-01-01T00:00:00.000Z',
    'sales-ends-at': '2031-02-01T00:00:00.000Z',
  }),
  of,
);
await create(app, token, 'taxes', 'tax', taxAttributes({ 'tax-id': 'DE999', 'contact-name': 'Ann' }), of);
await create(app, token, 'speakers-calls', 'speakers-call', speakersCallAttributes({ privacy: 'private' }), of);

const now = new Date().toISOString();
const ticketQuery = {
  filter: [
    {
      and: [
        { name: 'sales-starts-at', op: 'le', val: now },
        { name: 'sales-ends-at', op: 'ge', val: now },
      ],
    },
  ],
  cache: true,
  public: true,
  'page[size]': 0,
};

t.test('the public page: event with speakers-call and tax, tickets on sale without the hidden one', async (t) => {
  for (const who of [undefined, cast.other.token]) {
    const client = frontEnd(apiHost, who);
    const page = await client.adapter('GET', `/v1/events/${event.identifier}`, {
      query: { include: 'social-links,event-copyright,speakers-call,tax,owner,organizers,custom-forms' },
    });
    t.equal(page.status, 200, JSON.stringify(page.body.errors ?? ''));
    const call = page.body.included.find((r: { type: string }) => r.type === 'speakers-call');
    t.equal(call.attributes.privacy, 'private');
    const tax = page.body.included.find((r: { type: string }) => r.type === 'tax');
    t.match(tax.attributes, { name: 'VAT', rate: 19, 'is-tax-included-in-price': false });
    t.notOk('tax-id' in tax.attributes || 'contact-name' in tax.attributes, 'no invoicing details for the public');

    const tickets = await client.adapter('GET', `/v1/events/${event.id}/tickets`, { query: ticketQuery });
    t.equal(tickets.status, 200);
    t.same(
      tickets.body.data.map((d: { id: string }) => d.id),
      [onSale],
      'on sale now, hidden one left out',
    );
    t.equal(tickets.body.meta.count, 1);
    const direct = await client.adapter('GET', `/v1/tickets/${hidden}`, { query: { public: true } });
    t.equal(direct.status, 404, 'a hidden ticket does not exist for strangers');
  }
  const organizer = await frontEnd(apiHost, cast.organizer.token).adapter('GET', `/v1/events/${event.id}/tickets`, {
    query: { 'page[size]': 0 },
  });
  t.equal(organizer.body.data.length, 3, 'organizers list every ticket, hidden ones too');
  const tax = await frontEnd(apiHost, cast.coorganizer.token).adapter('GET', `/v1/events/${event.id}/tax`);
  t.equal(tax.body.data.attributes['tax-id'], 'DE999', 'coorganizers read the invoicing details');
});

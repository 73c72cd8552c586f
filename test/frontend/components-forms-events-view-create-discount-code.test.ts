/**
 * open-event-frontend:app/components/forms/events/view/create-discount-code.js with the routes and controllers of
 * app/routes/events/view/tickets/discount-codes/{create,edit}.js and app/controllers/.../discount-codes/{create,
 * edit,list}.js: an organizer creates a ticket discount code for some paid tickets (the form offers paid tickets
 * only), opens it again by id, edits it, toggles it from the list (the whole record saved again, created-at
 * included) and deletes it. The server judges what the form checks too (min and max quantity, tickets-number) and
 * what it cannot (the tickets' event and price, a percent above 100, the same code twice whatever its case).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { accessCodeDocument, discountCodeDocument } from '../helpers/code-bodies.js';
import { createCast, createEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { createTicket } from '../helpers/tickets.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Code Conf', 'published');
const { id: otherEvent } = await createEvent(app, cast, 'Other Conf', 'published');
const token = cast.owner.token;
const paid = await createTicket(app, token, event, { name: 'Paid', type: 'paid', price: 20 });
const cheap = await createTicket(app, token, event, { name: 'Cheap', type: 'paid', price: 3 });
const free = await createTicket(app, token, event, { name: 'Free' });
const foreign = await createTicket(app, token, otherEvent, { name: 'Elsewhere', type: 'paid', price: 50 });
const organizer = frontEnd(base, cast.organizer.token);

let id = '';

t.test('the create page saves the code with its tickets; the organizer is its marketer', async (t) => {
  // The create route loads the event's tickets first (events.view model's query('tickets', {})).
  const tickets = await organizer.adapter('GET', `/v1/events/${event}/tickets`);
  t.equal(tickets.status, 200);
  const body = discountCodeDocument({ event, marketer: cast.organizer.id, tickets: [paid] });
  const res = await organizer.adapter('POST', '/v1/discount-codes', { body });
  t.equal(res.status, 201, JSON.stringify(res.body?.errors));
  id = res.body.data.id;
  t.equal(res.headers.get('location'), `/v1/discount-codes/${id}`);
  t.match(res.body.data, {
    type: 'discount-code',
    attributes: {
      code: 'EARLY_BIRD',
      type: 'amount',
      value: 5,
      'tickets-number': 10,
      'min-quantity': 1,
      'max-quantity': 1,
      'used-for': 'ticket',
      'is-active': true,
      'deleted-at': null,
    },
    relationships: {
      event: { data: { type: 'event', id: event } },
      marketer: { data: { type: 'user', id: cast.organizer.id } },
    },
  });
  t.type(res.body.data.attributes['created-at'], 'string');
});

t.test('the edit page reads it by id with its tickets, and saves it back', async (t) => {
  const read = await organizer.adapter('GET', `/v1/discount-codes/${id}`);
  t.equal(read.status, 200);
  const related = await organizer.adapter('GET', read.body.data.relationships.tickets.links.related);
  t.strictSame(
    related.body.data.map((d: { id: string }) => d.id),
    [paid],
  );
  const attributes = { ...read.body.data.attributes, value: 2.5 };
  delete attributes['deleted-at'];
  const body = discountCodeDocument({ id, event, marketer: cast.organizer.id, tickets: [paid, cheap], attributes });
  const res = await organizer.adapter('PATCH', `/v1/discount-codes/${id}`, { body });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.equal(res.body.data.attributes.value, 2.5);
  const linkage = await organizer.adapter('GET', `/v1/discount-codes/${id}/relationships/tickets`);
  t.strictSame(linkage.body.data.map((d: { id: string }) => d.id).sort(), [paid, cheap].sort());
});

t.test('the list toggles it: the whole record again, is-active flipped', async (t) => {
  const list = await organizer.adapter('GET', `/v1/events/${event}/discount-codes`, {
    query: { filter: [], 'page[size]': 10, 'page[number]': 1 },
  });
  const record = list.body.data.find((d: { id: string }) => d.id === id);
  const attributes = { ...record.attributes, 'is-active': false };
  delete attributes['deleted-at'];
  const res = await organizer.adapter('PATCH', `/v1/discount-codes/${id}`, {
    body: {
      data: {
        id,
        type: 'discount-code',
        attributes,
        relationships: {
          event: { data: { type: 'event', id: event } },
          marketer: { data: record.relationships.marketer.data },
        },
      },
    },
  });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.equal(res.body.data.attributes['is-active'], false);
});

t.test('what the form cannot check, the server refuses (422 with a pointer)', async (t) => {
  const cases: [string, Parameters<typeof discountCodeDocument>[0], string, RegExp][] = [
    ['a free ticket', { event, marketer: cast.organizer.id, tickets: [free] }, '/data/relationships/tickets', /free/],
    [
      'a ticket of another event',
      { event, marketer: cast.organizer.id, tickets: [foreign] },
      '/data/relationships/tickets',
      /event/,
    ],
    [
      'an amount above a ticket price',
      { event, marketer: cast.organizer.id, tickets: [cheap], attributes: { code: 'BIG', value: 4 } },
      '/data/attributes/value',
      /more than the price/,
    ],
    [
      'a percent above 100',
      { event, marketer: cast.organizer.id, tickets: [paid], attributes: { code: 'P', type: 'percent', value: 101 } },
      '/data/attributes/value',
      /percent/,
    ],
    [
      'min-quantity above max-quantity',
      {
        event,
        marketer: cast.organizer.id,
        tickets: [paid],
        attributes: { code: 'Q', 'min-quantity': 3, 'max-quantity': 2 },
      },
      '/data/attributes/min-quantity',
      /min-quantity/,
    ],
    [
      'tickets-number below max-quantity',
      {
        event,
        marketer: cast.organizer.id,
        tickets: [paid],
        attributes: { code: 'N', 'tickets-number': 1, 'max-quantity': 5 },
      },
      '/data/attributes/tickets-number',
      /tickets-number/,
    ],
    [
      'valid-till before valid-from',
      {
        event,
        marketer: cast.organizer.id,
        tickets: [paid],
        attributes: { code: 'D', 'valid-from': '2030-01-02T00:00:00Z', 'valid-till': '2030-01-01T00:00:00Z' },
      },
      '/data/attributes/valid-till',
      /valid-till/,
    ],
    [
      'a code with a space',
      { event, marketer: cast.organizer.id, tickets: [paid], attributes: { code: 'TWO WORDS' } },
      '/data/attributes/code',
      /./,
    ],
  ];
  for (const [label, doc, pointer, detail] of cases) {
    const res = await organizer.adapter('POST', '/v1/discount-codes', { body: discountCodeDocument(doc) });
    t.equal(res.status, 422, label);
    t.match(res.body.errors?.[0], { status: '422', source: { pointer }, detail }, label);
  }
  const [{ n }] = await app.sql<{ n: number }[]>`select count(*)::int as n from discount_codes`;
  t.equal(n, 1, 'nothing was written');
});

t.test('a code is unique in its event whatever its case; another event may have it', async (t) => {
  const same = discountCodeDocument({
    event,
    marketer: cast.organizer.id,
    tickets: [paid],
    attributes: { code: 'early_bird' },
  });
  const res = await organizer.adapter('POST', '/v1/discount-codes', { body: same });
  t.equal(res.status, 409);
  t.match(res.body.errors[0], { source: { pointer: '/data/attributes/code' } });
  const elsewhere = discountCodeDocument({ event: otherEvent, marketer: cast.organizer.id, tickets: [foreign] });
  t.equal((await organizer.adapter('POST', '/v1/discount-codes', { body: elsewhere })).status, 201);
});

t.test('the use of a code never changes; an access code body is not a discount code', async (t) => {
  const res = await organizer.adapter('PATCH', `/v1/discount-codes/${id}`, {
    body: { data: { id, type: 'discount-code', attributes: { 'used-for': 'event' } } },
  });
  t.equal(res.status, 409);
  const wrong = accessCodeDocument({ event, marketer: cast.organizer.id, tickets: [] });
  t.equal((await organizer.adapter('POST', '/v1/discount-codes', { body: wrong })).status, 409);
});

t.test('the list deletes it; it is gone for everyone', async (t) => {
  const res = await organizer.adapter('DELETE', `/v1/discount-codes/${id}`);
  t.equal(res.status, 200);
  t.strictSame(res.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  t.equal((await organizer.adapter('GET', `/v1/discount-codes/${id}`)).status, 404);
  // A deleted code's text is free again.
  const again = discountCodeDocument({ event, marketer: cast.organizer.id, tickets: [paid] });
  t.equal((await organizer.adapter('POST', '/v1/discount-codes', { body: again })).status, 201);
});

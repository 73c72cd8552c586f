/**
 * open-event-frontend:app/components/forms/events/view/create-access-code.js with the routes and controllers of
 * app/routes/events/view/tickets/access-codes/{create,edit,list}.js: a coorganizer creates an access code for hidden
 * tickets (the form offers hidden ones only), reads it by id and its tickets, edits it, toggles it from the list and
 * deletes it. The server refuses a public ticket, a ticket of another event, min above max and a second code of the
 * same text.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { accessCodeDocument } from '../helpers/code-bodies.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Access Conf', 'published');
const { id: otherEvent } = await createEvent(app, cast, 'Other Access Conf', 'published');
const token = cast.owner.token;
const of = { event: rel('event', event) };
const open = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Open' }), of);
const crew = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'Crew', 'is-hidden': true }), of);
const elsewhere = await create(app, token, 'tickets', 'ticket', ticketAttributes({ name: 'X', 'is-hidden': true }), {
  event: rel('event', otherEvent),
});
const co = frontEnd(base, cast.coorganizer.token);
let id = '';

t.test('the create page saves the code for hidden tickets; the creator is its marketer', async (t) => {
  // The create route loads every ticket of the event (page[size]=0), hidden ones included for its team.
  const tickets = await co.adapter('GET', `/v1/events/${event}/tickets`, { query: { 'page[size]': 0 } });
  t.strictSame(
    tickets.body.data.map((d: { id: string }) => d.id),
    [open, crew],
  );
  const res = await co.adapter('POST', '/v1/access-codes', {
    body: accessCodeDocument({ event, marketer: cast.coorganizer.id, tickets: [crew] }),
  });
  t.equal(res.status, 201, JSON.stringify(res.body?.errors));
  id = res.body.data.id;
  t.match(res.body.data, {
    attributes: { code: 'CREW', 'is-active': true, 'tickets-number': 10, 'min-quantity': 1, 'max-quantity': 1 },
    relationships: { marketer: { data: { type: 'user', id: cast.coorganizer.id } } },
  });
});

t.test('the edit page reads it and its tickets, and saves it back', async (t) => {
  const read = await co.adapter('GET', `/v1/access-codes/${id}`);
  t.equal(read.status, 200);
  const tickets = await co.adapter('GET', `/v1/access-codes/${id}/tickets`);
  t.strictSame(
    tickets.body.data.map((d: { id: string }) => d.id),
    [crew],
  );
  const res = await co.adapter('PATCH', `/v1/access-codes/${id}`, {
    body: accessCodeDocument({
      id,
      event,
      marketer: cast.coorganizer.id,
      tickets: [crew],
      attributes: { 'max-quantity': 5, 'valid-till': '2099-01-01T00:00:00.000Z' },
    }),
  });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.equal(res.body.data.attributes['max-quantity'], 5);
});

t.test('the list (active tab) finds it, toggles it and deletes it', async (t) => {
  const now = new Date().toISOString();
  const active = [
    {
      and: [
        { name: 'valid_till', op: 'ge', val: now },
        { name: 'is-active', op: 'eq', val: true },
      ],
    },
  ];
  const list = await co.adapter('GET', `/v1/events/${event}/access-codes`, {
    query: { filter: active, 'page[size]': 10, 'page[number]': 1 },
  });
  t.equal(list.status, 200);
  t.strictSame(
    list.body.data.map((d: { id: string }) => d.id),
    [id],
  );
  const record = list.body.data[0];
  const attributes = { ...record.attributes, 'is-active': false };
  delete attributes['deleted-at'];
  delete attributes['created-at'];
  const toggled = await co.adapter('PATCH', `/v1/access-codes/${id}`, {
    body: {
      data: { id, type: 'access-code', attributes, relationships: { event: { data: { type: 'event', id: event } } } },
    },
  });
  t.equal(toggled.status, 200);
  const inactive = [
    {
      and: [
        { name: 'valid_till', op: 'ge', val: now },
        { name: 'is-active', op: 'eq', val: false },
      ],
    },
  ];
  const tab = await co.adapter('GET', `/v1/events/${event}/access-codes`, { query: { filter: inactive } });
  t.equal(tab.body.meta.count, 1);
  t.equal((await co.adapter('DELETE', `/v1/access-codes/${id}`)).status, 200);
  t.equal((await co.adapter('GET', `/v1/access-codes/${id}`)).status, 404);
});

t.test('what the server refuses (422 with a pointer, 409 for the same code)', async (t) => {
  const doc = (tickets: string[], attributes: Record<string, unknown> = {}) =>
    accessCodeDocument({ event, marketer: cast.coorganizer.id, tickets, attributes });
  const cases: [string, ReturnType<typeof doc>, number, string][] = [
    ['a public ticket', doc([open], { code: 'A' }), 422, '/data/relationships/tickets'],
    ['a ticket of another event', doc([elsewhere], { code: 'B' }), 422, '/data/relationships/tickets'],
    [
      'min above max',
      doc([crew], { code: 'C', 'min-quantity': 4, 'max-quantity': 2 }),
      422,
      '/data/attributes/min-quantity',
    ],
  ];
  for (const [label, body, status, pointer] of cases) {
    const res = await co.adapter('POST', '/v1/access-codes', { body });
    t.equal(res.status, status, label);
    t.match(res.body.errors[0].source, { pointer }, label);
  }
  t.equal((await co.adapter('POST', '/v1/access-codes', { body: doc([crew], { code: 'SAME' }) })).status, 201);
  const twice = await co.adapter('POST', '/v1/access-codes', { body: doc([crew], { code: 'same' }) });
  t.equal(twice.status, 409);
  const outsider = frontEnd(base, cast.other.token);
  const body = accessCodeDocument({ event, marketer: cast.other.id, tickets: [crew], attributes: { code: 'OUT' } });
  t.equal((await outsider.adapter('POST', '/v1/access-codes', { body })).status, 403);
});

/**
 * open-event-frontend order flow: app/routes/orders/new.js:14-33 loads the order with
 * include=attendees,event, queries its tickets and each ticket's attendees filtered on the order;
 * app/controllers/orders/new.js:23-32 saves every attendee (full body, app/models/attendee.js) and then
 * the order, whose serializer always adds relationships.attendees (app/serializers/order.js:37-48; an empty list
 * when it read the holders through a link, as in Chromium).
 * The ticket holders come from the public page's order (here created as the buyer would through
 * POST /v1/attendees, naming the order). Order attributes other than this service's own are fe-records'
 * slice; the buyer's status change is the order policy's (both out of this file's scope).
 */
import t from 'tap';
import { call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { startForFrontEnd } from '../helpers/front-end-auth.js';
import { seedUser } from '../helpers/users.js';
import { attendeeAttributes, linkage, ticketAttributes } from '../helpers/ticket-bodies.js';

const { apiHost, app } = await startForFrontEnd(t);
const cast = await createCast(app);
const buyer = await seedUser(app);
const event = await createEvent(app, cast, 'Order Conf', 'published');
const of = { event: rel('event', event.id) };
const standard = await create(app, cast.owner.token, 'tickets', 'ticket', ticketAttributes({ name: 'Standard' }), of);
const vip = await create(app, cast.owner.token, 'tickets', 'ticket', ticketAttributes({ name: 'VIP' }), of);
const order = await create(app, buyer.token, 'orders', 'order', { amount: 0 }, of);
const identifier = (await call(app, { url: `/v1/orders/${order}`, token: buyer.token })).body.data.attributes
  .identifier as string;
const client = frontEnd(apiHost, buyer.token);

const holder = (ticket: string, over: Record<string, unknown> = {}) => ({
  data: {
    type: 'attendee',
    attributes: attendeeAttributes(over),
    relationships: {
      event: linkage('event', event.id),
      order: linkage('order', order),
      ticket: linkage('ticket', ticket),
    },
  },
});

t.test('the buyer adds ticket holders to the open order; the order reads them with its tickets', async (t) => {
  const a = await client.adapter('POST', '/v1/attendees', {
    body: holder(standard, { firstname: 'Ada', lastname: 'L', email: 'ada@example.org' }),
  });
  t.equal(a.status, 201, JSON.stringify(a.body.errors ?? ''));
  const b = await client.adapter('POST', '/v1/attendees', { body: holder(vip) });
  t.equal(b.status, 201);
  const c = await client.adapter('POST', '/v1/attendees', { body: holder(vip) });
  const ids = [a.body.data.id, b.body.data.id, c.body.data.id];

  const read = await client.adapter('GET', `/v1/orders/${identifier}`, { query: { include: 'attendees,event' } });
  t.equal(read.status, 200, JSON.stringify(read.body.errors ?? ''));
  t.same(
    read.body.data.relationships.attendees.data.map((d: { id: string }) => d.id),
    ids,
  );
  t.equal(read.body.included.filter((r: { type: string }) => r.type === 'attendee').length, 3);

  const tickets = await client.adapter('GET', `/v1/orders/${identifier}/tickets`);
  t.same(tickets.body.data.map((d: { id: string }) => d.id).sort(), [standard, vip].sort(), 'each ticket once');
  const holders = await client.adapter('GET', `/v1/tickets/${vip}/attendees`, {
    query: { filter: [{ name: 'order', op: 'has', val: { name: 'id', op: 'eq', val: order } }] },
  });
  t.equal(holders.status, 200, JSON.stringify(holders.body.errors ?? ''));
  t.same(
    holders.body.data.map((d: { id: string }) => d.id),
    [b.body.data.id, c.body.data.id],
  );

  const both = await client.adapter('GET', `/v1/orders/${identifier}`, { query: { include: 'attendees,tickets' } });
  t.same(both.body.data.relationships.tickets.data.map((d: { id: string }) => d.id).sort(), [standard, vip].sort());
});

t.test('save(): every attendee PATCHed with its full body, then the order with relationships.attendees', async (t) => {
  const list = (await client.adapter('GET', `/v1/orders/${identifier}/attendees`)).body.data as {
    id: string;
    attributes: Record<string, unknown>;
  }[];
  for (const [i, a] of list.entries()) {
    const attributes = {
      ...attendeeAttributes({
        firstname: `Holder ${i}`,
        lastname: 'X',
        email: `h${i}@example.org`,
        'same-as-buyer': i === 0,
      }),
      'pdf-url': a.attributes['pdf-url'],
    };
    const res = await client.adapter('PATCH', `/v1/attendees/${a.id}`, {
      body: {
        data: {
          type: 'attendee',
          id: a.id,
          attributes,
          relationships: { event: linkage('event', event.id), order: linkage('order', order) },
        },
      },
    });
    t.equal(res.status, 200, JSON.stringify(res.body.errors ?? ''));
    t.equal(res.body.data.attributes.firstname, `Holder ${i}`);
  }
  const attendees = { data: list.map((a) => ({ type: 'attendee', id: a.id })) };
  const saved = await client.adapter('PATCH', `/v1/orders/${order}`, {
    body: {
      data: {
        type: 'order',
        id: order,
        attributes: { amount: 0, 'payment-mode': 'free' },
        relationships: { event: linkage('event', event.id), attendees },
      },
    },
  });
  t.equal(saved.status, 200, JSON.stringify(saved.body.errors ?? ''));
  // In Chromium the serializer finds no holders loaded as linkage (it read them through a link) and sends an empty list.
  const unloaded = await client.adapter('PATCH', `/v1/orders/${order}`, {
    body: { data: { type: 'order', id: order, relationships: { attendees: { data: [] } } } },
  });
  t.equal(unloaded.status, 200, 'an empty list is linkage the front end never loaded: ignored');
  const kept = await client.adapter('GET', `/v1/orders/${identifier}/attendees`);
  t.equal(kept.body.data.length, list.length, 'the holders stay');
  const other = await client.adapter('PATCH', `/v1/orders/${order}`, {
    body: { data: { type: 'order', id: order, relationships: { attendees: { data: attendees.data.slice(1) } } } },
  });
  t.equal(other.status, 422, 'the holders name their order, not the other way round');
  t.equal(other.body.errors[0].source.pointer, '/data/relationships/attendees');
});

t.test('check-in is for organizers; closed orders are theirs; strangers see no holders', async (t) => {
  const [first] = (await client.adapter('GET', `/v1/orders/${identifier}/attendees`)).body.data as { id: string }[];
  const checkIn = {
    data: {
      type: 'attendee',
      id: first!.id,
      attributes: { 'is-checked-in': true, 'checkin-times': '2030-05-01T09:00:00Z' },
    },
  };
  t.equal(
    (await client.adapter('PATCH', `/v1/attendees/${first!.id}`, { body: checkIn })).status,
    403,
    'not by the buyer',
  );
  t.equal(
    (await frontEnd(apiHost, cast.coorganizer.token).adapter('PATCH', `/v1/attendees/${first!.id}`, { body: checkIn }))
      .status,
    200,
    'by a coorganizer',
  );
  const stranger = frontEnd(apiHost, cast.other.token);
  t.equal((await stranger.adapter('GET', `/v1/attendees/${first!.id}`)).status, 403);
  t.equal((await stranger.adapter('GET', '/v1/attendees')).body.data.length, 0);
  t.equal(
    (await stranger.adapter('GET', `/v1/events/${event.id}/attendees`)).status,
    403,
    "an event's holders are its organizers'",
  );
  t.equal(
    (await frontEnd(apiHost, cast.organizer.token).adapter('GET', `/v1/events/${event.id}/attendees`)).body.data.length,
    3,
  );
  t.equal(
    (await stranger.adapter('POST', '/v1/attendees', { body: holder(standard) })).status,
    403,
    'not to an order of someone else',
  );
  await call(app, {
    method: 'PATCH',
    url: `/v1/orders/${order}`,
    token: cast.owner.token,
    body: { data: { type: 'order', id: order, attributes: { status: 'completed' } } },
  });
  t.equal(
    (await client.adapter('POST', '/v1/attendees', { body: holder(standard) })).status,
    403,
    'the order is completed',
  );
  const late = { data: { type: 'attendee', id: first!.id, attributes: { firstname: 'Late' } } };
  t.equal(
    (await client.adapter('PATCH', `/v1/attendees/${first!.id}`, { body: late })).status,
    403,
    'no edits after completion',
  );
});

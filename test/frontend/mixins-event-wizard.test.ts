/**
 * open-event-frontend app/mixins/event-wizard.js:69-141 (saveEventData): after the event, the wizard saves
 * each ticket (maxOrder clamped to quantity, :94-97), the tax when tax is enabled (:106-114), the Stripe
 * authorization only when one has an auth code and Stripe is chosen (:116-123); the speakers call comes
 * from app/routes/events/view/edit/sessions-speakers.js:54. The organizer dashboard then reads the event
 * with include=...,tax,...,stripe-authorization (app/routes/events/view.js:17) and PATCHes it back with
 * its belongsTo linkage (app/serializers/application.js:30-35).
 */
import t from 'tap';
import { createCast, createEvent } from '../helpers/events.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { startForFrontEnd } from '../helpers/front-end-auth.js';
import { linkage, speakersCallAttributes, taxAttributes, ticketAttributes } from '../helpers/ticket-bodies.js';

const { apiHost, app } = await startForFrontEnd(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Wizard Conf', 'draft');
const owner = frontEnd(apiHost, cast.owner.token);
const ofEvent = { event: linkage('event', event.id) };

t.test(
  'tickets: a new ticket goes out with every attribute and an empty orders list; an update sends it back',
  async (t) => {
    // A new record's many-to-many `orders` (inverse of order.tickets) is serialised as an empty list.
    const body = {
      data: {
        type: 'ticket',
        attributes: ticketAttributes({ name: 'Early bird', quantity: 50 }),
        relationships: { ...ofEvent, orders: { data: [] } },
      },
    };
    const created = await owner.adapter('POST', '/v1/tickets', { body });
    t.equal(created.status, 201, JSON.stringify(created.body.errors ?? ''));
    const ticket = created.body.data;
    t.match(ticket.attributes, {
      name: 'Early bird',
      type: 'free',
      quantity: 50,
      'min-order': 1,
      'max-order': 10,
      'is-fee-absorbed': true,
      'form-id': '',
      'badge-id': '',
    });
    t.equal(ticket.relationships.event.data.id, event.id);

    const paid = await owner.adapter('POST', '/v1/tickets', {
      body: {
        data: {
          type: 'ticket',
          attributes: ticketAttributes({ name: 'Paid', type: 'paid', price: 25.5, quantity: 5, 'max-order': 5 }),
          relationships: ofEvent,
        },
      },
    });
    t.equal(paid.status, 201);
    t.equal(paid.body.data.attributes.price, 25.5);

    const update = {
      data: {
        type: 'ticket',
        id: ticket.id,
        attributes: { ...ticket.attributes, description: 'Cheaper', 'max-order': 60 },
        relationships: { ...ofEvent, orders: { data: [] } },
      },
    };
    delete update.data.attributes['deleted-at'];
    const bad = await owner.adapter('PATCH', `/v1/tickets/${ticket.id}`, { body: update });
    t.equal(bad.status, 422, 'max-order above the stored quantity');
    t.equal(bad.body.errors[0].source.pointer, '/data/attributes/quantity');
    update.data.attributes['max-order'] = Math.min(60, 50);
    const ok = await owner.adapter('PATCH', `/v1/tickets/${ticket.id}`, { body: update });
    t.equal(ok.status, 200);
    t.equal(ok.body.data.attributes.description, 'Cheaper');
  },
);

t.test('tax: saved with the event linkage; the event then links it', async (t) => {
  const res = await owner.adapter('POST', '/v1/taxes', {
    body: {
      data: {
        type: 'tax',
        attributes: taxAttributes({ 'tax-id': 'DE123', email: 'tax@example.org' }),
        relationships: ofEvent,
      },
    },
  });
  t.equal(res.status, 201, JSON.stringify(res.body.errors ?? ''));
  t.match(res.body.data.attributes, {
    name: 'VAT',
    rate: 19,
    'tax-id': 'DE123',
    email: 'tax@example.org',
    'is-tax-included-in-price': false,
  });
  const again = await owner.adapter('POST', '/v1/taxes', {
    body: { data: { type: 'tax', attributes: taxAttributes(), relationships: ofEvent } },
  });
  t.equal(again.status, 409, 'one tax per event');
  t.equal(again.body.errors[0].source.pointer, '/data/relationships/event');
});

t.test('speakers call: the sessions-speakers step saves one', async (t) => {
  const body = {
    data: {
      type: 'speakers-call',
      attributes: speakersCallAttributes({ announcement: 'Send talks' }),
      relationships: ofEvent,
    },
  };
  const res = await owner.adapter('POST', '/v1/speakers-calls', { body });
  t.equal(res.status, 201, JSON.stringify(res.body.errors ?? ''));
  t.match(res.body.data.attributes, { announcement: 'Send talks', privacy: 'public', 'soft-ends-at': null });
  const id = res.body.data.id;
  const swapped = await owner.adapter('PATCH', `/v1/speakers-calls/${id}`, {
    body: {
      data: {
        type: 'speakers-call',
        id,
        attributes: { 'ends-at': speakersCallAttributes()['starts-at'] },
        relationships: ofEvent,
      },
    },
  });
  t.equal(swapped.status, 422, 'ends-at not after the stored starts-at');
  t.equal(swapped.body.errors[0].source.pointer, '/data/attributes/ends-at');
});

t.test('stripe authorization: refused (no Stripe here); the event keeps a null stripe-authorization', async (t) => {
  // app/models/stripe-authorization.js:5-6: both attributes are sent.
  const body = {
    data: {
      type: 'stripe-authorization',
      attributes: { 'stripe-auth-code': 'ac_123', 'stripe-publishable-key': null },
      relationships: ofEvent,
    },
  };
  const res = await owner.adapter('POST', '/v1/stripe-authorizations', { body });
  t.equal(res.status, 422);
  t.equal(res.body.errors[0].source.pointer, '/data/attributes/stripe-auth-code');
  const stranger = await frontEnd(apiHost, cast.other.token).adapter('POST', '/v1/stripe-authorizations', { body });
  t.equal(stranger.status, 404, 'a draft event does not exist for a stranger');
});

t.test('the dashboard reads the event with tax and stripe-authorization and PATCHes the linkage back', async (t) => {
  const include = 'event-topic,event-copyright,tax,owner,organizers,coorganizers,stripe-authorization';
  const res = await owner.adapter('GET', `/v1/events/${event.identifier}`, { query: { include } });
  t.equal(res.status, 200, JSON.stringify(res.body.errors ?? ''));
  const rels = res.body.data.relationships;
  t.equal(rels.tax.data.type, 'tax');
  t.same(rels['stripe-authorization'].data, null, 'stripe-authorization is empty');
  const tax = res.body.included.find((r: { type: string }) => r.type === 'tax');
  t.equal(tax.attributes['tax-id'], 'DE123', 'the owner reads the private invoicing details');
  t.ok(rels.tickets.links.related, 'tickets are a related link');

  const call = (await owner.adapter('GET', `/v1/events/${event.id}/speakers-call`)).body.data;
  const patch = await owner.adapter('PATCH', `/v1/events/${event.id}`, {
    body: {
      data: {
        type: 'event',
        id: event.id,
        attributes: { name: 'Wizard Conf' },
        relationships: {
          tax: { data: rels.tax.data },
          'stripe-authorization': { data: null },
          'speakers-call': linkage('speakers-call', call.id),
        },
      },
    },
  });
  t.equal(patch.status, 200, JSON.stringify(patch.body.errors ?? ''));
  const other = await owner.adapter('PATCH', `/v1/events/${event.id}`, {
    body: { data: { type: 'event', id: event.id, relationships: { tax: { data: null } } } },
  });
  t.equal(other.status, 422, "the tax link is the tax record's to change");
});

t.test('the wizard lists the event tickets (related, page[size]=0)', async (t) => {
  const res = await owner.adapter('GET', `/v1/events/${event.identifier}/tickets`, { query: { 'page[size]': 0 } });
  t.equal(res.status, 200);
  t.same(res.body.data.map((d: { attributes: { name: string } }) => d.attributes.name).sort(), ['Early bird', 'Paid']);
});

/**
 * open-event-frontend:app/models/event.js: the event as the wizard (app/mixins/event-wizard.js:92) and the
 * dashboard save it. ember-data sends every attribute the model declares that is not `readOnly`
 * (app/serializers/application.js:16-21): lines 27-110 of the model, with the defaults of lines 30-104
 * (`payment-currency` 'USD', `is-map-shown` true, `schedule-published-on` the epoch, i.e. "not
 * published", line 86 and 221-223), unset strings and moments as null and unset booleans as false
 * (`is-stripe-linked`, line 69, has no default). `document-links` is an untyped attr() (line 110): left
 * out while undefined. The event serializer (app/serializers/event.js:7-29) renames the relationships
 * `type`, `topic`, `subTopic`, `copyright` to `event-type`, `event-topic`, `event-sub-topic`,
 * `event-copyright` and drops `general-statistics` and `order-statistics`; a belongsTo goes out when
 * set to a record with an id (app/serializers/application.js:30-35). The record's id is its
 * identifier, the body's `data.id` the numeric id (app/mixins/custom-primary-key.js:15-31).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { newEventAttributes as fresh } from '../helpers/front-end-event.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const admin = cast.admin.token;
const topic = await create(app, admin, 'event-topics', 'event-topic', { name: 'Science & Technology' });
const subTopic = await create(
  app,
  admin,
  'event-sub-topics',
  'event-sub-topic',
  { name: 'Robotics' },
  { 'event-topic': rel('event-topic', topic) },
);
const type = await create(app, admin, 'event-types', 'event-type', { name: 'Conference' });
const organizer = frontEnd(base, cast.owner.token);

/** What the organizer fills in on the wizard's basic details step (app/templates/components/forms/wizard/basic-details-step.hbs). */
const filledIn = {
  name: 'Robot Summit',
  description: '<p>Robots, all day.</p>',
  'location-name': 'Messe Berlin, Berlin, Germany',
  'searchable-location-name': 'Berlin',
  latitude: 52.5,
  longitude: 13.27,
  online: true,
  'public-stream-link': 'https://stream.example.org/robots',
  'is-ticket-form-enabled': true,
  'is-sessions-speakers-enabled': true,
  'can-pay-by-paypal': true,
  'paypal-email': 'pay@example.org',
  'can-pay-onsite': true,
  'onsite-details': 'Cash at the door',
  'payment-country': 'Germany',
  'payment-currency': 'EUR',
  'refund-policy': 'No refunds',
  'has-owner-info': true,
  'owner-name': 'Robot Society',
  'owner-description': 'We build robots.',
  'after-order-message': 'See you there!',
};

/** The relationships the serializer writes for the wizard's new event: only belongsTo set to saved records. */
const chosen = {
  'event-type': rel('event-type', type),
  'event-topic': rel('event-topic', topic),
  'event-sub-topic': rel('event-sub-topic', subTopic),
};

let created: { id: string; identifier: string; read: Record<string, unknown> };

t.test('POST /v1/events with the full body of a new event, as a user with no role anywhere', async (t) => {
  const attributes = { ...fresh(), ...filledIn };
  const res = await organizer.adapter('POST', '/v1/events', {
    body: { data: { attributes, relationships: chosen, type: 'event' } },
  });
  t.equal(res.status, 201, JSON.stringify(res.body?.errors));
  const read = res.body.data.attributes;
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'schedule-published-on' || name === 'starts-at' || name === 'ends-at')
      t.equal(Date.parse(read[name]), Date.parse(value as string), name);
    else t.strictSame(read[name], value, name);
  }
  t.equal(read['document-links'], null, 'document-links (left out while undefined) is null');
  t.match(res.body.data.relationships, {
    'event-type': { data: { type: 'event-type', id: type } },
    'event-topic': { data: { type: 'event-topic', id: topic } },
    'event-sub-topic': { data: { type: 'event-sub-topic', id: subTopic } },
  });
  created = { id: res.body.data.id, identifier: read.identifier, read };
});

t.test('PATCH of the same full record: the dashboard saves what it read, with its own changes', async (t) => {
  const shown = await organizer.adapter('GET', `/v1/events/${created.identifier}`, {
    query: { include: 'event-topic,event-sub-topic,event-type' },
  });
  t.equal(shown.status, 200);
  const read = shown.body.data.attributes;
  // The model drops its readOnly attributes (identifier, image variants, created-at, *-url exports) before sending.
  const {
    identifier: _i,
    'thumbnail-image-url': _t,
    'large-image-url': _l,
    'icon-image-url': _c,
    'created-at': _a,
    ...sent
  } = read;
  const attributes = {
    ...sent,
    name: 'Robot Summit 2030',
    'is-document-enabled': true,
    'document-links': [{ name: 'Venue map', link: 'https://example.org/map.pdf' }],
    'schedule-published-on': '2030-05-01T12:00:00.000Z',
    'can-pay-by-stripe': true,
  };
  const relationships = {
    ...chosen,
    // Loaded with the record: the owner is written back as read (a read-only relationship sent unchanged).
    owner: rel('user', cast.owner.id),
  };
  const res = await organizer.adapter('PATCH', `/v1/events/${created.identifier}`, {
    body: { data: { id: created.id, attributes, relationships, type: 'event' } },
  });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors));
  t.match(res.body.data.attributes, {
    name: 'Robot Summit 2030',
    'is-document-enabled': true,
    'document-links': [{ name: 'Venue map', link: 'https://example.org/map.pdf' }],
    'schedule-published-on': '2030-05-01T12:00:00.000Z',
    'can-pay-by-stripe': true,
    'is-stripe-linked': false,
    'payment-currency': 'EUR',
  });
  t.strictSame(shown.body.included.map((r: { type: string }) => r.type).sort(), [
    'event-sub-topic',
    'event-topic',
    'event-type',
  ]);
});

t.test('admin-only flags: organizers send them back unchanged, only administrators change them', async (t) => {
  const path = `/v1/events/${created.identifier}`;
  const patch = (who: ReturnType<typeof frontEnd>, attributes: Record<string, unknown>) =>
    who.adapter('PATCH', path, { body: { data: { id: created.id, type: 'event', attributes } } });
  for (const flag of ['is-featured', 'is-promoted', 'is-demoted']) {
    const refused = await patch(organizer, { [flag]: true });
    t.equal(refused.status, 403, `${flag} by the owner`);
    t.match(refused.body.errors[0], { source: { pointer: `/data/attributes/${flag}` } });
  }
  const featured = await patch(frontEnd(base, admin), { 'is-featured': true });
  t.equal(featured.status, 200);
  t.equal(featured.body.data.attributes['is-featured'], true);
  const again = await patch(organizer, { 'is-featured': true, name: 'Robot Summit' });
  t.equal(again.status, 200, 'the stored value sent back is accepted');
  t.equal((await patch(organizer, { 'is-featured': false })).status, 403, 'and the owner cannot unfeature it either');
  const newFeatured = await organizer.adapter('POST', '/v1/events', {
    body: { data: { type: 'event', attributes: { ...fresh(), name: 'Self-promoted', 'is-promoted': true } } },
  });
  t.equal(newFeatured.status, 403);
  t.match(newFeatured.body.errors[0], { source: { pointer: '/data/attributes/is-promoted' } });
});

t.test(
  'document links need a name and a link once documents are enabled (app/controllers/events/view/documents.js:12-13)',
  async (t) => {
    const path = `/v1/events/${created.identifier}`;
    // The documents page starts an enabled event's list with one empty entry.
    const empty = await organizer.adapter('PATCH', path, {
      body: {
        data: {
          id: created.id,
          type: 'event',
          attributes: {
            'document-links': [
              { name: 'Map', link: 'https://example.org/a.pdf' },
              { name: '', link: '' },
            ],
          },
        },
      },
    });
    t.equal(empty.status, 422);
    t.match(empty.body.errors[0], { source: { pointer: '/data/attributes/document-links/1' }, detail: /name/ });
    const disabled = await organizer.adapter('PATCH', path, {
      body: {
        data: {
          id: created.id,
          type: 'event',
          attributes: { 'is-document-enabled': false, 'document-links': [{ name: '', link: '' }] },
        },
      },
    });
    t.equal(disabled.status, 200, 'kept as drafted while documents are off');
  },
);

/**
 * The whole event wizard of open-event-frontend, then the organizer dashboard, each request as the
 * front end builds it:
 * - app/mixins/event-wizard.js:69-141 (saveEventData): the event first (app/models/event.js through
 *   app/serializers/event.js: type, topic and sub-topic renamed to event-type, event-topic,
 *   event-sub-topic), then each ticket, the copyright (app/models/event-copyright.js:6-11), the tax;
 *   the speakers call from app/routes/events/view/edit/sessions-speakers.js:54. Publishing saves the
 *   event again with `state: published` once it has tickets (:90).
 * - app/routes/events/view.js:16-18: the dashboard reads the event with
 *   include=event-topic,event-sub-topic,event-type,event-copyright,tax,owner,organizers,coorganizers,
 *   track-organizers,registrars,moderators,stripe-authorization, and every later save sends the whole
 *   record back with each loaded relationship (app/serializers/application.js:16-35).
 * - app/routes/public.js:16-18: anyone then reads the published event with the public page's include.
 */
import t from 'tap';
import { create, createCast, rel } from '../helpers/events.js';
import { frontEnd } from '../helpers/front-end-client.js';
import { startForFrontEnd } from '../helpers/front-end-auth.js';
import { newEventAttributes } from '../helpers/front-end-event.js';
import { linkage, speakersCallAttributes, taxAttributes, ticketAttributes } from '../helpers/ticket-bodies.js';

const { apiHost, app } = await startForFrontEnd(t);
const cast = await createCast(app);
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
const organizer = frontEnd(apiHost, cast.owner.token);

const DASHBOARD =
  'event-topic,event-sub-topic,event-type,event-copyright,tax,owner,organizers,coorganizers,track-organizers,registrars,moderators,stripe-authorization';
const PUBLIC_PAGE =
  'social-links,event-copyright,speakers-call,tax,owner,organizers,video-stream,custom-forms,group,group.followers,group.followers.user';

t.test(
  'the wizard saves an event with its type, topic, tickets, copyright, tax and speakers call, then publishes it',
  async (t) => {
    const chosen = {
      'event-type': linkage('event-type', type),
      'event-topic': linkage('event-topic', topic),
      'event-sub-topic': linkage('event-sub-topic', subTopic),
    };
    const attributes = {
      ...newEventAttributes(),
      name: 'Robot Summit',
      'location-name': 'Berlin',
      'is-tax-enabled': true,
      'is-sessions-speakers-enabled': true,
    };
    const made = await organizer.adapter('POST', '/v1/events', {
      body: { data: { type: 'event', attributes, relationships: chosen } },
    });
    t.equal(made.status, 201, JSON.stringify(made.body?.errors));
    const event = made.body.data;
    const ofEvent = { event: linkage('event', event.id) };

    const saves: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
      ['tickets', 'ticket', ticketAttributes({ name: 'Standard' }), { ...ofEvent, orders: { data: [] } }],
      [
        'tickets',
        'ticket',
        ticketAttributes({ name: 'Supporter', type: 'paid', price: 40, quantity: 20 }),
        { ...ofEvent, orders: { data: [] } },
      ],
      [
        'event-copyrights',
        'event-copyright',
        {
          holder: 'Robot Society',
          'holder-url': null,
          licence: 'CC BY 4.0',
          'licence-url': null,
          year: new Date().getUTCFullYear(),
          'logo-url': null,
        },
        ofEvent,
      ],
      ['taxes', 'tax', taxAttributes({ 'tax-id': 'DE999', 'registered-company': 'Robot Society e.V.' }), ofEvent],
      ['speakers-calls', 'speakers-call', speakersCallAttributes({ announcement: 'Send us your robots' }), ofEvent],
    ];
    for (const [path, kind, attrs, relationships] of saves) {
      const res = await organizer.adapter('POST', `/v1/${path}`, {
        body: { data: { type: kind, attributes: attrs, relationships } },
      });
      t.equal(res.status, 201, `${kind}: ${JSON.stringify(res.body?.errors)}`);
    }

    // Publishing: the same record saved again with state published (every attribute as read, read-only ones left out).
    const {
      identifier,
      'thumbnail-image-url': _t,
      'large-image-url': _l,
      'icon-image-url': _i,
      'created-at': _c,
      ...read
    } = event.attributes;
    const publish = await organizer.adapter('PATCH', `/v1/events/${identifier}`, {
      body: {
        data: { type: 'event', id: event.id, attributes: { ...read, state: 'published' }, relationships: chosen },
      },
    });
    t.equal(publish.status, 200, JSON.stringify(publish.body?.errors));
    t.equal(publish.body.data.attributes.state, 'published');

    t.test('the dashboard reads every included record and saves the whole event back', async (t) => {
      const shown = await organizer.adapter('GET', `/v1/events/${identifier}`, { query: { include: DASHBOARD } });
      t.equal(shown.status, 200, JSON.stringify(shown.body?.errors));
      const types = new Set(shown.body.included.map((r: { type: string }) => r.type));
      for (const kind of ['event-topic', 'event-sub-topic', 'event-type', 'event-copyright', 'tax', 'user'])
        t.ok(types.has(kind), `${kind} included`);
      const rels = shown.body.data.relationships;
      t.equal(rels['stripe-authorization'].data, null, 'no Stripe authorization here');
      t.strictSame(rels.owner.data, { type: 'user', id: cast.owner.id });
      const tax = shown.body.included.find((r: { type: string }) => r.type === 'tax');
      t.equal(tax.attributes['tax-id'], 'DE999', 'the organizer reads the invoicing details');

      // Every relationship the dashboard loaded goes back as read; attributes as read, with one change.
      const loaded = Object.fromEntries(
        [
          'event-topic',
          'event-sub-topic',
          'event-type',
          'event-copyright',
          'tax',
          'owner',
          'organizers',
          'coorganizers',
          'track-organizers',
          'registrars',
          'moderators',
          'stripe-authorization',
        ].map((name) => [name, { data: rels[name].data }]),
      );
      const {
        identifier: _id,
        'thumbnail-image-url': _a,
        'large-image-url': _b,
        'icon-image-url': _d,
        'created-at': _e,
        ...now
      } = shown.body.data.attributes;
      const saved = await organizer.adapter('PATCH', `/v1/events/${identifier}`, {
        body: {
          data: {
            type: 'event',
            id: event.id,
            attributes: { ...now, 'refund-policy': 'Refunds until a week before' },
            relationships: loaded,
          },
        },
      });
      t.equal(saved.status, 200, JSON.stringify(saved.body?.errors));
      t.equal(saved.body.data.attributes['refund-policy'], 'Refunds until a week before');
    });

    t.test(
      'the public page reads the published event, its speakers call and tax without private details',
      async (t) => {
        const visitor = frontEnd(apiHost);
        const page = await visitor.adapter('GET', `/v1/events/${identifier}`, {
          query: { include: PUBLIC_PAGE, cache: 'true', public: 'true' },
        });
        t.equal(page.status, 200, JSON.stringify(page.body?.errors));
        const byType = (kind: string) => page.body.included.filter((r: { type: string }) => r.type === kind);
        t.equal(byType('speakers-call')[0].attributes.announcement, 'Send us your robots');
        t.notOk('tax-id' in byType('tax')[0].attributes, 'no invoicing details for a visitor');
        t.equal(byType('event-copyright')[0].attributes.holder, 'Robot Society');
        const tickets = await visitor.adapter('GET', `/v1/events/${event.id}/tickets`, {
          query: { 'page[size]': 0, cache: 'true', public: 'true' },
        });
        t.strictSame(tickets.body.data.map((r: { attributes: { name: string } }) => r.attributes.name).sort(), [
          'Standard',
          'Supporter',
        ]);
      },
    );
  },
);

/**
 * open-event-frontend `app/routes/public/speakers.js:67-79`: the public speakers page lists the event's
 * speakers `sort: 'order'`, `include: 'sessions.track'`, nine a page, `public: true` (no token). The
 * order is the organizers' (`order` on app/models/speaker.js:37), saved with the whole speaker record.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { cast, published } = world;

t.test('speakers sorted by order, as the organizers set it', async (t) => {
  const organizer = frontEnd(base, cast.organizer.token);
  const names = ['Third', 'First', 'Second'];
  const ids: Record<string, string> = { Ada: published.speaker };
  for (const name of names)
    ids[name] = await create(
      app,
      cast.owner.token,
      'speakers',
      'speaker',
      { name },
      { event: rel('event', published.event) },
    );
  const orders: Record<string, number> = { First: 1, Second: 2, Third: 3, Ada: 4 };
  for (const [name, order] of Object.entries(orders)) {
    const id = ids[name]!;
    const read = await organizer.adapter('GET', `/v1/speakers/${id}`);
    // The whole record back, as ember-data saves it, with the new order.
    const res = await organizer.adapter('PATCH', `/v1/speakers/${id}`, {
      body: {
        data: {
          type: 'speaker',
          id,
          attributes: { ...read.body.data.attributes, order },
          relationships: { event: { data: { type: 'event', id: published.event } } },
        },
      },
    });
    t.equal(res.status, 200, `${name}: ${JSON.stringify(res.body?.errors)}`);
  }
  const page = await frontEnd(base).adapter('GET', `/v1/events/${published.event}/speakers`, {
    query: { include: 'sessions.track', sort: 'order', public: true, 'page[size]': 9, 'page[number]': 1 },
  });
  t.equal(page.status, 200);
  t.same(
    page.body.data.map((s: { attributes: { name: string; order: number } }) => [s.attributes.name, s.attributes.order]),
    [
      ['First', 1],
      ['Second', 2],
      ['Third', 3],
      ['Ada', 4],
    ],
    'in the order the organizers set',
  );
  t.ok(
    page.body.included.some((r: { type: string }) => r.type === 'track'),
    "the sessions' tracks are included",
  );
  const reversed = await frontEnd(base).adapter('GET', `/v1/events/${published.event}/speakers`, {
    query: { sort: '-order', public: true },
  });
  t.same(
    reversed.body.data.map((s: { attributes: { name: string } }) => s.attributes.name),
    ['Ada', 'Third', 'Second', 'First'],
  );
});

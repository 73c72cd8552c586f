/**
 * open-event-frontend `app/routes/index.js:200-206` and `app/adapters/event.js:9-11`: the home page's
 * upcoming events are `store.query('event', {upcoming: true, include, cache: true, public: true,
 * 'page[size]': 12})`, which the event adapter sends to `/v1/events/upcoming` with the query as it is.
 * (The other includes it asks for, event-sub-topic, event-type and speakers-call, are resources of
 * part 2; this test asks for the one this service has.)
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, eventAttributes } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const topic = await create(app, cast.admin.token, 'event-topics', 'event-topic', { name: 'Science & Technology' });

/** The instant `days` from now (negative: ago), so that "upcoming" stays true of these events whenever the test runs. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const event = (name: string, startsAt: string, endsAt: string, more: Record<string, unknown> = {}) =>
  create(app, cast.owner.token, 'events', 'event', { ...eventAttributes(name), 'starts-at': startsAt, 'ends-at': endsAt, ...more }, {
    'event-topic': { data: { type: 'event-topic', id: topic } },
  });
const later = await event('Later', inDays(400), inDays(401));
const sooner = await event('Sooner', inDays(30), inDays(31));
// Started, not ended: still upcoming for the home page ("not ended").
const running = await event('Running', inDays(-10), inDays(10));
await event('Past', inDays(-30), inDays(-29));
await event('Draft', inDays(60), inDays(61), { state: 'draft' });
await event('Private', inDays(90), inDays(91), { privacy: 'private' });

t.test('published public events that have not ended, soonest first, with their topics', async (t) => {
  const res = await frontEnd(base, cast.other.token).adapter('GET', '/v1/events/upcoming', {
    query: { upcoming: true, include: 'event-topic', cache: true, public: true, 'page[size]': 12 },
  });
  t.equal(res.status, 200);
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  t.strictSame(res.body.data.map((e: { id: string }) => e.id), [running, sooner, later]);
  t.equal(res.body.meta.count, 3);
  t.strictSame(res.body.included.map((i: { type: string; id: string }) => [i.type, i.id]), [['event-topic', topic]]);
  const owner = await frontEnd(base, cast.owner.token).adapter('GET', '/v1/events/upcoming', { query: { upcoming: true } });
  t.strictSame(owner.body.data.map((e: { id: string }) => e.id), [running, sooner, later], 'not the owner\'s draft or private event either: the home page shows the public');
});

t.test('the client may filter and sort it like any list', async (t) => {
  const sorted = await frontEnd(base).adapter('GET', '/v1/events/upcoming', { query: { upcoming: true, sort: '-starts-at', 'page[size]': 2 } });
  t.strictSame(sorted.body.data.map((e: { id: string }) => e.id), [later, sooner]);
  t.equal(sorted.body.meta.count, 3);
  const named = await frontEnd(base).adapter('GET', '/v1/events/upcoming', { query: { filter: [{ name: 'name', op: 'eq', val: 'Later' }] } });
  t.strictSame(named.body.data.map((e: { id: string }) => e.id), [later]);
  t.equal((await frontEnd(base).adapter('GET', '/v1/events/upcoming', { query: { unknown: 1 } })).status, 400, 'other parameters are still refused');
});

/**
 * open-event-frontend `app/routes/explore/events.js:22-298`: the explore page's filters on the new
 * event members: online / in-person / mixed (`online` with `location_name` eq / ne null or ilike),
 * the call for speakers (`is_sessions_speakers_enabled`, snake_case), `event-type has name eq`,
 * `event-sub-topic has slug eq`, always with `include=event-topic,event-sub-topic,event-type`.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, eventAttributes, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const admin = cast.admin.token;
const topic = await create(app, admin, 'event-topics', 'event-topic', { name: 'Science & Technology' });
const robotics = await create(
  app,
  admin,
  'event-sub-topics',
  'event-sub-topic',
  { name: 'Robotics' },
  { 'event-topic': rel('event-topic', topic) },
);
const meetup = await create(app, admin, 'event-types', 'event-type', { name: 'Meetup' });

const event = (name: string, attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) =>
  create(app, cast.owner.token, 'events', 'event', { ...eventAttributes(name), ...attributes }, relationships);
const online = await event('Online only', { online: true });
const inPerson = await event(
  'In Berlin',
  { 'location-name': 'Berlin, Germany', 'is-sessions-speakers-enabled': true },
  { 'event-type': rel('event-type', meetup) },
);
const mixed = await event(
  'Hybrid',
  { online: true, 'location-name': 'Hamburg, Germany' },
  { 'event-topic': rel('event-topic', topic), 'event-sub-topic': rel('event-sub-topic', robotics) },
);

const published = [
  { name: 'state', op: 'eq', val: 'published' },
  { name: 'privacy', op: 'eq', val: 'public' },
];
const explore = async (...filters: unknown[]) => {
  const res = await frontEnd(base).adapter('GET', '/v1/events', {
    query: {
      include: 'event-topic,event-sub-topic,event-type',
      filter: [...published, ...filters],
      sort: 'starts-at',
      'page[size]': 6,
      'page[number]': 1,
    },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data.map((e: { id: string }) => e.id).sort();
};

t.test('online, in person, mixed', async (t) => {
  const onlineFilter = {
    and: [
      { name: 'online', op: 'eq', val: true },
      { name: 'location_name', op: 'eq', val: null },
    ],
  };
  const locationFilter = {
    and: [
      { name: 'location_name', op: 'ne', val: null },
      { name: 'online', op: 'eq', val: false },
    ],
  };
  const mixedFilter = {
    and: [
      { name: 'online', op: 'eq', val: true },
      { name: 'location_name', op: 'ne', val: null },
    ],
  };
  t.strictSame(await explore({ or: [onlineFilter] }), [online]);
  t.strictSame(await explore({ or: [locationFilter] }), [inPerson]);
  t.strictSame(await explore({ or: [mixedFilter] }), [mixed]);
  t.strictSame(await explore({ or: [onlineFilter, mixedFilter] }), [online, mixed].sort());
  const near = {
    and: [
      { name: 'online', op: 'eq', val: true },
      { name: 'location_name', op: 'ilike', val: '%hamburg%' },
    ],
  };
  t.strictSame(await explore({ or: [near] }), [mixed]);
});

t.test('call for speakers, type, sub-topic', async (t) => {
  t.strictSame(await explore({ name: 'is_sessions_speakers_enabled', op: 'eq', val: true }), [inPerson]);
  t.strictSame(await explore({ name: 'event-type', op: 'has', val: { name: 'name', op: 'eq', val: 'Meetup' } }), [
    inPerson,
  ]);
  t.strictSame(
    await explore({ name: 'event-sub-topic', op: 'has', val: { name: 'slug', op: 'eq', val: 'robotics' } }),
    [mixed],
  );
  t.strictSame(
    await explore({ name: 'event-topic', op: 'has', val: { name: 'name', op: 'eq', val: 'Science & Technology' } }),
    [mixed],
  );
});

/**
 * The administrators' statistics of event types and topics (the reference's API Blueprint, Admin Statistics >
 * Event Types / Event Topics Statistics Details: `GET /v1/admin/statistics/event-types|event-topics`, each entry
 * a type or topic, its name and the number of its events), checked against events seeded through the API.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const [admin, owner] = [await seedUser(app, { admin: true }), await seedUser(app)];
const named = (path: string, type: string, name: string) => create(app, admin.token, path, type, { name });
const conference = await named('event-types', 'event-type', 'Conference');
const meetup = await named('event-types', 'event-type', 'Meetup');
const workshop = await named('event-types', 'event-type', 'Workshop');
const retired = await named('event-types', 'event-type', 'Retired');
const tech = await named('event-topics', 'event-topic', 'Technology');
const art = await named('event-topics', 'event-topic', 'Art');

const event = (name: string, type: string, topic?: string, state: 'draft' | 'published' = 'published') =>
  create(app, owner.token, 'events', 'event', eventAttributes(name, state), {
    'event-type': rel('event-type', type),
    ...(topic ? { 'event-topic': rel('event-topic', topic) } : {}),
  });
await event('One', conference, tech);
await event('Two', conference, tech, 'draft');
await event('Three', meetup, art);
await event('Four', retired, tech);
const gone = await event('Gone', conference, art);
for (const [path, id, token] of [
  ['events', gone, owner.token],
  ['event-types', retired, admin.token],
] as const) {
  const res = await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token });
  if (res.status !== 200) throw new Error(`delete ${path}/${id}: ${res.status}`);
}

t.test('each live type and topic with its live events, drafts included', async (t) => {
  for (const [kind, expected] of [
    [
      'type',
      [
        [conference, 'Conference', 2],
        [meetup, 'Meetup', 1],
        [workshop, 'Workshop', 0],
      ],
    ],
    [
      'topic',
      [
        [tech, 'Technology', 3],
        [art, 'Art', 1],
      ],
    ],
  ] as const) {
    const self = `/v1/admin/statistics/event-${kind}s`;
    const res = await call(app, { url: self, token: admin.token });
    t.equal(res.status, 200, kind);
    t.strictSame(res.body, {
      data: expected.map(([id, name, count]) => ({
        type: `admin-statistics-event-${kind}`,
        id,
        attributes: { name, count },
        links: { self },
      })),
      links: { self },
      meta: { count: expected.length },
      jsonapi: { version: '1.0' },
    });
  }
});

t.test('administrators only', async (t) => {
  for (const path of ['event-types', 'event-topics']) {
    for (const [who, token, status] of [
      ['anonymous', undefined, 401],
      ['a user', owner.token, 403],
    ] as const) {
      t.equal((await call(app, { url: `/v1/admin/statistics/${path}`, token })).status, status, `${path}: ${who}`);
    }
    const bad = await call(app, { url: `/v1/admin/statistics/${path}?page[size]=2`, token: admin.token });
    t.equal(bad.status, 400, `${path}: an unknown parameter is refused`);
  }
});

/**
 * open-event-frontend:app/routes/public/schedule.js: the public schedule loads every scheduled session
 * of the event in one request, `page[size]=0` with speakers, room, track and the room's video stream included (lines 55-59), and
 * the rooms sorted by position (line 18). `event.query(name, params)` GETs the `links.related` of the
 * event's relationship with those parameters (ember-data-has-many-query; the filter as a JSON string,
 * open-event-frontend:app/models/base.js:6-9). The visitor is anonymous.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, createEvent, fillEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const visitor = frontEnd(base);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Schedule Conf', 'published');
const records = await fillEvent(app, cast, event);
const token = cast.owner.token;
const of = { event: rel('event', event) };
const room2 = await create(app, token, 'microlocations', 'microlocation', { name: 'Hall', position: 9 }, of);
const room3 = await create(app, token, 'microlocations', 'microlocation', { name: 'Annex', position: 3 }, of);
// The Hall streams online (a stream of rooms, as app/routes/events/view/videoroom/create.js:35-39 makes it).
const hallStream = await create(
  app,
  token,
  'video-streams',
  'video-stream',
  { name: 'Hall stream', url: 'https://meet.example.org/hall', password: 'pw' },
  { rooms: { data: [{ type: 'microlocation', id: room2 }] } },
);

// 30 more accepted or confirmed sessions with times (more than a default page), and some the schedule leaves out.
const scheduled = [records.session];
for (let i = 0; i < 30; i++) {
  const hour = String(10 + (i % 8)).padStart(2, '0');
  const times = { 'starts-at': `2030-05-02T${hour}:00:00Z`, 'ends-at': `2030-05-02T${hour}:45:00Z` };
  const links = {
    ...of,
    track: rel('track', records.track),
    microlocation: rel('microlocation', i % 2 ? room2 : records.microlocation),
    speakers: { data: [{ type: 'speaker', id: records.speaker }] },
  };
  scheduled.push(
    await create(
      app,
      token,
      'sessions',
      'session',
      { title: `Talk ${i}`, state: i % 3 ? 'accepted' : 'confirmed', ...times },
      links,
    ),
  );
}
await create(app, token, 'sessions', 'session', { title: 'Unscheduled', state: 'accepted' }, of);
await create(
  app,
  token,
  'sessions',
  'session',
  { title: 'Only a start', state: 'accepted', 'starts-at': '2030-05-02T09:00:00Z' },
  of,
);
await create(
  app,
  token,
  'sessions',
  'session',
  { title: 'Rejected', state: 'rejected', 'starts-at': '2030-05-02T09:00:00Z', 'ends-at': '2030-05-02T09:30:00Z' },
  of,
);
await create(
  app,
  token,
  'sessions',
  'session',
  { title: 'Draft', 'starts-at': '2030-05-02T09:00:00Z', 'ends-at': '2030-05-02T09:30:00Z' },
  of,
);

/** The scheduled-sessions filter of schedule.js:24-53. */
const scheduledFilterOptions = [
  {
    and: [
      { name: 'starts-at', op: 'ne', val: null },
      { name: 'ends-at', op: 'ne', val: null },
      {
        or: [
          { name: 'state', op: 'eq', val: 'accepted' },
          { name: 'state', op: 'eq', val: 'confirmed' },
        ],
      },
    ],
  },
];

// The public route loads the event by its identifier (open-event-frontend:app/routes/public.js:17); its relationship links lead on.
const shown = await visitor.adapter('GET', `/v1/events/${identifier}`);
const related = (name: string) => new URL(shown.body.data.relationships[name].links.related, base).pathname;

t.test(
  "every scheduled session in one page, with speakers, rooms, tracks and the rooms' streams (schedule.js:55-59)",
  async (t) => {
    const include = 'speakers,microlocation,track,microlocation.video-stream';
    const res = await visitor.adapter('GET', related('sessions'), {
      query: { include, filter: scheduledFilterOptions, 'page[size]': 0 },
    });
    t.equal(res.status, 200);
    t.equal(res.body.meta.count, 31, 'meta.count: all of them');
    t.strictSame(
      res.body.data.map((s: { id: string }) => s.id).sort(),
      [...scheduled].sort(),
      'exactly the scheduled sessions, in one page',
    );
    t.strictSame([res.body.links.prev, res.body.links.next], [null, null], 'no other page');
    const included = new Set(res.body.included.map((r: { type: string; id: string }) => `${r.type} ${r.id}`));
    for (const expected of [
      `speaker ${records.speaker}`,
      `microlocation ${records.microlocation}`,
      `microlocation ${room2}`,
      `track ${records.track}`,
      `video-stream ${hallStream}`,
    ]) {
      t.ok(included.has(expected), `included ${expected}`);
    }
    t.ok(
      res.body.data.every(
        (s: { relationships: { speakers: { data: unknown[] } } }) => s.relationships.speakers.data.length === 1,
      ),
      'each session names its speaker',
    );
    // What session-item.js:73-74 reads through microlocation.videoStream: the stream's id and name (its slug).
    const hall = res.body.included.find(
      (r: { type: string; id: string }) => r.type === 'microlocation' && r.id === room2,
    );
    t.strictSame(
      hall.relationships['video-stream'].data,
      { type: 'video-stream', id: hallStream },
      'the room names its stream',
    );
    const room1 = res.body.included.find(
      (r: { type: string; id: string }) => r.type === 'microlocation' && r.id === records.microlocation,
    );
    t.equal(room1.relationships['video-stream'].data, null, 'a room without a stream');
    const stream = res.body.included.find((r: { type: string }) => r.type === 'video-stream');
    t.match(stream.attributes, { name: 'Hall stream', 'chat-room-name': `Hall-stream-${hallStream}` });
    t.notOk(
      'url' in stream.attributes || 'password' in stream.attributes,
      'what it takes to join stays with the organizers',
    );
  },
);

t.test('the rooms, sorted by position (schedule.js:18)', async (t) => {
  const res = await visitor.adapter('GET', related('microlocations'), { query: { sort: 'position' } });
  t.equal(res.status, 200);
  t.strictSame(
    res.body.data.map((m: { id: string }) => m.id),
    [records.microlocation, room3, room2],
    'Room 1 (0), Annex (3), Hall (9)',
  );
});

/**
 * open-event-frontend `app/routes/index.js:200-206` and `app/adapters/event.js:9-11`: the home page's
 * upcoming events are `store.query('event', {upcoming: true, include, cache: true, public: true,
 * 'page[size]': 12})`, which the event adapter sends to `/v1/events/upcoming` with the query as it is.
 * The include is the page's own: event-topic,event-sub-topic,event-type,speakers-call.
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
  create(
    app,
    cast.owner.token,
    'events',
    'event',
    { ...eventAttributes(name), 'starts-at': startsAt, 'ends-at': endsAt, ...more },
    {
      'event-topic': { data: { type: 'event-topic', id: topic } },
    },
  );
const later = await event('Later', inDays(400), inDays(401));
const sooner = await event('Sooner', inDays(30), inDays(31));
// Started, not ended: still upcoming for the home page ("not ended").
const running = await event('Running', inDays(-10), inDays(10));
await event('Past', inDays(-30), inDays(-29));
await event('Draft', inDays(60), inDays(61), { state: 'draft' });
await event('Private', inDays(90), inDays(91), { privacy: 'private' });

t.test('published public events that have not ended, soonest first, with their topics', async (t) => {
  const res = await frontEnd(base, cast.other.token).adapter('GET', '/v1/events/upcoming', {
    query: {
      upcoming: true,
      include: 'event-topic,event-sub-topic,event-type,speakers-call',
      cache: true,
      public: true,
      'page[size]': 12,
    },
  });
  t.equal(res.status, 200);
  t.equal(res.headers.get('access-control-allow-origin'), '*');
  t.strictSame(
    res.body.data.map((e: { id: string }) => e.id),
    [running, sooner, later],
  );
  t.equal(res.body.meta.count, 3);
  t.strictSame(
    res.body.included.map((i: { type: string; id: string }) => [i.type, i.id]),
    [['event-topic', topic]],
  );
  const owner = await frontEnd(base, cast.owner.token).adapter('GET', '/v1/events/upcoming', {
    query: { upcoming: true },
  });
  t.strictSame(
    owner.body.data.map((e: { id: string }) => e.id),
    [running, sooner, later],
    "not the owner's draft or private event either: the home page shows the public",
  );
});

t.test('the client may filter and sort it like any list', async (t) => {
  const sorted = await frontEnd(base).adapter('GET', '/v1/events/upcoming', {
    query: { upcoming: true, sort: '-starts-at', 'page[size]': 2 },
  });
  t.strictSame(
    sorted.body.data.map((e: { id: string }) => e.id),
    [later, sooner],
  );
  t.equal(sorted.body.meta.count, 3);
  const named = await frontEnd(base).adapter('GET', '/v1/events/upcoming', {
    query: { filter: [{ name: 'name', op: 'eq', val: 'Later' }] },
  });
  t.strictSame(
    named.body.data.map((e: { id: string }) => e.id),
    [later],
  );
  t.equal(
    (await frontEnd(base).adapter('GET', '/v1/events/upcoming', { query: { unknown: 1 } })).status,
    400,
    'other parameters are still refused',
  );
});

/**
 * open-event-frontend `app/routes/index.js:100-229`: the featured events (`is-featured eq true` inside
 * `_loadEvents`' filter, lines 24-62) and the call-for-speakers list (`is-sessions-speakers-enabled`,
 * `is-demoted`, and the upcoming-events filter: `is-featured` or `is-promoted` or a complete listing,
 * with `event-topic`, `event-sub-topic` and `event-type` `ne null`, and a public speakers call open
 * now with an announcement: four `speakers-call has` conditions, lines 167-201), each with
 * `include=event-topic,event-sub-topic,event-type,speakers-call`. The flags are the administrators' to set.
 */
t.test("the home page's featured and call-for-speakers lists, with type and sub-topic included", async (t) => {
  const admin = cast.admin.token;
  const type = await create(app, admin, 'event-types', 'event-type', { name: 'Conference' });
  const sub = await create(
    app,
    admin,
    'event-sub-topics',
    'event-sub-topic',
    { name: 'Robotics' },
    { 'event-topic': { data: { type: 'event-topic', id: topic } } },
  );
  const classified = {
    'event-type': { data: { type: 'event-type', id: type } },
    'event-sub-topic': { data: { type: 'event-sub-topic', id: sub } },
  };
  const complete = {
    'logo-url': 'https://example.org/logo.png',
    'original-image-url': 'https://example.org/image.png',
    'is-sessions-speakers-enabled': true,
  };
  const listed = await create(
    app,
    cast.owner.token,
    'events',
    'event',
    { ...eventAttributes('Listed'), 'starts-at': inDays(20), 'ends-at': inDays(21), ...complete },
    {
      'event-topic': { data: { type: 'event-topic', id: topic } },
      ...classified,
    },
  );
  const demoted = await event('Demoted', inDays(22), inDays(23), complete);
  const featured = await event('Featured', inDays(24), inDays(25), { 'is-sessions-speakers-enabled': true });
  const flag = (id: string, attributes: Record<string, boolean>) =>
    frontEnd(base, admin).adapter('PATCH', `/v1/events/${id}`, { body: { data: { type: 'event', id, attributes } } });
  t.equal((await flag(featured, { 'is-featured': true })).status, 200);
  t.equal((await flag(demoted, { 'is-demoted': true, 'is-promoted': true })).status, 200);
  // Open calls for speakers with an announcement; a featured event whose call has closed is left out.
  const calls: Record<string, string> = {};
  for (const [id, privacy] of [
    [listed, 'public'],
    [demoted, 'public'],
    [featured, 'public'],
  ] as const) {
    calls[id] = await create(
      app,
      cast.owner.token,
      'speakers-calls',
      'speakers-call',
      {
        announcement: 'Talk to us',
        privacy,
        'starts-at': inDays(-1),
        'ends-at': inDays(10),
      },
      { event: { data: { type: 'event', id } } },
    );
  }
  const closed = await event('Closed call', inDays(26), inDays(27), { 'is-sessions-speakers-enabled': true });
  t.equal((await flag(closed, { 'is-featured': true })).status, 200);
  await create(
    app,
    cast.owner.token,
    'speakers-calls',
    'speakers-call',
    { announcement: 'Over', 'starts-at': inDays(-5), 'ends-at': inDays(-2) },
    {
      event: { data: { type: 'event', id: closed } },
    },
  );

  const now = new Date().toISOString();
  const published = {
    and: [
      { name: 'state', op: 'eq', val: 'published' },
      { name: 'privacy', op: 'eq', val: 'public' },
    ],
  };
  const include = 'event-topic,event-sub-topic,event-type,speakers-call';
  const openCall = [
    { name: 'speakers-call', op: 'has', val: { name: 'privacy', op: 'eq', val: 'public' } },
    { name: 'speakers-call', op: 'has', val: { name: 'starts-at', op: 'le', val: new Date().toISOString() } },
    { name: 'speakers-call', op: 'has', val: { name: 'ends-at', op: 'ge', val: new Date().toISOString() } },
    { name: 'speakers-call', op: 'has', val: { name: 'announcement', op: 'ne', val: null } },
  ];
  const visitor = frontEnd(base);
  const featuredList = await visitor.adapter('GET', '/v1/events', {
    query: {
      sort: 'starts-at',
      include,
      filter: [
        { and: [...published.and, { name: 'is-featured', op: 'eq', val: true }] },
        { or: [{ name: 'ends-at', op: 'ge', val: now }] },
      ],
      cache: true,
      public: true,
      'page[size]': 6,
    },
  });
  t.equal(featuredList.status, 200);
  t.strictSame(
    featuredList.body.data.map((e: { id: string }) => e.id),
    [featured, closed],
  );

  const upcomingEventsFilter = {
    or: [
      { name: 'is-featured', op: 'eq', val: true },
      { name: 'is-promoted', op: 'eq', val: true },
      {
        and: [
          { name: 'logo-url', op: 'ne', val: null },
          { name: 'original-image-url', op: 'ne', val: null },
          { name: 'event-topic', op: 'ne', val: null },
          { name: 'event-sub-topic', op: 'ne', val: null },
          { name: 'event-type', op: 'ne', val: null },
        ],
      },
    ],
  };
  const cfs = await visitor.adapter('GET', '/v1/events', {
    query: {
      sort: 'starts-at',
      include,
      filter: [
        {
          and: [
            ...published.and,
            upcomingEventsFilter,
            { name: 'is-sessions-speakers-enabled', op: 'eq', val: true },
            { name: 'is-demoted', op: 'eq', val: false },
            ...openCall,
          ],
        },
        {
          or: [
            { name: 'ends-at', op: 'ge', val: now },
            { name: 'starts-at', op: 'ge', val: now },
          ],
        },
      ],
      cache: true,
      public: true,
      'page[size]': 6,
    },
  });
  t.equal(cfs.status, 200);
  t.strictSame(
    cfs.body.data.map((e: { id: string }) => e.id),
    [listed, featured],
    'the complete listing and the featured event; not the demoted one, nor a closed call',
  );
  t.strictSame(cfs.body.data[0].relationships['event-type'].data, { type: 'event-type', id: type });
  t.strictSame(
    cfs.body.included.map((i: { type: string; id: string }) => `${i.type} ${i.id}`).sort(),
    [
      `event-sub-topic ${sub}`,
      `event-topic ${topic}`,
      `event-type ${type}`,
      `speakers-call ${calls[featured]}`,
      `speakers-call ${calls[listed]}`,
    ].sort(),
  );

  const upcoming = await visitor.adapter('GET', '/v1/events/upcoming', {
    query: { upcoming: true, include, cache: true, public: true, 'page[size]': 12 },
  });
  t.equal(upcoming.status, 200);
  t.ok(upcoming.body.data.some((e: { id: string }) => e.id === listed));
});

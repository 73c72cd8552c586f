/**
 * open-event-frontend `app/components/public/session-item.js:83-106`: "Add to My Schedule" on the schedule.
 * The schedule loads sessions with `include: 'track,speakers,session-type,favourite,microlocation.video-stream'`
 * (`app/routes/public/sessions.js:252`; this service has no video streams: the include without it here) and the
 * item shows `@session.favourite` and `@session.favouriteCount` (`session-item.hbs:30,34`). A click creates a
 * `user-favourite-session` with only its session (`app/models/user-favourite-session.ts`: belongsTo session,
 * user; no attributes) or destroys the session's `favourite`. "My schedule" filters on `favourites any user has
 * id eq me` (`app/routes/public/sessions.js:165-178`); "By Popularity" sorts by `-favourite-count`.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const base = await listening(app);
const { event, session } = world.published;
const other = frontEnd(base, world.cast.other.token);
const speaker = frontEnd(base, world.cast.speaker.token);

const schedule = (client: ReturnType<typeof frontEnd>, filter: unknown[] = [], sort = 'starts-at,id') =>
  client.adapter('GET', `/v1/events/${event}/sessions`, {
    query: { include: 'track,speakers,session-type,favourite', filter, sort, 'page[size]': 6, 'page[number]': 1 },
  });
const mySchedule = (id: string) => [
  { name: 'favourites', op: 'any', val: { name: 'user', op: 'has', val: { name: 'id', op: 'eq', val: id } } },
];

t.test('anonymous visitors read the schedule with favourite null and the count', async (t) => {
  const res = await schedule(frontEnd(base));
  t.equal(res.status, 200);
  const item = res.body.data.find((s: { id: string }) => s.id === session);
  t.equal(item.relationships.favourite.data, null);
  t.equal(item.attributes['favourite-count'], 0);
  t.equal(item.attributes['average-rating'], 0);
});

t.test('add to my schedule, see it as my favourite only, remove it', async (t) => {
  // session-item.js:101-104: createRecord('user-favourite-session', {session}).save()
  const created = await other.adapter('POST', '/v1/user-favourite-sessions', {
    body: {
      data: { type: 'user-favourite-session', relationships: { session: { data: { type: 'session', id: session } } } },
    },
  });
  t.equal(created.status, 201);
  const fav = created.body.data;
  t.same(fav.relationships.user.data, { type: 'user', id: world.cast.other.id }, 'the caller is its user');

  const mine = await schedule(other);
  const item = mine.body.data.find((s: { id: string }) => s.id === session);
  t.same(
    item.relationships.favourite.data,
    { type: 'user-favourite-session', id: fav.id },
    'session.favourite is mine',
  );
  t.equal(item.attributes['favourite-count'], 1);
  t.ok(
    mine.body.included.some(
      (r: { type: string; id: string }) => r.type === 'user-favourite-session' && r.id === fav.id,
    ),
    'included',
  );

  const theirs = await schedule(speaker);
  const seen = theirs.body.data.find((s: { id: string }) => s.id === session);
  t.equal(seen.relationships.favourite.data, null, "another user's favourite is not theirs");
  t.equal(seen.attributes['favourite-count'], 1, 'but counts');

  const filtered = await schedule(other, mySchedule(world.cast.other.id));
  t.same(
    filtered.body.data.map((s: { id: string }) => s.id),
    [session],
    'my schedule',
  );
  t.same((await schedule(speaker, mySchedule(world.cast.speaker.id))).body.data, [], 'empty for another user');
  const popular = await schedule(frontEnd(base), [], '-favourite-count,id');
  t.equal(popular.status, 200, 'by popularity');

  const again = await other.adapter('POST', '/v1/user-favourite-sessions', {
    body: {
      data: { type: 'user-favourite-session', relationships: { session: { data: { type: 'session', id: session } } } },
    },
  });
  t.equal(again.status, 409, 'once per session');

  t.equal((await speaker.adapter('DELETE', `/v1/user-favourite-sessions/${fav.id}`)).status, 404, 'not theirs to see');
  // session-item.js:98-99: favourite.destroyRecord()
  const removed = await other.adapter('DELETE', `/v1/user-favourite-sessions/${fav.id}`);
  t.equal(removed.status, 200);
  const after = (await schedule(other)).body.data.find((s: { id: string }) => s.id === session);
  t.equal(after.relationships.favourite.data, null);
  t.equal(after.attributes['favourite-count'], 0);
});

t.test('anonymous callers are asked to log in; sessions they cannot see are not found', async (t) => {
  const body = {
    data: { type: 'user-favourite-session', relationships: { session: { data: { type: 'session', id: session } } } },
  };
  t.equal((await frontEnd(base).adapter('POST', '/v1/user-favourite-sessions', { body })).status, 401);
  const draft = {
    data: {
      type: 'user-favourite-session',
      relationships: { session: { data: { type: 'session', id: world.draft.session } } },
    },
  };
  t.equal((await other.adapter('POST', '/v1/user-favourite-sessions', { body: draft })).status, 404);
});

t.test(
  "a session save sends average-rating and favourite-count back, stale or null: they stay the server's",
  async (t) => {
    // app/models/session.js:43,51: neither is readOnly, so ember-data sends both on every save (null on create).
    const organizer = frontEnd(base, world.cast.organizer.token);
    const created = await organizer.adapter('POST', '/v1/sessions', {
      body: {
        data: {
          type: 'session',
          attributes: { title: 'Lightning talks', 'average-rating': null, 'favourite-count': null },
          relationships: { event: { data: { type: 'event', id: event } } },
        },
      },
    });
    t.equal(created.status, 201, JSON.stringify(created.body));
    t.equal(created.body.data.attributes['average-rating'], 0);
    t.equal(created.body.data.attributes['favourite-count'], 0);
    const id = created.body.data.id;
    const fav = await other.adapter('POST', '/v1/user-favourite-sessions', {
      body: { data: { type: 'user-favourite-session', relationships: { session: { data: { type: 'session', id } } } } },
    });
    t.equal(fav.status, 404, "a draft session is not on anyone else's schedule");
    const saved = await organizer.adapter('PATCH', `/v1/sessions/${id}`, {
      body: {
        data: {
          type: 'session',
          id,
          attributes: { title: 'Lightning talks!', 'average-rating': 4.5, 'favourite-count': 99 },
        },
      },
    });
    t.equal(saved.status, 200, JSON.stringify(saved.body));
    t.match(saved.body.data.attributes, { title: 'Lightning talks!', 'average-rating': 0, 'favourite-count': 0 });
    const wrong = await organizer.adapter('PATCH', `/v1/sessions/${id}`, {
      body: { data: { type: 'session', id, attributes: { 'favourite-count': 'many' } } },
    });
    t.equal(wrong.status, 422, 'still a number or null');
  },
);

t.test("the public session page lists the session's favourites: the caller's own, none for visitors", async (t) => {
  // app/routes/public/session/view.js:20-28: findRecord with include favourite, then query('favourites', {include: 'user', 'page[size]': 0}).
  const body = {
    data: { type: 'user-favourite-session', relationships: { session: { data: { type: 'session', id: session } } } },
  };
  const fav = await speaker.adapter('POST', '/v1/user-favourite-sessions', { body });
  t.equal(fav.status, 201);
  const page = (client: ReturnType<typeof frontEnd>) =>
    client.adapter('GET', `/v1/sessions/${session}/favourites`, { query: { include: 'user', 'page[size]': 0 } });
  const visitor = await page(frontEnd(base));
  t.equal(visitor.status, 200);
  t.same(visitor.body.data, [], "nobody's schedule is shown to visitors");
  const own = await page(speaker);
  t.same(
    own.body.data.map((f: { id: string }) => f.id),
    [fav.body.data.id],
  );
  t.same(
    own.body.included.map((u: { type: string; id: string }) => [u.type, u.id]),
    [['user', world.cast.speaker.id]],
  );
  const organizer = await page(frontEnd(base, world.cast.organizer.token));
  t.same(
    organizer.body.data.map((f: { id: string }) => f.id),
    [fav.body.data.id],
    "the event's organizers see who added it",
  );
  const detail = await frontEnd(base).adapter('GET', `/v1/sessions/${session}`, {
    query: { include: 'session-type,speakers,track,event,favourite' },
  });
  t.equal(detail.status, 200);
  t.equal(detail.body.data.relationships.favourite.data, null);
});

/**
 * Includes cost no statement whatever the number of rows: a read is one statement (the page, its count
 * and every include path), plus the token's account for a caller with a token: 100 sessions with
 * include=speakers,track are 2 statements for their owner.
 */
import t from 'tap';
import type { Test } from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const { app, queries, resetQueries } = await buildTestApp(t);
const owner = await seedUser(app);
const stranger = await seedUser(app);

// A published event with 3 tracks, 120 sessions (every 10th soft-deleted) and 150 speakers, each
// session linked to two speakers; a draft event whose sessions must never show up for others.
await app.sql.unsafe(`
  insert into events (identifier, name, starts_at, ends_at, timezone, state, owner_id) values
    ('pubevent', 'Public', '2030-01-01T09:00Z', '2030-01-02T18:00Z', 'UTC', 'published', ${owner.id}),
    ('drftevnt', 'Draft', '2030-01-01T09:00Z', '2030-01-02T18:00Z', 'UTC', 'draft', ${owner.id});
  insert into tracks (event_id, name, color, font_color) select 1, 'Track ' || g, '#112233', '#ffffff' from generate_series(1, 3) g;
  insert into speakers (event_id, name, email, mobile) select 1, 'Speaker ' || g, 's' || g || '@example.com', '+1 ' || g
    from generate_series(1, 150) g;
  insert into sessions (event_id, title, track_id, state, deleted_at)
    select 1, 'Session ' || g, 1 + g % 3, 'accepted', case when g % 10 = 0 then now() end from generate_series(1, 120) g;
  insert into sessions (event_id, title, state) select 2, 'Hidden ' || g, 'draft' from generate_series(1, 5) g;
  insert into speakers_sessions select 1 + (s.id % 150), s.id from sessions s where s.event_id = 1;
  insert into speakers_sessions select 1 + ((s.id + 7) % 150), s.id from sessions s where s.event_id = 1;
`);

async function measure(t: Test, url: string, token?: string) {
  resetQueries();
  const res = await call(app, { url, token });
  assertDocument(t, res, 200);
  return { statements: queries.length, body: res.body };
}

/** The statements of `url` at page sizes 1, 10 and 100 are all `expected`. */
async function constant(t: Test, url: string, expected: number, token?: string) {
  const runs = [];
  for (const size of [1, 10, 100]) runs.push(await measure(t, `${url}&page[size]=${size}`, token));
  t.strictSame(
    runs.map((r) => r.statements),
    [expected, expected, expected],
    `${url}: ${expected} statements at any page size`,
  );
  return runs.at(-1)!.body;
}

t.test('100 sessions with include=speakers,track: 2 statements (the token, the read)', async (t) => {
  const body = await constant(t, '/v1/sessions?include=speakers,track', 2, owner.token);
  t.equal(body.data.length, 100);
  t.equal(body.meta.count, 108 + 5, 'live sessions of both events, for their owner');
  const included = body.included as { type: string; id: string; attributes: Record<string, unknown> }[];
  const speakers = included.filter((r) => r.type === 'speaker');
  const tracks = included.filter((r) => r.type === 'track');
  t.equal(tracks.length, 3, 'each track once');
  t.ok(speakers.length > 50, 'many speakers, still one statement');
  t.ok(
    speakers.every((s) => typeof s.attributes.email === 'string'),
    'the owner sees speaker emails',
  );
  const first = body.data[0];
  t.equal(first.relationships.speakers.data.length, 2, 'linkage of the included relationship');
  t.same(first.relationships.track.data, { type: 'track', id: String(1 + (Number(first.id) % 3)) });
});

t.test("an event's sessions with include=speakers,track", async (t) => {
  const anonymous = await constant(t, '/v1/events/pubevent/sessions?include=speakers,track', 1);
  t.equal(anonymous.meta.count, 108);
  const speakers = (anonymous.included as { type: string; attributes: Record<string, unknown> }[]).filter(
    (r) => r.type === 'speaker',
  );
  t.ok(
    speakers.length > 0 && speakers.every((s) => !('email' in s.attributes) && !('mobile' in s.attributes)),
    'no private speaker data for anonymous callers',
  );
  // A token costs one statement (the account behind it), nothing per row.
  const user = await constant(t, '/v1/events/1/sessions?include=speakers,track', 2, stranger.token);
  t.equal(user.meta.count, 108);
  const global = await constant(t, '/v1/sessions?include=speakers', 2, stranger.token);
  t.equal(global.meta.count, 108, "the draft event's sessions do not exist for a stranger");
});

t.test('an event with nested includes: one statement for all include paths', async (t) => {
  resetQueries();
  const res = await call(app, {
    url: '/v1/events/1?include=sessions.speakers,sessions.track,tracks,owner',
    token: owner.token,
  });
  assertDocument(t, res, 200);
  t.equal(
    queries.length,
    1 + 1,
    'the token, then the event with sessions, their speakers, their tracks, tracks and owner',
  );
  t.equal(res.body.data.relationships.sessions.data.length, 108);
});

t.test('the home page and wizard includes: one statement each', async (t) => {
  // 3 topics with 4 sub-topics each, 2 types, and 60 published events spread over them.
  await app.sql.unsafe(`
    insert into event_topics (name, slug) select 'Topic ' || g, 'topic-' || g from generate_series(1, 3) g;
    insert into event_sub_topics (name, slug, event_topic_id) select 'Sub ' || g, 'sub-' || g, 1 + g % 3 from generate_series(1, 12) g;
    insert into event_types (name, slug) values ('Conference', 'conference'), ('Meetup', 'meetup');
    insert into events (identifier, name, starts_at, ends_at, timezone, state, owner_id, event_topic_id, event_sub_topic_id, event_type_id)
      select 'home' || g, 'Home ' || g, '2030-01-01T09:00Z', '2030-01-02T18:00Z', 'UTC', 'published', ${owner.id}, 1 + g % 3, 1 + g % 12, 1 + g % 2
      from generate_series(1, 60) g;
  `);
  // The home page's filters (open-event-frontend:app/routes/index.js:106-148); the first event has no type.
  const featured = encodeURIComponent(
    JSON.stringify([
      { name: 'is-featured', op: 'eq', val: false },
      { name: 'event-type', op: 'ne', val: null },
    ]),
  );
  const home = await constant(t, `/v1/events?include=event-topic,event-sub-topic,event-type&filter=${featured}`, 1);
  t.equal((home.data as unknown[]).length, 60);
  t.equal((home.included as unknown[]).length, 3 + 12 + 2, 'every topic, sub-topic and type once');
  const wizard = await constant(t, '/v1/event-topics?sort=name&include=event-sub-topics', 1);
  t.equal((wizard.included as unknown[]).length, 12);
  await constant(t, '/v1/event-types?sort=name&include=events', 1);
  await constant(t, '/v1/event-sub-topics?include=event-topic,events', 1);
});

t.test('orders with include=attendees,tickets and an event with its tickets, tax and speakers call', async (t) => {
  // 30 orders of the owner on the public event, each with 3 ticket holders over 2 of 4 tickets.
  await app.sql.unsafe(`
    insert into tickets (event_id, name, sales_starts_at, sales_ends_at, is_hidden)
      select 1, 'Ticket ' || g, '2030-01-01Z', '2030-02-01Z', g = 4 from generate_series(1, 4) g;
    insert into taxes (event_id, name, rate, tax_id) values (1, 'VAT', 19, 'DE1');
    insert into speakers_calls (event_id, starts_at, ends_at) values (1, '2029-01-01Z', '2029-06-01Z');
    insert into orders (identifier, event_id, user_id) select 'order-' || g, 1, ${owner.id} from generate_series(1, 30) g;
    insert into attendees (event_id, order_id, ticket_id, firstname)
      select 1, o.id, 1 + (o.id + h) % 2, 'Holder ' || h from orders o, generate_series(1, 3) h;
  `);
  const body = await constant(t, '/v1/orders?include=attendees,tickets', 2, owner.token);
  t.equal(body.data.length, 30);
  t.equal(body.data[0].relationships.attendees.data.length, 3);
  t.equal(body.data[0].relationships.tickets.data.length, 2, 'each ticket once per order');
  resetQueries();
  const event = await call(app, { url: '/v1/events/pubevent?include=tickets,tax,speakers-call' });
  assertDocument(t, event, 200);
  t.equal(queries.length, 1, 'the event with its tickets, tax and speakers call: one statement');
  t.equal(event.body.data.relationships.tickets.data.length, 3, 'the hidden ticket left out for anonymous callers');
  const tax = (event.body.included as { type: string; attributes: Record<string, unknown> }[]).find(
    (r) => r.type === 'tax',
  )!;
  t.notOk('tax-id' in tax.attributes, 'no invoicing details for anonymous callers');
});

t.test("the organizer's sessions list and the schedule: feedbacks and the caller's favourite", async (t) => {
  // Owner rates every session of the public event; the stranger favourites every session, the owner every other one.
  await app.sql.unsafe(`
    insert into feedback (rating, user_id, event_id, session_id) select 1 + s.id % 5, ${owner.id}, 1, s.id from sessions s where s.event_id = 1;
    insert into user_favourite_sessions (session_id, user_id) select s.id, ${stranger.id} from sessions s where s.event_id = 1;
    insert into user_favourite_sessions (session_id, user_id) select s.id, ${owner.id} from sessions s where s.event_id = 1 and s.id % 2 = 0;
  `);
  // app/routes/events/view/sessions/list.js:93. Token, event, page, speakers, feedbacks, tracks: no session has
  // a session type, so that include needs no statement.
  const dashboard = await constant(
    t,
    '/v1/events/pubevent/sessions?include=speakers,feedbacks,session-type,track',
    2,
    owner.token,
  );
  const first = dashboard.data[0];
  t.equal(first.relationships.feedbacks.data.length, 1, "the event's feedback, to its owner");
  t.equal(first.attributes['average-rating'], 1 + (Number(first.id) % 5), 'average-rating from the row');
  t.equal(first.attributes['favourite-count'], Number(first.id) % 2 === 0 ? 2 : 1, 'favourite-count from the row');

  // app/routes/public/sessions.js:252: each caller's own favourite, or null.
  const schedule = '/v1/events/pubevent/sessions?include=track,speakers,session-type,favourite';
  const anonymous = await constant(t, schedule, 1);
  t.ok(
    anonymous.data.every(
      (s: { relationships: { favourite: { data: unknown } } }) => s.relationships.favourite.data === null,
    ),
  );
  const mine = await constant(t, schedule, 2, owner.token);
  const favourites = mine.data.map((s: { id: string; relationships: { favourite: { data: unknown } } }) => [
    Number(s.id) % 2 === 0,
    s.relationships.favourite.data !== null,
  ]);
  t.ok(
    favourites.every(([even, has]: [boolean, boolean]) => even === has),
    "the owner's favourite on every other session, none on the rest",
  );
  const favs = (mine.included as { type: string }[]).filter((r) => r.type === 'user-favourite-session');
  t.equal(
    favs.length,
    mine.data.filter((s: { id: string }) => Number(s.id) % 2 === 0).length,
    "only the caller's favourites included",
  );
  const sorted = await constant(
    t,
    '/v1/events/pubevent/sessions?include=favourite&sort=-favourite-count,id',
    2,
    owner.token,
  );
  t.equal(sorted.data[0].attributes['favourite-count'], 2, 'by popularity');
});

t.test(
  'the schedule with microlocation.video-stream, and the public page with the group chain: one statement for all paths',
  async (t) => {
    await app.sql.unsafe(`
    insert into microlocations (event_id, name) select 1, 'Room ' || g from generate_series(1, 4) g;
    insert into video_streams (owner_event_id, event_id, name, url) values (1, 1, 'Main', 'https://meet.example.org/main');
    insert into video_streams (owner_event_id, name, url) select 1, 'Room stream ' || g, 'https://meet.example.org/r' || g from generate_series(1, 2) g;
    update microlocations set video_stream_id = 2 + (id % 2) where event_id = 1;
    update sessions set microlocation_id = 1 + (id % 4) where event_id = 1;
    insert into groups (name, user_id) values ('Summits', ${owner.id});
    update events set group_id = 1 where id = 1;
    insert into user_follow_groups (group_id, user_id) values (1, ${owner.id}), (1, ${stranger.id});
  `);
    const schedule = await constant(
      t,
      '/v1/events/pubevent/sessions?include=speakers,microlocation,track,microlocation.video-stream',
      1,
    );
    const streams = (schedule.included as { type: string; attributes: Record<string, unknown> }[]).filter(
      (r) => r.type === 'video-stream',
    );
    t.equal(streams.length, 2, 'each room stream once');
    t.ok(
      streams.every((s) => !('url' in s.attributes)),
      'no join details for a visitor',
    );

    resetQueries();
    const include = 'owner,organizers,video-stream,group,group.followers,group.followers.user';
    const page = await call(app, { url: `/v1/events/pubevent?include=${include}`, token: owner.token });
    assertDocument(t, page, 200);
    t.equal(queries.length, 1 + 1, 'the token, then the event with every path');
    const included = page.body.included as { type: string; id: string }[];
    t.equal(included.filter((r) => r.type === 'user-follow-group').length, 2, "the group's owner sees both followers");
    t.ok(
      included.some((r) => r.type === 'video-stream' && r.id === '1'),
      "the event's own stream",
    );
  },
);

t.test(
  '"My events" with include=roles.role,roles.user and the dashboard role lists: one statement for all include paths',
  async (t) => {
    // open-event-frontend app/routes/events/list.js:86 (roles.role, roles.user) on the user's events.
    await app.sql.unsafe(`
    insert into events (identifier, name, starts_at, ends_at, timezone, state, owner_id)
      select 'many' || g, 'Many ' || g, '2030-01-01T09:00Z', '2030-01-02T18:00Z', 'UTC', 'published', ${stranger.id} from generate_series(1, 30) g;
    insert into event_roles (event_id, user_id, role) select id, ${owner.id}, 'registrar' from events where identifier like 'many%';
    insert into event_roles (event_id, user_id, role) select id, ${owner.id}, 'moderator' from events where identifier like 'many%';
  `);
    const body = await constant(t, `/v1/users/${owner.id}/events?include=roles.role,roles.user`, 2, owner.token);
    const included = body.included as { type: string; id: string }[];
    t.ok(included.some((r) => r.type === 'role' && r.id === 'moderator'));
    t.ok(included.some((r) => r.type === 'users-events-roles'));
    t.ok(
      included.filter((r) => r.type === 'user').every((r) => r.id === owner.id),
      "only the caller's own user record is included",
    );
    // open-event-frontend app/routes/events/view.js:17: the role lists of the dashboard.
    resetQueries();
    const res = await call(app, {
      url: '/v1/events/many1?include=owner,organizers,coorganizers,track-organizers,registrars,moderators',
      token: owner.token,
    });
    assertDocument(t, res, 200);
    t.equal(queries.length, 1 + 1, 'the token, then the event with every role list');
    t.strictSame(res.body.data.relationships.registrars.data, [{ type: 'user', id: owner.id }]);
    t.strictSame(res.body.data.relationships.moderators.data, [{ type: 'user', id: owner.id }]);
  },
);

/**
 * Includes cost one statement per include path whatever the number of rows: 100 sessions with
 * include=speakers,track is at most 4 statements (token check, page with count, speakers, tracks).
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
  t.strictSame(runs.map((r) => r.statements), [expected, expected, expected], `${url}: ${expected} statements at any page size`);
  return runs.at(-1)!.body;
}

t.test('100 sessions with include=speakers,track: 4 statements', async (t) => {
  const body = await constant(t, '/v1/sessions?include=speakers,track', 4, owner.token);
  t.equal(body.data.length, 100);
  t.equal(body.meta.count, 108 + 5, 'live sessions of both events, for their owner');
  const included = body.included as { type: string; id: string; attributes: Record<string, unknown> }[];
  const speakers = included.filter((r) => r.type === 'speaker');
  const tracks = included.filter((r) => r.type === 'track');
  t.equal(tracks.length, 3, 'each track once');
  t.ok(speakers.length > 50, 'many speakers, still one statement');
  t.ok(speakers.every((s) => typeof s.attributes.email === 'string'), 'the owner sees speaker emails');
  const first = body.data[0];
  t.equal(first.relationships.speakers.data.length, 2, 'linkage of the included relationship');
  t.same(first.relationships.track.data, { type: 'track', id: String(1 + (Number(first.id) % 3)) });
});

t.test("an event's sessions with include=speakers,track", async (t) => {
  const anonymous = await constant(t, '/v1/events/pubevent/sessions?include=speakers,track', 4);
  t.equal(anonymous.meta.count, 108);
  const speakers = (anonymous.included as { type: string; attributes: Record<string, unknown> }[]).filter((r) => r.type === 'speaker');
  t.ok(speakers.length > 0 && speakers.every((s) => !('email' in s.attributes) && !('mobile' in s.attributes)), 'no private speaker data for anonymous callers');
  // A token costs one statement (the account behind it), nothing per row.
  const user = await constant(t, '/v1/events/1/sessions?include=speakers,track', 5, stranger.token);
  t.equal(user.meta.count, 108);
  const global = await constant(t, '/v1/sessions?include=speakers', 3, stranger.token);
  t.equal(global.meta.count, 108, "the draft event's sessions do not exist for a stranger");
});

t.test('an event with nested includes: one statement per include path', async (t) => {
  resetQueries();
  const res = await call(app, { url: '/v1/events/1?include=sessions.speakers,sessions.track,tracks,owner', token: owner.token });
  assertDocument(t, res, 200);
  t.equal(queries.length, 1 + 1 + 5, 'token, event, sessions, their speakers, their tracks, tracks, owner');
  t.equal(res.body.data.relationships.sessions.data.length, 108);
});

t.test('"My events" with include=roles.role,roles.user and the dashboard role lists: one statement per include path', async (t) => {
  // open-event-frontend app/routes/events/list.js:86 (roles.role, roles.user) on the user's events.
  await app.sql.unsafe(`
    insert into events (identifier, name, starts_at, ends_at, timezone, state, owner_id)
      select 'many' || g, 'Many ' || g, '2030-01-01T09:00Z', '2030-01-02T18:00Z', 'UTC', 'published', ${stranger.id} from generate_series(1, 30) g;
    insert into event_roles (event_id, user_id, role) select id, ${owner.id}, 'registrar' from events where identifier like 'many%';
    insert into event_roles (event_id, user_id, role) select id, ${owner.id}, 'moderator' from events where identifier like 'many%';
  `);
  const body = await constant(t, `/v1/users/${owner.id}/events?include=roles.role,roles.user`, 6, owner.token);
  const included = body.included as { type: string; id: string }[];
  t.ok(included.some((r) => r.type === 'role' && r.id === 'moderator'));
  t.ok(included.some((r) => r.type === 'users-events-role'));
  t.ok(included.filter((r) => r.type === 'user').every((r) => r.id === owner.id), "only the caller's own user record is included");
  // open-event-frontend app/routes/events/view.js:17: the role lists of the dashboard.
  resetQueries();
  const res = await call(app, { url: '/v1/events/many1?include=owner,organizers,coorganizers,track-organizers,registrars,moderators', token: owner.token });
  assertDocument(t, res, 200);
  t.equal(queries.length, 1 + 1 + 6, 'token, event, one per role list');
  t.strictSame(res.body.data.relationships.registrars.data, [{ type: 'user', id: owner.id }]);
  t.strictSame(res.body.data.relationships.moderators.data, [{ type: 'user', id: owner.id }]);
});

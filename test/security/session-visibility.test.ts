/**
 * Sessions are public only once accepted or confirmed (open-event-server: "404 unless accepted/
 * confirmed, or the caller is a speaker, the creator, a co-organizer"). Other states exist only for
 * the event's owner, organizers and coorganizers, administrators, the session's creator and the users
 * of its speakers: on the detail route (404), in every list and its count, in includes, in linkage,
 * in filters, and on the routes under the session. Administrators' statistics still count them all.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, eventAttributes, rel } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;
const superAdmin = await seedUser(app, { superAdmin: true });
/** Created a session of the event (set in the table: creators are coorganizers who may have lost the role). */
const creator = await seedUser(app);
/** Owns an event of their own: an organizer, but not of this event. */
const otherOrganizer = await seedUser(app);
await create(app, otherOrganizer.token, 'events', 'event', eventAttributes('Elsewhere'));

const STATES = ['draft', 'pending', 'submitted', 'accepted', 'confirmed', 'rejected', 'canceled', 'withdrawn'];
/** A speaker without an account, speaking at every session below, so its lists reach them all. */
const everywhere = await create(
  app,
  cast.owner.token,
  'speakers',
  'speaker',
  { name: 'Everywhere' },
  { event: rel('event', pub.event) },
);
const inState = new Map<string, string>();
for (const state of STATES) {
  const id = await create(
    app,
    cast.owner.token,
    'sessions',
    'session',
    { title: `In ${state}`, state: state === 'withdrawn' ? 'submitted' : state },
    {
      event: rel('event', pub.event),
      track: rel('track', pub.track),
      microlocation: rel('microlocation', pub.microlocation),
      'session-type': rel('session-type', pub.sessionType),
      speakers: { data: [{ type: 'speaker', id: everywhere }] },
    },
  );
  inState.set(state, id);
}
await app.sql`update sessions set state = 'withdrawn' where id = ${Number(inState.get('withdrawn'))}`;
const created = inState.get('pending')!;
await app.sql`update sessions set creator_id = ${Number(creator.id)} where id = ${Number(created)}`;
/** cast.speaker's user is the speaker of the world's session; it now speaks at the rejected one too. */
const spoken = inState.get('rejected')!;
const linked = await call(app, {
  method: 'POST',
  url: `/v1/sessions/${spoken}/relationships/speakers`,
  token: cast.owner.token,
  body: { data: [{ type: 'speaker', id: pub.speaker }] },
});
if (linked.status !== 200) throw new Error(`link: ${linked.status}`);

const all = [pub.session, ...inState.values()];
const sorted = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b));
const publicOnes = sorted([pub.session, inState.get('accepted')!, inState.get('confirmed')!]);
const CALLERS: [name: string, token: string | undefined, sees: string[]][] = [
  ['anonymous', undefined, publicOnes],
  ['an unrelated user', cast.other.token, publicOnes],
  ['an organizer of another event', otherOrganizer.token, publicOnes],
  ['the creator of the pending session', creator.token, sorted([...publicOnes, created])],
  ["the user of the rejected session's speaker", cast.speaker.token, sorted([...publicOnes, spoken])],
  ['the coorganizer', cast.coorganizer.token, sorted(all)],
  ['the organizer', cast.organizer.token, sorted(all)],
  ['the owner', cast.owner.token, sorted(all)],
  ['an administrator', cast.admin.token, sorted(all)],
  ['a super administrator', superAdmin.token, sorted(all)],
];
const ids = (data: { id: string }[]) => data.map((d) => d.id);

t.test('the detail route: 404 for sessions the caller may not see', async (t) => {
  for (const [who, token, sees] of CALLERS) {
    for (const id of all) {
      const res = await call(app, { url: `/v1/sessions/${id}`, token });
      if (sees.includes(id)) t.equal(res.status, 200, `${who}: session ${id} is there`);
      else expectError(t, res, 404, { detail: 'Object not found.' });
    }
  }
});

t.test('every list of sessions, with its count and its pages', async (t) => {
  const lists = [
    `/v1/events/${pub.event}/sessions`,
    `/v1/events/${pub.identifier}/sessions`,
    `/v1/tracks/${pub.track}/sessions`,
    `/v1/microlocations/${pub.microlocation}/sessions`,
    `/v1/session-types/${pub.sessionType}/sessions`,
    `/v1/speakers/${everywhere}/sessions`,
  ];
  for (const [who, token, sees] of CALLERS) {
    // The world's session is not of the speaker `everywhere`.
    const expected = (url: string) => (url.includes('/speakers/') ? sees.filter((id) => id !== pub.session) : sees);
    for (const url of lists) {
      const res = await call(app, { url: `${url}?page[size]=100`, token });
      assertDocument(t, res, 200);
      t.same(ids(res.body.data), expected(url), `${who}: ${url}`);
      t.equal(res.body.meta.count, expected(url).length, `${who}: ${url} meta.count`);
    }
    const global = await call(app, {
      url: `/v1/sessions?page[size]=100&filter=${encodeURIComponent(JSON.stringify([{ name: 'title', op: 'like', val: 'In %' }]))}`,
      token,
    });
    t.same(
      ids(global.body.data),
      sees.filter((id) => id !== pub.session),
      `${who}: /v1/sessions`,
    );
    const paged = await call(app, { url: `/v1/events/${pub.event}/sessions?page[size]=2&page[number]=2`, token });
    t.same(ids(paged.body.data), sees.slice(2, 4), `${who}: the second page holds the next visible ones`);
    t.equal(paged.body.meta.count, sees.length, `${who}: and counts only those`);
    const last = new URL(paged.body.links.last, 'http://x').searchParams.get('page[number]');
    t.equal(last, String(Math.ceil(sees.length / 2)), `${who}: the last page is the last with visible sessions`);
  }
});

t.test('includes and linkage hold only visible sessions', async (t) => {
  for (const [who, token, sees] of CALLERS) {
    const ofEverywhere = sees.filter((id) => id !== pub.session);
    const cases: [url: string, expected: string[]][] = [
      [`/v1/events/${pub.event}?include=sessions`, sees],
      [`/v1/tracks/${pub.track}?include=sessions`, sees],
      [`/v1/speakers/${everywhere}?include=sessions`, ofEverywhere],
    ];
    for (const [url, expected] of cases) {
      const res = await call(app, { url, token });
      assertDocument(t, res, 200);
      t.same(ids(res.body.data.relationships.sessions.data), expected, `${who}: ${url} linkage`);
      t.same(sorted(ids(res.body.included)), expected, `${who}: ${url} included`);
    }
    const speakers = await call(app, {
      url: `/v1/events/${pub.event}/speakers?include=sessions&page[size]=100`,
      token,
    });
    const includedSessions = ids(speakers.body.included.filter((r: { type: string }) => r.type === 'session'));
    t.same(sorted(includedSessions), sees, `${who}: sessions included from a list of speakers`);
    for (const url of [
      `/v1/speakers/${everywhere}/relationships/sessions`,
      `/v1/events/${pub.event}/relationships/sessions`,
    ]) {
      const res = await call(app, { url, token });
      assertDocument(t, res, 200);
      t.same(ids(res.body.data), url.includes('/speakers/') ? ofEverywhere : sees, `${who}: ${url}`);
    }
  }
});

t.test('filters cannot probe hidden sessions', async (t) => {
  const draftSessions = JSON.stringify([
    { name: 'sessions', op: 'any', val: { name: 'state', op: 'eq', val: 'draft' } },
  ]);
  for (const [who, token, sees] of CALLERS) {
    const seesDraft = sees.includes(inState.get('draft')!);
    const res = await call(app, {
      url: `/v1/events/${pub.event}/speakers?filter=${encodeURIComponent(draftSessions)}`,
      token,
    });
    assertDocument(t, res, 200);
    t.same(ids(res.body.data), seesDraft ? [everywhere] : [], `${who}: speakers of draft sessions`);
    const byState = await call(app, {
      url: `/v1/sessions?filter=${encodeURIComponent(JSON.stringify([{ name: 'state', op: 'eq', val: 'draft' }]))}`,
      token,
    });
    t.equal(byState.body.meta.count, seesDraft ? 1 : 0, `${who}: sessions in draft`);
  }
});

t.test('the routes under a hidden session and writes to it are 404 too', async (t) => {
  const hidden = inState.get('draft')!;
  for (const url of [
    `/v1/sessions/${hidden}/speakers`,
    `/v1/sessions/${hidden}/track`,
    `/v1/sessions/${hidden}/relationships/speakers`,
  ]) {
    expectError(t, await call(app, { url }), 404);
    expectError(t, await call(app, { url, token: cast.other.token }), 404);
    t.equal((await call(app, { url, token: cast.coorganizer.token })).status, 200, `${url}: the coorganizer reads it`);
  }
  const rename = { data: { type: 'session', id: hidden, attributes: { title: 'Taken over' } } };
  expectError(
    t,
    await call(app, { method: 'PATCH', url: `/v1/sessions/${hidden}`, token: cast.other.token, body: rename }),
    404,
  );
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/sessions/${hidden}`, token: cast.other.token }), 404);
  const [row] = await app.sql<
    { title: string; deleted: boolean }[]
  >`select title, deleted_at is not null as deleted from sessions where id = ${Number(hidden)}`;
  t.same({ ...row }, { title: 'In draft', deleted: false }, 'unchanged');
  const moved = await call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${spoken}`,
    token: cast.speaker.token,
    body: { data: { type: 'session', id: spoken, attributes: { state: 'draft' } } },
  });
  t.equal(moved.status, 422, 'its speaker still reaches it (a rejected session cannot go back to draft)');
});

t.test('administrator statistics count sessions in every state', async (t) => {
  const res = await call(app, { url: '/v1/admin/statistics/sessions', token: cast.admin.token });
  assertDocument(t, res, 200);
  const { attributes } = res.body.data;
  for (const state of ['draft', 'pending', 'submitted', 'rejected']) t.ok(attributes[state] >= 1, `${state}: counted`);
});

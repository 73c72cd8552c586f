/**
 * Sessions listed under each record they relate to (event, track, session type, microlocation,
 * speaker, creator), and the relationship routes /v1/sessions/{id}/relationships/speakers|track.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;
const draft = world.draft;
const co = cast.coorganizer.token;
const of = (event: string) => ({ event: rel('event', event) });

// A second track, session and speaker in the published event, and a session of the draft, made by the coorganizer.
// Sessions read anonymously here are accepted: other states are hidden (test/security/session-visibility.test.ts).
const track2 = await create(app, co, 'tracks', 'track', { name: 'Data', color: '#ffffff' }, of(pub.event));
const speaker2 = await create(app, co, 'speakers', 'speaker', { name: 'Linus' }, of(pub.event));
const session2 = await create(
  app,
  co,
  'sessions',
  'session',
  { title: 'Second', state: 'accepted' },
  {
    ...of(pub.event),
    track: rel('track', track2),
    speakers: { data: [{ type: 'speaker', id: speaker2 }] },
  },
);
const draft2 = await create(app, co, 'sessions', 'session', { title: 'Hidden' }, of(draft.event));

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
const sorted = (...list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));
const list = (url: string, token?: string) => call(app, { url, token });
const ref = (type: string, id: string) => ({ type, id });

t.test('each related path lists exactly the related sessions', async (t) => {
  const cases: [string, string[]][] = [
    [`/v1/events/${pub.event}/sessions`, [pub.session, session2]],
    [`/v1/events/${pub.identifier}/sessions`, [pub.session, session2]],
    [`/v1/tracks/${pub.track}/sessions`, [pub.session]],
    [`/v1/tracks/${track2}/sessions`, [session2]],
    [`/v1/session-types/${pub.sessionType}/sessions`, [pub.session]],
    [`/v1/microlocations/${pub.microlocation}/sessions`, [pub.session]],
    [`/v1/speakers/${pub.speaker}/sessions`, [pub.session]],
    [`/v1/speakers/${speaker2}/sessions`, [session2]],
  ];
  for (const [url, expected] of cases) {
    const res = await list(url);
    assertDocument(t, res, 200);
    t.same(ids(res), sorted(...expected), url);
    t.equal(res.body.meta.count, expected.length, `${url}: meta.count`);
    t.ok(
      res.body.data.every((s: { type: string }) => s.type === 'session'),
      `${url}: sessions`,
    );
    t.same(Object.keys(res.body).sort(), ['data', 'jsonapi', 'links', 'meta']);
  }
  const one = (await list(`/v1/tracks/${pub.track}/sessions`)).body.data[0];
  t.same(Object.keys(one).sort(), ['attributes', 'id', 'links', 'relationships', 'type']);
  t.same(one.links, { self: `/v1/sessions/${pub.session}` });
  t.match(one.attributes, { title: 'Opening', state: 'accepted' });
  t.same(one.relationships.track, {
    links: { self: `/v1/sessions/${pub.session}/relationships/track`, related: `/v1/sessions/${pub.session}/track` },
    data: { type: 'track', id: pub.track },
  });
  t.same(one.relationships.creator.data, { type: 'user', id: cast.owner.id });
});

t.test('draft sessions are listed only for those who see the draft', async (t) => {
  for (const url of [
    `/v1/events/${draft.event}/sessions`,
    `/v1/tracks/${draft.track}/sessions`,
    `/v1/session-types/${draft.sessionType}/sessions`,
    `/v1/microlocations/${draft.microlocation}/sessions`,
    `/v1/speakers/${draft.speaker}/sessions`,
  ]) {
    expectError(t, await list(url), 404, { detail: 'Object not found.' });
    expectError(t, await list(url, cast.speaker.token), 404);
    t.equal((await list(url, cast.organizer.token)).status, 200, `${url}: organizer`);
  }
  t.same(ids(await list(`/v1/events/${draft.event}/sessions`, cast.organizer.token)), sorted(draft.session, draft2));
  t.same(ids(await list(`/v1/tracks/${draft.track}/sessions`, cast.admin.token)), [draft.session]);
});

t.test('/v1/users/{id}/sessions lists the sessions the user created, for the user or an administrator', async (t) => {
  const url = `/v1/users/${cast.coorganizer.id}/sessions`;
  const own = await list(url, co);
  assertDocument(t, own, 200);
  t.same(ids(own), sorted(session2, draft2), 'the coorganizer created these two');
  t.same(ids(await list(url, cast.admin.token)), sorted(session2, draft2), 'an administrator reads them too');
  expectError(t, await list(url), 401);
  expectError(t, await list(url, cast.other.token), 403);
  expectError(t, await list(url, cast.owner.token), 403);
  const owners = await list(`/v1/users/${cast.owner.id}/sessions`, cast.owner.token);
  t.same(ids(owners), sorted(pub.session, draft.session), "the owner's own sessions");
  t.same(
    ids(await list(`/v1/users/${cast.other.id}/sessions`, cast.other.token)),
    [],
    'none for a user who created none',
  );
});

t.test('/v1/sessions/{id}/relationships/speakers: GET, POST, DELETE, PATCH', async (t) => {
  const token = cast.organizer.token;
  const session = await create(
    app,
    token,
    'sessions',
    'session',
    { title: 'Linked', state: 'accepted' },
    of(pub.event),
  );
  const url = `/v1/sessions/${session}/relationships/speakers`;
  const speakers = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', ids?: string[], who: string | null = token) =>
    call(app, {
      method,
      url,
      token: who ?? undefined,
      ...(ids ? { body: { data: ids.map((id) => ref('speaker', id)) } } : {}),
    });
  const doc = (...list: string[]) => ({
    links: { self: url, related: `/v1/sessions/${session}/speakers` },
    data: sorted(...list).map((id) => ref('speaker', id)),
    jsonapi: { version: '1.0' },
  });

  const empty = await speakers('GET', undefined, null);
  assertDocument(t, empty, 200);
  t.strictSame(empty.body, doc());
  t.strictSame((await speakers('POST', [pub.speaker])).body, doc(pub.speaker), 'POST adds');
  t.strictSame(
    (await speakers('POST', [speaker2, pub.speaker])).body,
    doc(pub.speaker, speaker2),
    'POST adds to what is there',
  );
  t.same(
    ids(await list(`/v1/sessions/${session}/speakers`)),
    sorted(pub.speaker, speaker2),
    'the related list follows',
  );
  t.ok(ids(await list(`/v1/speakers/${speaker2}/sessions`)).includes(session), 'and so does the inverse');
  t.strictSame((await speakers('DELETE', [pub.speaker])).body, doc(speaker2), 'DELETE removes');
  t.strictSame((await speakers('PATCH', [pub.speaker])).body, doc(pub.speaker), 'PATCH replaces');
  t.strictSame((await speakers('GET')).body, doc(pub.speaker));

  expectError(t, await speakers('POST', [draft.speaker]), 422, { pointer: '/data/relationships/speakers' });
  expectError(t, await speakers('PATCH', [speaker2, draft.speaker]), 422, { pointer: '/data/relationships/speakers' });
  expectError(t, await speakers('POST', ['999999']), 404);
  expectError(t, await speakers('POST', [speaker2], null), 401);
  expectError(t, await speakers('POST', [speaker2], cast.other.token), 403);
  expectError(t, await speakers('POST', [speaker2], cast.speaker.token), 403, {
    pointer: '/data/relationships/speakers',
    detail: 'You may add or remove only speakers of your own',
  });
  t.strictSame((await speakers('GET')).body, doc(pub.speaker), 'refused changes left the links alone');
  t.strictSame((await speakers('PATCH', [])).body, doc(), 'PATCH [] clears');
});

t.test('/v1/sessions/{id}/relationships/track: PATCH to a track of the same event, and to null', async (t) => {
  const token = cast.coorganizer.token;
  const session = await create(
    app,
    token,
    'sessions',
    'session',
    { title: 'Tracked', state: 'accepted' },
    { ...of(pub.event), track: rel('track', pub.track) },
  );
  const url = `/v1/sessions/${session}/relationships/track`;
  const patch = (data: unknown, who: string | null = token) =>
    call(app, { method: 'PATCH', url, token: who ?? undefined, body: { data } });
  const doc = (data: unknown) => ({
    links: { self: url, related: `/v1/sessions/${session}/track` },
    data,
    jsonapi: { version: '1.0' },
  });

  t.strictSame((await call(app, { url })).body, doc(ref('track', pub.track)));
  const moved = await patch(ref('track', track2));
  assertDocument(t, moved, 200);
  t.strictSame(moved.body, doc(ref('track', track2)));
  const related = await call(app, { url: `/v1/sessions/${session}/track` });
  t.match(related.body, {
    data: { type: 'track', id: track2, attributes: { name: 'Data' } },
    links: { self: `/v1/sessions/${session}/track` },
  });
  t.ok(ids(await list(`/v1/tracks/${track2}/sessions`)).includes(session), 'listed under the new track');
  t.notOk(ids(await list(`/v1/tracks/${pub.track}/sessions`)).includes(session), 'and no longer under the old one');

  expectError(t, await patch(ref('track', draft.track)), 422, { pointer: '/data/relationships/track' });
  expectError(t, await patch(ref('track', track2), cast.other.token), 403);
  expectError(t, await patch(null, null), 401);
  t.strictSame((await call(app, { url })).body, doc(ref('track', track2)), 'unchanged by the refusals');

  t.strictSame((await patch(null)).body, doc(null), 'null clears the track');
  const none = await call(app, { url: `/v1/sessions/${session}/track` });
  assertDocument(t, none, 200);
  t.strictSame(none.body, {
    data: null,
    links: { self: `/v1/sessions/${session}/track` },
    jsonapi: { version: '1.0' },
  });
  t.equal((await call(app, { url: `/v1/sessions/${session}` })).body.data.relationships.track.data, null);
});

t.test('a deleted session leaves every list', async (t) => {
  const res = await call(app, { method: 'DELETE', url: `/v1/sessions/${session2}`, token: co });
  t.equal(res.status, 200);
  for (const url of [
    `/v1/events/${pub.event}/sessions`,
    `/v1/tracks/${track2}/sessions`,
    `/v1/speakers/${speaker2}/sessions`,
    `/v1/users/${cast.coorganizer.id}/sessions`,
  ])
    t.notOk(ids(await list(url, co)).includes(session2), url);
  t.strictSame(
    (await call(app, { url: `/v1/speakers/${speaker2}/relationships/sessions` })).body.data,
    [],
    'and every linkage',
  );
});

t.test('a deleted track is no longer linked from its sessions, wherever the linkage is read', async (t) => {
  const token = cast.organizer.token;
  const doomed = await create(app, token, 'tracks', 'track', { name: 'Doomed', color: '#123456' }, of(pub.event));
  const session = await create(
    app,
    token,
    'sessions',
    'session',
    { title: 'Orphan', state: 'accepted' },
    { ...of(pub.event), track: rel('track', doomed) },
  );
  t.equal((await call(app, { method: 'DELETE', url: `/v1/tracks/${doomed}`, token })).status, 200);

  const endpoint = await call(app, { url: `/v1/sessions/${session}/relationships/track` });
  t.equal(endpoint.body.data, null, 'the relationship endpoint: null');
  const included = await call(app, { url: `/v1/sessions/${session}?include=track` });
  t.same([included.body.data.relationships.track.data, included.body.included], [null, []], 'with include: null');
  const detail = await call(app, { url: `/v1/sessions/${session}` });
  t.equal(detail.body.data.relationships.track.data, null, 'the detail does not point at the deleted track');
  const listed = (await call(app, { url: `/v1/events/${pub.event}/sessions?page[size]=100` })).body.data.find(
    (s: { id: string }) => s.id === session,
  );
  t.equal(listed.relationships.track.data, null, 'nor does the list');
  const related = await call(app, { url: `/v1/sessions/${session}/track` });
  t.equal(related.body.data, null, 'the related route: null');
});

/**
 * Speakers: the three lists (event, session, user), creating through each of them, who sees email
 * and mobile, and the relationship routes /v1/speakers/{id}/relationships/event|user|sessions.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel, tokenOf, type RoleName } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const pub = world.published;
const draft = world.draft;
const of = (event: string) => ({ event: rel('event', event) });
// The published event takes submissions (a user's own speaker), as the call for speakers needs.
await app.sql`update events set is_sessions_speakers_enabled = true where id = ${Number(pub.event)}`;
// A second speaker of the published event, with no account and no session.
const speaker2 = await create(
  app,
  cast.coorganizer.token,
  'speakers',
  'speaker',
  { name: 'Bob', email: 'bob@example.com', mobile: '+1 555' },
  of(pub.event),
);

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((d) => d.id);
const sorted = (...list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));
const get = (url: string, token?: string) => call(app, { url, token });
const post = (
  url: string,
  token: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
) =>
  call(app, {
    method: 'POST',
    url,
    token,
    body: { data: { type: 'speaker', attributes, ...(relationships ? { relationships } : {}) } },
  });
const encode = (value: unknown) => encodeURIComponent(JSON.stringify(value));

t.test('each list holds only the related speakers', async (t) => {
  const byEvent = await get(`/v1/events/${pub.event}/speakers`);
  assertDocument(t, byEvent, 200);
  t.same(ids(byEvent), sorted(pub.speaker, speaker2));
  t.equal(byEvent.body.meta.count, 2);
  t.same(ids(await get(`/v1/events/${draft.event}/speakers`, cast.owner.token)), [draft.speaker]);
  t.same(ids(await get(`/v1/sessions/${pub.session}/speakers`)), [pub.speaker]);
  t.same(ids(await get(`/v1/sessions/${draft.session}/speakers`, cast.organizer.token)), [draft.speaker]);

  const mine = await get(`/v1/users/${cast.speaker.id}/speakers`, cast.speaker.token);
  assertDocument(t, mine, 200);
  t.same(ids(mine), [pub.speaker], "the user's speakers, without the draft event's one they may not see");
  t.same(ids(await get(`/v1/users/${cast.speaker.id}/speakers`, cast.admin.token)), sorted(pub.speaker, draft.speaker));
  t.same(
    ids(await get(`/v1/users/${cast.other.id}/speakers`, cast.other.token)),
    [],
    'none for a user who is no speaker',
  );
  expectError(t, await get(`/v1/users/${cast.speaker.id}/speakers`), 401);
  expectError(t, await get(`/v1/users/${cast.speaker.id}/speakers`, cast.other.token), 403);
});

t.test('POST on each list path links the new speaker to the path record', async (t) => {
  const token = cast.owner.token;
  const viaEvent = await post(`/v1/events/${pub.event}/speakers`, token, { name: 'Via event' });
  assertDocument(t, viaEvent, 201);
  const id1 = viaEvent.body.data.id;
  t.equal(viaEvent.headers.location, `/v1/speakers/${id1}`);
  t.same(viaEvent.body.links, { self: `/v1/speakers/${id1}` });
  t.same(viaEvent.body.data.relationships.event, {
    links: { self: `/v1/speakers/${id1}/relationships/event`, related: `/v1/speakers/${id1}/event` },
    data: { type: 'event', id: pub.event },
  });
  t.ok(ids(await get(`/v1/events/${pub.event}/speakers`)).includes(id1), 'listed under the event');
  t.equal(
    (await post(`/v1/events/${pub.event}/speakers`, token, { name: 'Same' }, of(pub.event))).status,
    201,
    'naming the same event is fine',
  );
  expectError(t, await post(`/v1/events/${pub.event}/speakers`, token, { name: 'Other' }, of(draft.event)), 409, {
    pointer: '/data/relationships/event',
  });

  const viaSession = await post(
    `/v1/sessions/${pub.session}/speakers`,
    cast.organizer.token,
    { name: 'Via session' },
    of(pub.event),
  );
  assertDocument(t, viaSession, 201);
  const id2 = viaSession.body.data.id;
  t.same(ids(await get(`/v1/sessions/${pub.session}/speakers`)), sorted(pub.speaker, id2), 'listed under the session');
  t.same((await get(`/v1/speakers/${id2}/relationships/sessions`)).body.data, [{ type: 'session', id: pub.session }]);
  expectError(
    t,
    await post(`/v1/sessions/${draft.session}/speakers`, cast.owner.token, { name: 'Astray' }, of(pub.event)),
    422,
    {
      pointer: '/data/relationships/sessions',
    },
  );
  const eventFromPath = await post(`/v1/sessions/${draft.session}/speakers`, cast.coorganizer.token, {
    name: 'No event named',
  });
  assertDocument(t, eventFromPath, 201);
  t.same(
    eventFromPath.body.data.relationships.event.data,
    { type: 'event', id: draft.event },
    "the session's event by default",
  );
  t.same(
    ids(await get(`/v1/sessions/${draft.session}/speakers`, cast.owner.token)),
    sorted(draft.speaker, eventFromPath.body.data.id),
  );

  const own = await post(`/v1/users/${cast.owner.id}/speakers`, token, { name: 'Myself' }, of(pub.event));
  assertDocument(t, own, 201);
  t.same(own.body.data.relationships.user.data, { type: 'user', id: cast.owner.id }, 'linked to the user of the path');
  t.ok(
    ids(await get(`/v1/users/${cast.owner.id}/speakers`, token)).includes(own.body.data.id),
    'listed under the user',
  );
  const forOther = await post(
    `/v1/users/${cast.other.id}/speakers`,
    cast.admin.token,
    { name: 'Assigned' },
    of(pub.event),
  );
  t.equal(forOther.status, 201, 'an administrator creates a speaker for another user');
  t.same(forOther.body.data.relationships.user.data, { type: 'user', id: cast.other.id });
  expectError(
    t,
    await post(
      `/v1/users/${cast.owner.id}/speakers`,
      token,
      { name: 'Else' },
      { ...of(pub.event), user: rel('user', cast.other.id) },
    ),
    409,
    {
      pointer: '/data/relationships/user',
    },
  );
  // The call for speakers: a user without a role submits themself; the speaker is theirs.
  const submitted = await post(`/v1/events/${pub.event}/speakers`, cast.other.token, { name: 'Submitter' });
  assertDocument(t, submitted, 201);
  t.same(
    submitted.body.data.relationships.user.data,
    { type: 'user', id: cast.other.id },
    "a submitter's speaker is theirs",
  );
  expectError(
    t,
    await post(
      `/v1/events/${pub.event}/speakers`,
      cast.other.token,
      { name: 'Else' },
      { user: rel('user', cast.owner.id) },
    ),
    403,
    {
      pointer: '/data/relationships/user',
    },
  );
  expectError(t, await post(`/v1/events/${draft.event}/speakers`, cast.other.token, { name: 'Intruder' }), 404);

  for (const id of [id1, id2, own.body.data.id, forOther.body.data.id, submitted.body.data.id])
    t.equal((await call(app, { method: 'DELETE', url: `/v1/speakers/${id}`, token: cast.admin.token })).status, 200);
});

t.test('email and mobile: shown to the speaker, the organizers and administrators only', async (t) => {
  const sees: [RoleName, boolean][] = [
    ['anonymous', false],
    ['other', false],
    ['speaker', true],
    ['coorganizer', true],
    ['organizer', true],
    ['owner', true],
    ['admin', true],
  ];
  const privateOf = (resource: { attributes: Record<string, unknown> }) =>
    ['email', 'mobile'].filter((k) => k in resource.attributes);
  for (const [role, visible] of sees) {
    const token = tokenOf(cast, role);
    const expected = visible ? ['email', 'mobile'] : [];
    const detail = await get(`/v1/speakers/${pub.speaker}`, token);
    t.same(privateOf(detail.body.data), expected, `${role}: detail`);
    if (visible)
      t.match(detail.body.data.attributes, { email: `ada-${pub.event}@example.com`, mobile: '+49 30 123456' });
    t.equal(detail.body.data.attributes.name, 'Ada', `${role}: the rest is there`);

    const list = await get(`/v1/events/${pub.event}/speakers`, token);
    const ada = list.body.data.find((s: { id: string }) => s.id === pub.speaker);
    const bob = list.body.data.find((s: { id: string }) => s.id === speaker2);
    t.same(privateOf(ada), expected, `${role}: event list`);
    t.same(
      privateOf(bob),
      visible && role !== 'speaker' ? ['email', 'mobile'] : [],
      `${role}: another speaker in the same list`,
    );
    const global = await get(`/v1/speakers?page[size]=100`, token);
    t.same(
      privateOf(global.body.data.find((s: { id: string }) => s.id === pub.speaker)),
      expected,
      `${role}: /v1/speakers`,
    );

    const included = await get(`/v1/sessions/${pub.session}?include=speakers`, token);
    t.same(included.body.data.relationships.speakers.data, [{ type: 'speaker', id: pub.speaker }]);
    t.same(privateOf(included.body.included[0]), expected, `${role}: included from a session`);
    const sparse = await get(`/v1/speakers/${pub.speaker}?fields[speaker]=email,name`, token);
    t.same(
      Object.keys(sparse.body.data.attributes).sort(),
      visible ? ['email', 'name'] : ['name'],
      `${role}: sparse fieldset`,
    );
  }
  for (const token of [undefined, cast.owner.token]) {
    // A sort by a private attribute orders only records whose private members the caller sees; the
    // others sort as null (by id), so their order reveals nothing.
    const byEmail = await get(`/v1/events/${pub.event}/speakers?sort=email`, token);
    t.equal(byEmail.status, 200, 'sort=email is accepted');
    if (!token)
      t.same(ids(byEmail), ids(await get(`/v1/events/${pub.event}/speakers`, token)), 'a visitor: the id order');
    // A filter on a private attribute matches only records whose private members the caller sees.
    const byMobile = await get(
      `/v1/events/${pub.event}/speakers?filter=${encode([{ name: 'mobile', op: 'like', val: '+49%' }])}`,
      token,
    );
    t.same(
      ids(byMobile),
      token ? [pub.speaker] : [],
      token ? 'the owner filters on mobile' : 'a visitor matches nothing',
    );
  }
});

t.test('/v1/speakers/{id}/relationships/event, user and sessions', async (t) => {
  const token = cast.coorganizer.token;
  const base = `/v1/speakers/${speaker2}/relationships`;
  const change = (method: 'PATCH' | 'POST' | 'DELETE', name: string, data: unknown, who: string | null = token) =>
    call(app, { method, url: `${base}/${name}`, token: who ?? undefined, body: { data } });
  const doc = (name: string, data: unknown) => ({
    links: { self: `${base}/${name}`, related: `/v1/speakers/${speaker2}/${name}` },
    data,
    jsonapi: { version: '1.0' },
  });
  const session = (id: string) => ({ type: 'session', id });

  const event = await get(`${base}/event`);
  assertDocument(t, event, 200);
  t.strictSame(event.body, doc('event', { type: 'event', id: pub.event }));
  t.strictSame(
    (await change('PATCH', 'event', { type: 'event', id: pub.event })).body,
    doc('event', { type: 'event', id: pub.event }),
    'the same event: fine',
  );
  expectError(t, await change('PATCH', 'event', { type: 'event', id: draft.event }), 422, {
    pointer: '/data/relationships/event',
  });
  t.match((await get(`/v1/speakers/${speaker2}/event`)).body.data, {
    type: 'event',
    id: pub.event,
    attributes: { name: 'Open Summit' },
  });

  t.strictSame((await get(`${base}/user`)).body, doc('user', null));
  t.strictSame(
    (await change('PATCH', 'user', { type: 'user', id: cast.other.id })).body,
    doc('user', { type: 'user', id: cast.other.id }),
  );
  t.match(
    (await get(`/v1/speakers/${speaker2}`, cast.other.token)).body.data.attributes,
    { email: 'bob@example.com' },
    'the linked user now sees the email',
  );
  t.ok(
    ids(await get(`/v1/users/${cast.other.id}/speakers`, cast.other.token)).includes(speaker2),
    'and finds it in their speakers',
  );
  t.strictSame((await change('PATCH', 'user', null)).body, doc('user', null), 'null unlinks');
  t.notOk(
    'email' in (await get(`/v1/speakers/${speaker2}`, cast.other.token)).body.data.attributes,
    'and hides the email again',
  );
  expectError(t, await change('PATCH', 'user', { type: 'user', id: '999999' }), 404);

  t.strictSame((await get(`${base}/sessions`)).body, doc('sessions', []));
  t.strictSame(
    (await change('POST', 'sessions', [session(pub.session)])).body,
    doc('sessions', [session(pub.session)]),
  );
  t.same(
    ids(await get(`/v1/sessions/${pub.session}/speakers`)),
    sorted(pub.speaker, speaker2),
    "the session's side follows",
  );
  const extra = await create(app, token, 'sessions', 'session', { title: 'Extra', state: 'accepted' }, of(pub.event));
  const both = sorted(pub.session, extra).map(session);
  t.strictSame((await change('PATCH', 'sessions', both)).body, doc('sessions', both), 'PATCH replaces');
  t.strictSame(
    (await change('DELETE', 'sessions', [session(pub.session)])).body,
    doc('sessions', [session(extra)]),
    'DELETE removes',
  );
  t.same(ids(await get(`/v1/sessions/${pub.session}/speakers`)), [pub.speaker]);
  expectError(t, await change('POST', 'sessions', [session(draft.session)]), 422, {
    pointer: '/data/relationships/sessions',
  });
  expectError(t, await change('POST', 'sessions', [session(pub.session)], null), 401);
  expectError(t, await change('POST', 'sessions', [session(pub.session)], cast.other.token), 403);
  expectError(t, await change('PATCH', 'user', { type: 'user', id: cast.speaker.id }, cast.speaker.token), 403);
  t.strictSame((await get(`${base}/sessions`)).body, doc('sessions', [session(extra)]), 'refusals changed nothing');
});

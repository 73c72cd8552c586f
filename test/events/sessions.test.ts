/**
 * Session state moves (src/resources/sessions/states.ts): organizers review, withdraw and reinstate, the
 * session's speakers (the user of a linked speaker, or the session's creator) submit and withdraw. A move
 * in the caller's table is 200, one only the other party may make is 403, one in neither table is 422.
 */
import t, { type Test } from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { expectError, seedUser, type TestUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'States', 'published');
const of = { event: rel('event', event) };
const speaker = await create(
  app,
  cast.owner.token,
  'speakers',
  'speaker',
  { name: 'Grace' },
  { ...of, user: rel('user', cast.speaker.id) },
);
/** Created sessions while a coorganizer, then lost the role: a creator with no rights in the event. */
const author = await seedUser(app);

/** A new session in `state`; withdrawn, which no session starts in, is set in the table (a fixture, not a move). */
async function sessionIn(token: string, state: string, more: Record<string, unknown> = {}) {
  const initial = state === 'withdrawn' ? 'submitted' : state;
  const id = await create(
    app,
    token,
    'sessions',
    'session',
    { title: `In ${state}`, state: initial },
    { ...of, ...more },
  );
  if (initial !== state) await app.sql`update sessions set state = ${state} where id = ${Number(id)}`;
  return id;
}
/** A fresh session in `state` whose speaker is cast.speaker's speaker. */
const spoken = (state: string) =>
  sessionIn(cast.owner.token, state, { speakers: { data: [{ type: 'speaker', id: speaker }] } });
const move = (user: TestUser | undefined, id: string, attributes: Record<string, unknown>, relationships?: unknown) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${id}`,
    token: user?.token,
    body: { data: { type: 'session', id, attributes, ...(relationships ? { relationships } : {}) } },
  });
const stateOf = async (id: string) =>
  (await call(app, { url: `/v1/sessions/${id}`, token: cast.owner.token })).body.data.attributes;

type Case = [from: string, to: string, status: 200 | 403 | 422];

async function check(t: Test, who: string, user: TestUser | undefined, id: string, [from, to, status]: Case) {
  const res = await move(user, id, { state: to });
  const name = `${who}: ${from} -> ${to}`;
  if (status === 200) {
    assertDocument(t, res, 200);
    t.equal(res.body.data?.attributes.state, to, `${name} answers the new state`);
    t.equal((await stateOf(id)).state, to, `${name} is stored`);
    return;
  }
  if (status === 422)
    expectError(t, res, 422, {
      pointer: '/data/attributes/state',
      detail: `A session cannot move from ${from} to ${to}`,
    });
  else expectError(t, res, 403);
  t.equal((await stateOf(id)).state, from, `${name} changed nothing`);
}

t.test('organizers, coorganizers and administrators move along the organizer table', async (t) => {
  const cases: [string, TestUser, Case][] = [
    ['organizer', cast.organizer, ['draft', 'pending', 200]],
    ['organizer', cast.organizer, ['pending', 'submitted', 200]],
    ['organizer', cast.organizer, ['submitted', 'accepted', 200]],
    ['owner', cast.owner, ['accepted', 'confirmed', 200]],
    ['organizer', cast.organizer, ['confirmed', 'rejected', 200]],
    ['organizer', cast.organizer, ['rejected', 'accepted', 200]],
    ['coorganizer', cast.coorganizer, ['canceled', 'confirmed', 200]],
    ['admin', cast.admin, ['draft', 'canceled', 200]],
    ['organizer', cast.organizer, ['accepted', 'accepted', 200]],
    // The reference's organizer moves of withdrawn (app/api/sessions.py, SESSION_STATE_DICT).
    ['organizer', cast.organizer, ['accepted', 'withdrawn', 200]],
    ['admin', cast.admin, ['submitted', 'withdrawn', 200]],
    ['coorganizer', cast.coorganizer, ['rejected', 'withdrawn', 200]],
    ['organizer', cast.organizer, ['withdrawn', 'accepted', 200]],
    ['admin', cast.admin, ['withdrawn', 'pending', 200]],
    ['owner', cast.owner, ['withdrawn', 'canceled', 200]],
    ['organizer', cast.organizer, ['confirmed', 'pending', 200]],
    ['coorganizer', cast.coorganizer, ['canceled', 'rejected', 200]],
    ['organizer', cast.organizer, ['draft', 'withdrawn', 422]],
    ['organizer', cast.organizer, ['withdrawn', 'confirmed', 422]],
    ['organizer', cast.organizer, ['withdrawn', 'submitted', 422]],
    ['organizer', cast.organizer, ['submitted', 'draft', 422]],
    ['coorganizer', cast.coorganizer, ['rejected', 'canceled', 422]],
    ['organizer', cast.organizer, ['confirmed', 'draft', 422]],
  ];
  for (const [who, user, c] of cases) await check(t, who, user, await spoken(c[0]), c);
});

t.test("the speaker's user moves along the speaker table", async (t) => {
  const cases: Case[] = [
    ['draft', 'submitted', 200],
    ['pending', 'withdrawn', 200],
    ['submitted', 'withdrawn', 200],
    ['accepted', 'withdrawn', 200],
    ['confirmed', 'withdrawn', 200],
    ['accepted', 'accepted', 200],
    ['submitted', 'accepted', 403],
    ['draft', 'pending', 200],
    ['accepted', 'confirmed', 403],
    ['canceled', 'accepted', 403],
    ['confirmed', 'rejected', 403],
    ['withdrawn', 'pending', 403],
    ['withdrawn', 'accepted', 403],
    ['rejected', 'withdrawn', 200],
    ['canceled', 'withdrawn', 200],
    ['withdrawn', 'submitted', 422],
    ['submitted', 'draft', 422],
  ];
  for (const c of cases) await check(t, 'speaker', cast.speaker, await spoken(c[0]), c);
});

t.test("the session's creator counts as its speaker; unrelated callers may not move it", async (t) => {
  const added = await call(app, {
    method: 'POST',
    url: `/v1/events/${event}/relationships/coorganizers`,
    token: cast.owner.token,
    body: { data: [{ type: 'user', id: author.id }] },
  });
  t.equal(added.status, 200);
  const cases: Case[] = [
    ['draft', 'submitted', 200],
    ['accepted', 'withdrawn', 200],
    ['accepted', 'rejected', 403],
    ['withdrawn', 'draft', 422],
  ];
  const made = [];
  for (const c of cases) made.push(await sessionIn(author.token, c[0]));
  const removed = await call(app, {
    method: 'DELETE',
    url: `/v1/events/${event}/relationships/coorganizers`,
    token: cast.owner.token,
    body: { data: [{ type: 'user', id: author.id }] },
  });
  t.same(removed.body.data, [{ type: 'user', id: cast.coorganizer.id }], 'the author is no coorganizer any more');
  const creator = await call(app, { url: `/v1/sessions/${made[0]}/relationships/creator`, token: author.token });
  t.same(creator.body.data, { type: 'user', id: author.id }, 'the creator is recorded');
  for (const [i, c] of cases.entries()) await check(t, 'creator', author, made[i]!, c);

  const id = await spoken('accepted');
  expectError(t, await move(cast.other, id, { state: 'withdrawn' }), 403);
  expectError(t, await move(undefined, id, { state: 'withdrawn' }), 401);
  expectError(t, await move(author, id, { state: 'withdrawn' }), 403);
  t.equal((await stateOf(id)).state, 'accepted', 'nothing changed');
});

t.test("a speaker edits the session's content, not what organizers set, and nothing once it is locked", async (t) => {
  const id = await spoken('draft');
  const edited = await move(cast.speaker, id, {
    state: 'submitted',
    title: 'Mine now',
    website: 'https://grace.example.org',
  });
  assertDocument(t, edited, 200);
  t.match(
    edited.body.data.attributes,
    { state: 'submitted', title: 'Mine now', website: 'https://grace.example.org' },
    'content and state',
  );
  const room = await create(app, cast.owner.token, 'microlocations', 'microlocation', { name: 'Hall' }, of);
  const organizerOnly: [Record<string, unknown>, unknown, string][] = [
    [{ 'is-locked': true }, undefined, '/data/attributes/is-locked'],
    [{ 'is-mail-sent': true }, undefined, '/data/attributes/is-mail-sent'],
    [{ 'starts-at': '2030-01-01T09:00:00.000Z' }, undefined, '/data/attributes/starts-at'],
    [{}, { microlocation: { data: { type: 'microlocation', id: room } } }, '/data/relationships/microlocation'],
  ];
  for (const [attributes, relationships, pointer] of organizerOnly)
    expectError(t, await move(cast.speaker, id, { title: 'Again', ...attributes }, relationships), 403, { pointer });
  const unchanged = await move(
    cast.speaker,
    id,
    { title: 'Kept', 'is-locked': false, 'is-mail-sent': false, 'starts-at': null },
    { microlocation: { data: null } },
  );
  t.equal(unchanged.status, 200, "organizers' members sent back unchanged are harmless");
  t.match(
    await stateOf(id),
    { title: 'Kept', 'is-locked': false, 'is-mail-sent': false },
    'the refusals changed nothing',
  );

  const locked = await move(cast.organizer, id, { 'is-locked': true });
  t.equal(locked.body.data?.attributes['is-locked'], true, 'organizers lock it');
  expectError(t, await move(cast.speaker, id, { title: 'Late' }), 403, {
    pointer: '/data/attributes/is-locked',
    detail: 'Locked sessions cannot be edited',
  });
  expectError(t, await move(cast.speaker, id, { state: 'withdrawn' }), 403, { pointer: '/data/attributes/is-locked' });
  t.match(await stateOf(id), { title: 'Kept', state: 'submitted' }, 'nothing changed');
  const ok = await move(cast.organizer, id, { title: 'Renamed', 'is-locked': false });
  t.equal(ok.body.data?.attributes.title, 'Renamed', 'an organizer edits a locked session and unlocks it');
  t.equal((await move(cast.speaker, id, { title: 'Unlocked' })).status, 200, 'unlocked, the speaker edits again');
});

t.test('moving into submitted stamps submitted-at', async (t) => {
  const bySpeaker = await spoken('draft');
  t.equal((await stateOf(bySpeaker))['submitted-at'], null, 'not submitted yet');
  const before = Date.now();
  const res = await move(cast.speaker, bySpeaker, { state: 'submitted' });
  const stamp = Date.parse(res.body.data.attributes['submitted-at']);
  t.ok(stamp >= before - 1000 && stamp <= Date.now() + 1000, 'stamped with the time of the move');
  t.equal((await stateOf(bySpeaker))['submitted-at'], res.body.data.attributes['submitted-at'], 'and stored');

  const byOrganizer = await spoken('pending');
  const moved = await move(cast.organizer, byOrganizer, { state: 'submitted' });
  t.type(moved.body.data.attributes['submitted-at'], 'string', 'an organizer move stamps it too');
  const accepted = await move(cast.organizer, byOrganizer, { state: 'accepted' });
  t.equal(
    accepted.body.data.attributes['submitted-at'],
    moved.body.data.attributes['submitted-at'],
    'later moves keep the stamp',
  );

  const other = await spoken('accepted');
  const stays = await move(cast.organizer, other, { state: 'confirmed' });
  t.equal(stays.body.data.attributes['submitted-at'], null, 'other moves do not stamp');
  const created = await call(app, {
    url: `/v1/sessions/${await sessionIn(cast.owner.token, 'submitted')}`,
    token: cast.owner.token,
  });
  t.type(created.body.data.attributes['submitted-at'], 'string', 'created as submitted: stamped');
});

t.test('a new session starts in draft or where organizers may move a draft; withdrawn is only reached', async (t) => {
  for (const state of ['draft', 'pending', 'submitted', 'accepted', 'confirmed', 'rejected', 'canceled']) {
    t.ok(await sessionIn(cast.coorganizer.token, state), `created in ${state}`);
  }
  const res = await call(app, {
    method: 'POST',
    url: '/v1/sessions',
    token: cast.owner.token,
    body: { data: { type: 'session', attributes: { title: 'Born withdrawn', state: 'withdrawn' }, relationships: of } },
  });
  expectError(t, res, 422, { pointer: '/data/attributes/state', detail: /cannot start in withdrawn/ });
});

t.test('organizers withdraw a session and reinstate it; its speaker may not reinstate it', async (t) => {
  const id = await spoken('submitted');
  const res = await move(cast.organizer, id, { state: 'withdrawn' });
  assertDocument(t, res, 200);
  t.equal(res.body.data.attributes.state, 'withdrawn');
  expectError(t, await move(cast.speaker, id, { state: 'pending' }), 403, { detail: /Only organizers/ });
  const back = await move(cast.coorganizer, id, { state: 'pending' });
  assertDocument(t, back, 200);
  t.equal(back.body.data.attributes.state, 'pending', 'a coorganizer reinstates it');
  const mine = await move(cast.speaker, id, { state: 'withdrawn' });
  t.equal(mine.body.data.attributes.state, 'withdrawn', 'and its speaker withdraws it again');
});

t.test('one session named twice ("1" and "01") is linked once', async (t) => {
  const id = await sessionIn(cast.owner.token, 'draft');
  const res = await call(app, {
    method: 'POST',
    url: `/v1/speakers/${speaker}/relationships/sessions`,
    token: cast.owner.token,
    body: {
      data: [
        { type: 'session', id },
        { type: 'session', id: `0${id}` },
      ],
    },
  });
  assertDocument(t, res, 200);
  t.equal(res.body.data.filter((d: { id: string }) => d.id === id).length, 1);
});

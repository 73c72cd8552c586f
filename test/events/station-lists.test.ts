/**
 * The reference's list routes of stations and their head counts (app/api/routes.py: `/v1/microlocations/{id}/stations`,
 * `/v1/sessions/{id}/station-store-paxs`, `/v1/stations/{id}/sessions/{session_id}/station-store-paxs`), the head
 * count as the reference's blueprint spells it (`current_pax`), and what deleting a station does: its head counts
 * go with it, and a station that check-ins name is kept (409) with its attendance history.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel, snapshotOf } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Door Conf', 'published');
const other = await createEvent(app, cast, 'Other Conf', 'published');
const owner = cast.owner.token;
const registrar = (await seedUser(app))!;
await app.sql`insert into event_roles (event_id, user_id, role) values (${Number(event.id)}, ${Number(registrar.id)}, 'registrar')`;
const of = (id = event.id) => ({ event: rel('event', id) });
const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, token: string | undefined, data?: unknown) =>
  call(app, { method, url, token, ...(data === undefined ? {} : { body: { data } }) });

const hall = await create(app, owner, 'microlocations', 'microlocation', { name: 'Hall' }, of());
const annex = await create(app, owner, 'microlocations', 'microlocation', { name: 'Annex' }, of());
const talk = await create(app, owner, 'sessions', 'session', { title: 'Talk', state: 'accepted' }, of());
const workshop = await create(app, owner, 'sessions', 'session', { title: 'Workshop', state: 'accepted' }, of());
const station = (name: string, type: string, room?: string) =>
  create(
    app,
    owner,
    'stations',
    'station',
    { 'station-name': name, 'station-type': type },
    { ...of(), ...(room ? { microlocation: rel('microlocation', room) } : {}) },
  );
const door = await station('Hall door', 'check in', hall);
const exit = await station('Hall exit', 'check out', hall);
const annexDoor = await station('Annex door', 'check in', annex);
const desk = await station('Desk', 'registration');
const count = (at: string, session: string, pax: number | string, spelling = 'current-pax') =>
  send('POST', '/v1/station-store-paxs', registrar.token, {
    type: 'station-store-pax',
    attributes: { [spelling]: pax },
    relationships: { station: rel('station', at), session: rel('session', session) },
  });
const ids = (res: Awaited<ReturnType<typeof call>>) => res.body.data.map((d: { id: string }) => d.id).sort();

t.test("a room's stations", async (t) => {
  const list = await send('GET', `/v1/microlocations/${hall}/stations`, registrar.token);
  t.equal(list.status, 200);
  t.same(ids(list), [door, exit].sort(), 'the doors of the hall, not the annex or the desk');
  t.same(ids(await send('GET', `/v1/microlocations/${annex}/stations`, owner)), [annexDoor]);
  const linkage = await send('GET', `/v1/microlocations/${hall}/relationships/stations`, owner);
  t.same(linkage.body.data.map((d: { id: string }) => d.id).sort(), [door, exit].sort());
  for (const outsider of [cast.other.token, cast.speaker.token])
    expectError(t, await send('GET', `/v1/microlocations/${hall}/stations`, outsider), 404, {
      detail: 'Microlocation not found',
    });
  expectError(t, await send('GET', `/v1/microlocations/${hall}/stations`, undefined), 401);
  const room = await send('GET', `/v1/microlocations/${hall}`, cast.other.token);
  t.equal(room.status, 200, 'the room itself stays public');
  t.notOk(room.body.data.relationships.stations.data, 'with no linkage of its stations');
  const included = await send('GET', `/v1/microlocations/${hall}?include=stations`, cast.other.token);
  t.strictSame(included.body.included ?? [], [], 'nor its stations included, for anyone but the door');
});

t.test('head counts: by session, and by station and session', async (t) => {
  const first = await count(door, talk, 10);
  t.equal(first.status, 201, JSON.stringify(first.body.errors ?? []));
  const snake = await count(door, workshop, '12', 'current_pax');
  t.equal(snake.status, 201, `the blueprint's spelling: ${JSON.stringify(snake.body.errors ?? [])}`);
  t.equal(snake.body.data.attributes['current-pax'], 12, 'read back as current-pax');
  t.notOk('current_pax' in snake.body.data.attributes, 'never answered in that spelling');
  const third = await count(exit, talk, 7);
  const bySession = await send('GET', `/v1/sessions/${talk}/station-store-paxs`, registrar.token);
  t.same(ids(bySession), [first.body.data.id, third.body.data.id].sort(), "the talk's counts at every station");
  const both = await send('GET', `/v1/stations/${door}/sessions/${talk}/station-store-paxs`, registrar.token);
  t.equal(both.status, 200);
  t.same(ids(both), [first.body.data.id], "the door's count of the talk");
  t.match(both.body.links.self, new RegExp(`^/v1/stations/${door}/sessions/${talk}/station-store-paxs`));
  t.equal(
    (await send('GET', `/v1/stations/${annexDoor}/sessions/${talk}/station-store-paxs`, owner)).body.meta.count,
    0,
  );
  t.equal((await send('GET', `/v1/stations/${door}/sessions/99999/station-store-paxs`, owner)).body.meta.count, 0);
  expectError(t, await send('GET', `/v1/stations/${door}/sessions/abc/station-store-paxs`, owner), 404, {
    detail: 'session_id "abc" not found',
  });
  for (const outsider of [cast.other.token, cast.speaker.token]) {
    expectError(t, await send('GET', `/v1/sessions/${talk}/station-store-paxs`, outsider), 404);
    expectError(t, await send('GET', `/v1/stations/${door}/sessions/${talk}/station-store-paxs`, outsider), 404);
  }
  t.equal((await send('GET', `/v1/sessions/${talk}`, cast.other.token)).status, 200, 'the session stays public');
});

t.test('current-pax is required once, in either spelling', async (t) => {
  const snapshot = snapshotOf(app, ['station_store_paxs']);
  const before = await snapshot();
  const none = await send('POST', '/v1/station-store-paxs', owner, {
    type: 'station-store-pax',
    attributes: {},
    relationships: { station: rel('station', desk), session: rel('session', talk) },
  });
  expectError(t, none, 422, { pointer: '/data/attributes/current-pax' });
  const both = await send('POST', '/v1/station-store-paxs', owner, {
    type: 'station-store-pax',
    attributes: { 'current-pax': 3, current_pax: 4 },
    relationships: { station: rel('station', desk), session: rel('session', talk) },
  });
  expectError(t, both, 422, { pointer: '/data/attributes/current-pax' });
  expectError(t, await count(desk, talk, -1, 'current_pax'), 422, { pointer: '/data/attributes/current_pax' });
  expectError(t, await count(desk, talk, 'ten', 'current_pax'), 422, { pointer: '/data/attributes/current_pax' });
  t.same(await snapshot(), before, 'nothing written');
  const same = await send('POST', '/v1/station-store-paxs', owner, {
    type: 'station-store-pax',
    attributes: { 'current-pax': 3, current_pax: '3' },
    relationships: { station: rel('station', desk), session: rel('session', talk) },
  });
  t.equal(same.status, 201, 'both spellings of one count');
  const patched = await send('PATCH', `/v1/station-store-paxs/${same.body.data.id}`, registrar.token, {
    type: 'station-store-pax',
    id: same.body.data.id,
    attributes: { current_pax: 5 },
  });
  t.equal(patched.body.data.attributes['current-pax'], 5, 'an update in the blueprint spelling');
});

t.test('deleting a station: its head counts go with it; check-ins keep it', async (t) => {
  const spare = await station('Spare door', 'check in', annex);
  const counted = await count(spare, workshop, 4);
  const gone = await send('DELETE', `/v1/stations/${spare}`, registrar.token);
  t.equal(gone.status, 200);
  const [row] =
    await app.sql`select deleted_at is not null as deleted from station_store_paxs where id = ${Number(counted.body.data.id)}`;
  t.ok(row!.deleted, 'its head count is deleted with it');
  expectError(t, await send('GET', `/v1/station-store-paxs/${counted.body.data.id}`, owner), 404);
  t.notOk(
    ids(await send('GET', `/v1/sessions/${workshop}/station-store-paxs`, owner)).includes(counted.body.data.id),
    'and gone from the lists',
  );

  const ticket = await create(
    app,
    owner,
    'tickets',
    'ticket',
    { name: 'Entry', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' },
    of(),
  );
  const holder = await create(
    app,
    owner,
    'attendees',
    'attendee',
    { firstname: 'Ada' },
    { ...of(), ticket: rel('ticket', ticket) },
  );
  const used = await station('Busy door', 'check in', annex);
  const usedCount = await count(used, talk, 2);
  await app.sql`insert into user_check_ins (ticket_holder_id, station_id, event_id, check_in_out_at)
    values (${Number(holder)}, ${Number(used)}, ${Number(event.id)}, now())`;
  const snapshot = snapshotOf(app, ['stations', 'station_store_paxs', 'user_check_ins']);
  const before = await snapshot();
  const kept = await send('DELETE', `/v1/stations/${used}`, owner);
  expectError(t, kept, 409, { detail: /holds 1 check-in, the attendance history/ });
  t.same(await snapshot(), before, 'the station, its count and its check-in stay as they were');
  await app.sql`update user_check_ins set deleted_at = now() where station_id = ${Number(used)}`;
  t.equal((await send('DELETE', `/v1/stations/${used}`, owner)).status, 200, 'once its check-ins are deleted');
  const [count2] =
    await app.sql`select deleted_at is not null as deleted from station_store_paxs where id = ${Number(usedCount.body.data.id)}`;
  t.ok(count2!.deleted);
  expectError(t, await send('DELETE', `/v1/stations/${door}`, cast.other.token), 404);
  const otherStation = await create(
    app,
    owner,
    'stations',
    'station',
    { 'station-name': 'Theirs', 'station-type': 'daily' },
    of(other.id),
  );
  expectError(t, await send('DELETE', `/v1/stations/${otherStation}`, registrar.token), 404);
});

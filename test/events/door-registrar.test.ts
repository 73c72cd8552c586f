/**
 * The registrars' door right (src/resources/events/access.ts): they read their event's ticket holders, search them,
 * change only their check-in members, see the door's figures of the day and the check-ins of a room; nothing else.
 * Others are told of nothing (404) where the route is the door's.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, rel, snapshotOf } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';
import { buildDoor } from './door-fixture.js';

const { app } = await buildTestApp(t);
const door = await buildDoor(app);
const { stations, sessions } = door;
const reg = door.registrar.token;
const get = (url: string, token: string | undefined = reg) => call(app, { url, token });
const patch = (id: string, data: Record<string, unknown>, token = reg) =>
  call(app, { method: 'PATCH', url: `/v1/attendees/${id}`, token, body: { data: { type: 'attendee', id, ...data } } });

t.test("a registrar reads the event's ticket holders", async (t) => {
  const h = await door.holder({ firstname: 'Kim', email: 'kim@example.org' });
  const list = await get(`/v1/events/${door.event}/attendees?page[size]=0`);
  t.equal(list.status, 200);
  const found = list.body.data.find((a: { id: string }) => a.id === h.id);
  t.match(found?.attributes, { firstname: 'Kim', email: 'kim@example.org', identifier: h.identifier });
  t.equal((await get(`/v1/events/${door.event}/relationships/attendees`)).status, 200);
  const one = await get(`/v1/attendees/${h.id}`);
  t.equal(one.status, 200);
  t.equal(one.body.data.attributes.email, 'kim@example.org');
  t.ok(
    (await get('/v1/attendees?page[size]=0')).body.data.some((a: { id: string }) => a.id === h.id),
    'in /v1/attendees',
  );
  const state = await get(`/v1/states?event_id=${door.event}&attendee_id=${h.id}`);
  t.same(state.body, { is_registered: false, register_times: null }, "the check-in apps' state");
  // Not another event's, nor its orders.
  const stranger = await door.holder({ event: door.other });
  t.equal((await get(`/v1/attendees/${stranger.id}`)).status, 403);
  expectError(t, await get(`/v1/events/${door.other}/attendees`), 403);
  t.equal((await get(`/v1/attendees/${h.id}`, door.strangerRegistrar.token)).status, 403);
  t.equal((await get(`/v1/attendees/${h.id}`, door.cast.other.token)).status, 403);
  const [order] = await app.sql<{ order_id: number }[]>`select order_id from attendees where id = ${Number(h.id)}`;
  t.ok([403, 404].includes((await get(`/v1/orders/${order!.order_id}`)).status), 'no order');
  t.equal((await get(`/v1/events/${door.event}/orders`)).status, 403, "no event's orders");
});

t.test('a registrar changes the check-in members and nothing else', async (t) => {
  const h = await door.holder({ firstname: 'Lee' });
  const snapshot = snapshotOf(app, ['attendees', 'orders', 'tickets']);
  const checkedIn = await patch(h.id, {
    attributes: {
      'is-checked-in': true,
      'checkin-times': '2030-05-01T09:00:00.000Z',
      'device-name-checkin': 'Phone 1',
      'is-registered': 'true',
      'register-times': '2030-05-01T08:55:00.000Z',
      'is-badge-printed': true,
      'badge-printed-at': '2030-05-01T08:56:00Z',
    },
  });
  t.equal(checkedIn.status, 200, JSON.stringify(checkedIn.body));
  t.match(checkedIn.body.data.attributes, {
    'is-checked-in': true,
    'checkin-times': '2030-05-01T09:00:00.000Z',
    'is-registered': true,
    'device-name-checkin': 'Phone 1',
  });
  // As ember-data saves: every member read, sent back, one check-in member changed.
  const read = (await get(`/v1/attendees/${h.id}`)).body.data;
  const everything = { ...read.attributes, 'is-checked-out': true, 'checkout-times': '2030-05-01T12:00:00.000Z' };
  const relationships = Object.fromEntries(
    Object.entries(read.relationships as Record<string, { data?: unknown }>)
      .filter(([, r]) => r.data !== undefined)
      .map(([name, r]) => [name, { data: r.data }]),
  );
  const saved = await patch(h.id, { attributes: everything, relationships });
  t.equal(saved.status, 200, JSON.stringify({ relationships, saved: saved.body }));
  t.equal(saved.body.data.attributes['is-checked-out'], true);
  t.equal(relationships.order?.data, null, 'the door reads no order');
  const [kept] = await app.sql<
    { order_id: number | null }[]
  >`select order_id from attendees where id = ${Number(h.id)}`;
  t.not(kept!.order_id, null, 'the order read as null and sent back stays');

  const before = await snapshot();
  const other = await create(
    app,
    door.cast.owner.token,
    'tickets',
    'ticket',
    { name: 'VIP', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' },
    { event: rel('event', door.event) },
  );
  const refusals: [string, Record<string, unknown>, string][] = [
    ['the name', { attributes: { firstname: 'Eve' } }, '/data/attributes/firstname'],
    ['the e-mail', { attributes: { email: 'eve@example.org' } }, '/data/attributes/email'],
    ['the notes', { attributes: { 'attendee-notes': 'vip' } }, '/data/attributes/attendee-notes'],
    [
      'the answers',
      { attributes: { 'complex-field-values': { shirt: 'L' } } },
      '/data/attributes/complex-field-values',
    ],
    [
      'a check-in member and the city',
      { attributes: { 'is-checked-in': false, city: 'Berlin' } },
      '/data/attributes/city',
    ],
    ['the ticket', { relationships: { ticket: rel('ticket', other) } }, '/data/relationships/ticket'],
    ['the user', { relationships: { user: rel('user', door.registrar.id) } }, '/data/relationships/user'],
  ];
  const beforeRefusals = await snapshot();
  for (const [label, data, pointer] of refusals) {
    const res = await patch(h.id, data);
    expectError(t, res, 403, { pointer });
    t.comment(label);
  }
  t.notSame(before, beforeRefusals, 'the VIP ticket was made');
  t.same(await snapshot(), beforeRefusals, 'nothing written by the refusals');
  const moved = await call(app, {
    method: 'PATCH',
    url: `/v1/attendees/${h.id}/relationships/ticket`,
    token: reg,
    body: { data: { type: 'ticket', id: other } },
  });
  expectError(t, moved, 403, { pointer: '/data' });
  const same = await call(app, {
    method: 'PATCH',
    url: `/v1/attendees/${h.id}/relationships/ticket`,
    token: reg,
    body: { data: { type: 'ticket', id: door.ticket } },
  });
  expectError(t, same, 403, { pointer: '/data' });
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/attendees/${h.id}`, token: reg }), 403);
  const made = await call(app, {
    method: 'POST',
    url: '/v1/attendees',
    token: reg,
    body: {
      data: {
        type: 'attendee',
        attributes: { firstname: 'Sneaky' },
        relationships: { event: rel('event', door.event), ticket: rel('ticket', door.ticket) },
      },
    },
  });
  expectError(t, made, 403);
  t.same(await snapshot(), beforeRefusals, 'still nothing written');
  // The organizers keep their rights, the buyer of a completed order none, a stranger none.
  t.equal((await patch(h.id, { attributes: { firstname: 'Leo' } }, door.cast.coorganizer.token)).status, 200);
  t.equal((await patch(h.id, { attributes: { 'is-checked-in': false } }, door.cast.other.token)).status, 403);
  t.equal((await patch(h.id, { attributes: { 'is-checked-in': false } }, door.strangerRegistrar.token)).status, 403);
});

t.test('the search: by name, e-mail or identifier, for the door only', async (t) => {
  const ada = await door.holder({ firstname: 'Ada', lastname: 'Lovelace', email: 'ada.l@example.org' });
  const alan = await door.holder({ firstname: 'Alan', lastname: 'Turing', email: 'alan@computing.org' });
  const pct = await door.holder({ firstname: '100%', lastname: 'Sure', email: 'sure_1@example.org' });
  const gone = await door.holder({ firstname: 'Ada', lastname: 'Gone' });
  await app.sql`update attendees set deleted_at = now() where id = ${Number(gone.id)}`;
  await door.holder({ firstname: 'Ada', lastname: 'Elsewhere', event: door.other });
  const search = async (query: string, token = reg) => {
    const res = await get(`/v1/events/${door.event}/attendees/search?${query}`, token);
    return res;
  };
  const ids = async (query: string) => {
    const res = await search(query);
    t.equal(res.status, 200, `${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return (res.body.attendees as { id: string }[]).map((a) => a.id);
  };
  const all = await search('name=ada');
  t.same(Object.keys(all.body), ['attendees']);
  t.match(all.body.attendees[0], {
    id: ada.id,
    identifier: ada.identifier,
    firstname: 'Ada',
    lastname: 'Lovelace',
    email: 'ada.l@example.org',
    'ticket-id': door.ticket,
    'is-checked-in': false,
    'is-registered': false,
    'checkin-times': null,
  });
  t.same(await ids('name=ada'), [ada.id], 'a live holder of this event only');
  t.same(await ids('name=LOVE'), [ada.id], 'case-insensitive, in the last name');
  t.same(await ids('name=Ada%20Love'), [ada.id], 'first and last name together');
  t.same(await ids('email=computing'), [alan.id]);
  t.same(await ids('name=ada&email=example'), [ada.id], 'both hold');
  t.same(await ids('name=ada&email=computing'), [], 'both must hold');
  t.same(await ids('name=100%25'), [pct.id], 'a % is a percent sign');
  t.same(await ids('email=e_1'), [pct.id], 'an _ is an underscore');
  t.same(await ids(`identifier=${alan.identifier.toUpperCase()}`), [alan.id], 'the whole identifier');
  t.same(await ids(`identifier=${alan.identifier.slice(0, 8)}`), [], 'not a part of it');
  t.same(await ids(`name=zzz`), []);
  const newest = await ids('email=example.org&limit=2');
  t.equal(newest.length, 2);
  t.ok(Number(newest[0]) > Number(newest[1]), 'the newest first');
  const byIdentifier = await get(
    `/v1/events/${(await get(`/v1/events/${door.event}`)).body.data.attributes.identifier}/attendees/search?name=alan`,
  );
  t.same(
    byIdentifier.body.attendees.map((a: { id: string }) => a.id),
    [alan.id],
    'the event named by its identifier',
  );
  for (const token of [
    door.cast.owner.token,
    door.cast.organizer.token,
    door.cast.coorganizer.token,
    door.cast.admin.token,
  ])
    t.equal((await search('name=ada', token)).status, 200);
  for (const token of [door.cast.other.token, door.cast.speaker.token, door.strangerRegistrar.token])
    expectError(t, await search('name=ada', token), 404);
  expectError(t, await search('name=ada', ''), 401);
  expectError(t, await get('/v1/events/99999/attendees/search'), 404);
  for (const bad of ['limit=0', 'limit=1001', 'limit=x', `name=${'a'.repeat(300)}`, 'colour=red'])
    expectError(t, await search(bad), 400, { parameter: bad.split('=')[0] });
});

t.test("the door's figures of the day", async (t) => {
  const event = door.event;
  const before = (await get(`/v1/user-check-in/stats/event/${event}`)).body;
  const [h1, h2, h3] = [await door.holder(), await door.holder(), await door.holder()];
  await door.holder({ status: 'cancelled' });
  const scan = (station: string, h: { identifier: string }, session?: string) =>
    door.scan(station, { identifier: h.identifier, ...(session ? { session } : {}) });
  t.equal((await scan(stations.desk, h1)).status, 201);
  t.equal((await scan(stations.desk, h2)).status, 201);
  t.equal((await scan(stations.in, h1, sessions.talk)).status, 201);
  t.equal((await scan(stations.out, h1, sessions.talk)).status, 201);
  t.equal((await scan(stations.in, h1, sessions.talk)).status, 201, 'in again: counted once');
  t.equal((await scan(stations.in, h2, sessions.talk)).status, 201);
  t.equal((await scan(stations.annexIn, h3, sessions.workshop)).status, 201);
  const pax = await create(
    app,
    reg,
    'station-store-paxs',
    'station-store-pax',
    { 'current-pax': 7 },
    { station: rel('station', stations.in), session: rel('session', sessions.talk) },
  );
  t.ok(pax);
  const res = await get(
    `/v1/user-check-in/stats/event/${event}?session_ids=${sessions.talk}, ${sessions.workshop},${sessions.elsewhere},999999&track_ids=${door.track}`,
  );
  t.equal(res.status, 200, JSON.stringify(res.body));
  const stats = res.body;
  t.equal(stats.total_attendee, before.total_attendee + 3, 'the cancelled ticket does not count');
  t.equal(stats.total_registered, before.total_registered + 2);
  t.equal(stats.total_not_checked_in, stats.total_attendee - stats.total_registered);
  t.equal(stats.total_session_checked_in, before.total_session_checked_in + 3);
  t.equal(stats.total_session_checked_out, before.total_session_checked_out + 1);
  t.equal(
    stats.total_track_checked_in,
    before.total_track_checked_in + 3,
    'holder and track, a room without a track too',
  );
  t.equal(stats.total_track_checked_out, before.total_track_checked_out + 1);
  t.equal(stats.session_stats.length, 2, "only the event's sessions, in the order asked");
  t.match(stats.session_stats[0], {
    session_id: sessions.talk,
    session_name: 'Keynote',
    track_name: 'Science',
    speakers: ['Grace Hopper'],
    manual_count: { current_pax: 7, created_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/ },
  });
  t.ok(stats.session_stats[0].check_in >= 2 && stats.session_stats[0].check_out >= 1);
  t.match(stats.session_stats[1], {
    session_id: sessions.workshop,
    session_name: '',
    track_name: '',
    speakers: [],
    manual_count: {},
  });
  t.same(stats.track_stats.length, 1);
  t.match(stats.track_stats[0], {
    track_id: door.track,
    track_name: 'Science',
    current_speakers: [],
    current_session: '',
  });
  t.ok(stats.track_stats[0].check_in >= 2);
  const empty = await get(`/v1/user-check-in/stats/event/${event}`);
  t.same([empty.body.session_stats, empty.body.track_stats], [[], []]);
  for (const token of [door.cast.other.token, door.cast.speaker.token, door.strangerRegistrar.token])
    expectError(t, await get(`/v1/user-check-in/stats/event/${event}`, token), 404);
  expectError(t, await get(`/v1/user-check-in/stats/event/${event}`, ''), 401);
  for (const bad of ['session_ids=a', 'session_ids=1;2', 'track_ids=-1', 'colour=red'])
    expectError(t, await get(`/v1/user-check-in/stats/event/${event}?${bad}`), 400, { parameter: bad.split('=')[0] });
});

t.test("a room's check-ins: the door staff's", async (t) => {
  const h = await door.holder();
  const made = await door.scan(stations.annexIn, { identifier: h.identifier, session: sessions.workshop });
  t.equal(made.status, 201);
  const list = await get(`/v1/microlocations/${door.rooms.annex}/user-check-in?page[size]=0`);
  t.equal(list.status, 200);
  const ids = list.body.data.map((c: { id: string }) => c.id);
  t.ok(ids.includes(made.body['user-check-in'].id));
  const hall = await get(`/v1/microlocations/${door.rooms.hall}/user-check-in?page[size]=0`);
  t.notOk(
    hall.body.data.some((c: { id: string }) => c.id === made.body['user-check-in'].id),
    'not in another room',
  );
  expectError(t, await get(`/v1/microlocations/${door.rooms.annex}/user-check-in`, door.cast.other.token), 404);
  expectError(
    t,
    await get(`/v1/microlocations/${door.rooms.annex}/relationships/user-check-in`, door.cast.speaker.token),
    404,
  );
  t.equal((await get(`/v1/microlocations/${door.rooms.annex}/relationships/user-check-in`)).status, 200);
});

/**
 * The door's rules (app/api/user_check_in.py and app/api/helpers/user_check_in.py of the reference) through the scan
 * (POST /v1/stations/{id}/scan) and through POST /v1/user-check-in: a valid ticket, the station's session, one
 * registration a day, check in and out in turn, what the holder's record says after, two simultaneous scans of one
 * ticket never both passing, and every refusal a clear error with nothing written.
 */
import { DateTime } from 'luxon';
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { rel, snapshotOf } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';
import { buildDoor } from './door-fixture.js';

const { app } = await buildTestApp(t);
const door = await buildDoor(app);
const { stations, sessions } = door;
const reg = door.registrar.token;
const snapshot = snapshotOf(app, ['user_check_ins', 'attendees']);

const attendee = async (id: string) =>
  (await call(app, { url: `/v1/attendees/${id}`, token: reg })).body.data.attributes;

/** The time a refusal names, as an instant (it is written in the event's time zone, Europe/Berlin). */
const namedTime = (detail: string) => {
  const m = /at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d) \(Europe\/Berlin\)/.exec(detail);
  return m ? DateTime.fromISO(m[1]!).toMillis() : NaN;
};

t.test('a registration: the holder is registered once a day, and a second desk is told when', async (t) => {
  const h = await door.holder({ firstname: 'Ada', lastname: 'Byron' });
  const res = await door.scan(stations.desk, { identifier: h.identifier });
  t.equal(res.status, 201, JSON.stringify(res.body));
  t.equal(res.headers.location, `/v1/user-check-in/${res.body['user-check-in'].id}`);
  t.match(res.body, {
    success: true,
    message: 'Ticket register successful.',
    station: { id: stations.desk, 'station-name': 'Desk A', 'station-type': 'registration' },
    'user-check-in': { session: null, 'check-in-out-at': null },
    attendee: {
      id: h.id,
      identifier: h.identifier,
      firstname: 'Ada',
      lastname: 'Byron',
      ticket: { id: door.ticket, name: 'Standard' },
      'is-registered': true,
    },
  });
  const first = Date.parse(res.body['user-check-in']['created-at']);
  t.equal(Date.parse(res.body.attendee['register-times']), first, 'register-times holds the time (ISO)');
  const stored = await attendee(h.id);
  t.equal(stored['is-registered'], true);
  t.equal(stored['register-times'], res.body.attendee['register-times']);

  const before = await snapshot();
  const again = await door.scan(stations.desk2, { identifier: h.identifier }, door.cast.organizer.token);
  expectError(t, again, 409);
  t.match(again.body.errors[0].detail, /^Attendee already registered: at .* \(Europe\/Berlin\) at Desk A\.$/);
  t.equal(Math.floor(namedTime(again.body.errors[0].detail) / 1000), Math.floor(first / 1000), 'the time of the first');
  t.same(await snapshot(), before, 'nothing written');

  // Yesterday's registration (in the event's time zone) does not count today.
  await app.sql`update user_check_ins set created_at = now() - interval '1 day 1 hour' where ticket_holder_id = ${Number(h.id)}`;
  const nextDay = await door.scan(stations.desk2, { identifier: h.identifier });
  t.equal(nextDay.status, 201, 'registered again on the next day');
  t.equal((await attendee(h.id))['register-times'].split(',').length, 2, 'both times are kept');
});

t.test('check in and out of a session in turn; the holder record follows', async (t) => {
  const h = await door.holder();
  const scan = (station: string) => door.scan(station, { identifier: h.identifier, session: Number(sessions.talk) });
  const out = await scan(stations.out);
  expectError(t, out, 409, { detail: 'Attendee not check in yet: no check in to this session today.' });
  const first = await scan(stations.in);
  t.equal(first.status, 201, JSON.stringify(first.body));
  t.match(first.body, {
    message: 'Attendee check in successful.',
    'user-check-in': {
      session: sessions.talk,
      'session-name': 'Keynote',
      'track-name': 'Science',
      'speaker-name': 'Grace Hopper',
    },
    attendee: { 'is-checked-in': true, 'is-checked-out': false },
  });
  t.ok(first.body['user-check-in']['check-in-out-at']);
  const twice = await scan(stations.in);
  expectError(t, twice, 409);
  t.match(twice.body.errors[0].detail, /^Attendee already checked in: at .* at Hall in; check out first\.$/);
  const left = await scan(stations.out);
  t.equal(left.status, 201);
  t.match(left.body.attendee, { 'is-checked-in': false, 'is-checked-out': true });
  const leftTwice = await scan(stations.out);
  expectError(t, leftTwice, 409);
  t.match(leftTwice.body.errors[0].detail, /^Attendee not check in yet: checked out at .* at Hall out\.$/);
  t.equal((await scan(stations.in)).status, 201, 'in again after out');
  const stored = await attendee(h.id);
  t.equal(stored['checkin-times'].split(',').length, 2);
  t.equal(stored['checkout-times'].split(',').length, 1);
  t.equal(stored['is-checked-in'], true);
  // Another session is another point: its own turn.
  const workshop = await door.scan(stations.annexIn, { identifier: h.identifier, session: sessions.workshop });
  t.equal(workshop.status, 201, 'a session id as a string is fine too');
});

t.test('a daily check: once a day per station and session', async (t) => {
  const h = await door.holder();
  const first = await door.scan(stations.daily, { identifier: h.identifier, session: sessions.talk });
  t.equal(first.status, 201);
  t.equal(first.body.message, 'Attendee daily check successful.');
  const again = await door.scan(stations.daily, { identifier: h.identifier, session: sessions.talk });
  expectError(t, again, 409);
  t.match(again.body.errors[0].detail, /^Attendee already check daily on station: at .* at Daily\.$/);
  t.equal((await door.scan(stations.daily, { identifier: h.identifier, session: sessions.workshop })).status, 201);
});

t.test('two simultaneous scans of one ticket: one passes, the other is told when', async (t) => {
  for (const [station, session] of [
    [stations.desk, undefined],
    [stations.in, sessions.talk],
    [stations.daily, sessions.talk],
  ] as const) {
    for (let round = 0; round < 3; round++) {
      const h = await door.holder();
      const body = { identifier: h.identifier, ...(session ? { session } : {}) };
      const answers = await Promise.all([
        door.scan(station, body),
        door.scan(station, body, door.cast.organizer.token),
        door.scan(station, body, door.cast.coorganizer.token),
      ]);
      t.same(
        answers.map((a) => a.status).sort(),
        [201, 409, 409],
        `station ${station}, round ${round}: ${answers.map((a) => a.status)}`,
      );
      const [{ count }] = await app.sql<{ count: number }[]>`select count(*)::int as count from user_check_ins
        where ticket_holder_id = ${Number(h.id)}`;
      t.equal(count, 1, 'one check-in written');
    }
  }
});

t.test('only valid tickets of the station event pass', async (t) => {
  const ok = await door.holder({ status: 'placed' });
  t.equal((await door.scan(stations.desk, { identifier: ok.identifier })).status, 201, 'a placed order passes');
  const added = await door.holder({ status: null });
  t.equal(
    (await door.scan(stations.desk, { identifier: added.identifier })).status,
    201,
    'an order-less holder passes',
  );
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['an identifier of nobody', async () => '00000000-0000-0000-0000-000000000000', /No ticket of the station's event/],
    ['a ticket of another event', async () => (await door.holder({ event: door.other })).identifier, /No ticket/],
    ['a cancelled order', async () => (await door.holder({ status: 'cancelled' })).identifier, /order is cancelled/],
    ['a pending order', async () => (await door.holder({ status: 'pending' })).identifier, /order is pending/],
    ['an expired order', async () => (await door.holder({ status: 'expired' })).identifier, /order is expired/],
    [
      'a deleted holder',
      async () => {
        const h = await door.holder();
        await app.sql`update attendees set deleted_at = now() where id = ${Number(h.id)}`;
        return h.identifier;
      },
      /No ticket/,
    ],
    [
      'a deleted order',
      async () => {
        const h = await door.holder();
        await app.sql`update orders set deleted_at = now() where id = (select order_id from attendees where id = ${Number(h.id)})`;
        return h.identifier;
      },
      /order is deleted/,
    ],
  ];
  for (const [label, identifier, detail] of cases) {
    const id = await identifier();
    const before = await snapshot();
    const res = await door.scan(stations.desk, { identifier: id });
    expectError(t, res, 422, { pointer: '/identifier' });
    t.match(res.body.errors[0].detail, detail, label);
    t.same(await snapshot(), before, `${label}: nothing written`);
  }
  // A deleted ticket (the kind): its holders no longer pass.
  const h = await door.holder();
  await app.sql`update tickets set deleted_at = now() where id = ${Number(door.ticket)}`;
  const gone = await door.scan(stations.desk, { identifier: h.identifier });
  expectError(t, gone, 422, { pointer: '/identifier', detail: 'The ticket "Standard" was deleted by the organizers' });
  await app.sql`update tickets set deleted_at = null where id = ${Number(door.ticket)}`;
});

t.test("the session: required but at a registration, of the event, in the station's room", async (t) => {
  const h = await door.holder();
  const cases: [string, string, unknown, string][] = [
    [
      'no session at a door',
      stations.in,
      { identifier: h.identifier },
      'A check at a check in station names its session',
    ],
    [
      'no session at a daily',
      stations.daily,
      { identifier: h.identifier, session: null },
      'A check at a daily station names its session',
    ],
    [
      'a session in another room',
      stations.in,
      { identifier: h.identifier, session: sessions.workshop },
      'Location of your session not matches with station location, please check with the organizer.',
    ],
    [
      "another event's session",
      stations.daily,
      { identifier: h.identifier, session: sessions.elsewhere },
      `The event has no session ${sessions.elsewhere}`,
    ],
    [
      'a session that is not',
      stations.in,
      { identifier: h.identifier, session: 2147483647 },
      'The event has no session 2147483647',
    ],
  ];
  for (const [label, station, body, detail] of cases) {
    const before = await snapshot();
    expectError(t, await door.scan(station, body), 422, { pointer: '/session', detail });
    t.same(await snapshot(), before, `${label}: nothing written`);
  }
});

t.test('the scan is the door staff’s: others find no station', async (t) => {
  const h = await door.holder();
  const body = { identifier: h.identifier };
  for (const [label, token] of [
    ['a stranger', door.cast.other.token],
    ['a speaker', door.cast.speaker.token],
    ["another event's registrar", door.strangerRegistrar.token],
  ] as const)
    t.equal(expectError(t, await door.scan(stations.desk, body, token), 404)?.detail, 'Station not found', label);
  expectError(t, await door.scan(stations.desk, body, ''), 401);
  for (const station of ['99999', 'abc', '0', '99999999999'])
    expectError(t, await door.scan(station, body), 404, { detail: 'Station not found' });
  await app.sql`update stations set deleted_at = now() where id = ${Number(stations.desk2)}`;
  expectError(t, await door.scan(stations.desk2, body), 404);
  await app.sql`update stations set deleted_at = null where id = ${Number(stations.desk2)}`;
  t.equal((await door.scan(stations.desk, body, door.cast.admin.token)).status, 201, 'administrators pass');
});

t.test('bad input: a clear 4xx, nothing written', async (t) => {
  const h = await door.holder();
  const cases: [string, unknown, number, string?][] = [
    ['no identifier', {}, 422, '/identifier'],
    ['an empty identifier', { identifier: '' }, 422, '/identifier'],
    ['a number for identifier', { identifier: 12 }, 422, '/identifier'],
    ['a huge identifier', { identifier: 'x'.repeat(300) }, 422, '/identifier'],
    ['an unknown member', { identifier: h.identifier, colour: 'red' }, 422, '/colour'],
    ['a session in words', { identifier: h.identifier, session: 'talk' }, 422, '/session'],
    ['a session below 1', { identifier: h.identifier, session: 0 }, 422, '/session'],
    ['a NUL in the identifier', { identifier: 'a\u0000b' }, 422, '/identifier'],
    ['malformed JSON', '{"identifier": ', 400],
  ];
  for (const [label, body, status, pointer] of cases) {
    const before = await snapshot();
    const res = await door.scan(stations.desk, body);
    t.equal(res.status, status, label);
    t.equal(res.body.errors[0].status, String(status));
    if (pointer) t.equal(res.body.errors[0].source.pointer, pointer, `${label}: names ${pointer}`);
    t.same(await snapshot(), before, `${label}: nothing written`);
  }
  const text = await call(app, {
    method: 'POST',
    url: `/v1/stations/${stations.desk}/scan`,
    token: reg,
    body: h.identifier,
    headers: { 'content-type': 'text/plain' },
  });
  expectError(t, text, 415);
});

t.test('POST /v1/user-check-in follows the same rules', async (t) => {
  const h = await door.holder();
  const checkIn = (station: string, session?: string) =>
    call(app, {
      method: 'POST',
      url: '/v1/user-check-in',
      token: reg,
      body: {
        data: {
          type: 'user_check_in',
          relationships: {
            station: rel('station', station),
            'ticket-holder': rel('attendee', h.id),
            ...(session ? { session: rel('session', session) } : {}),
          },
        },
      },
    });
  const made = await checkIn(stations.desk);
  t.equal(made.status, 201, JSON.stringify(made.body));
  t.equal((await attendee(h.id))['is-registered'], true);
  const again = await checkIn(stations.desk2);
  expectError(t, again, 409);
  t.match(again.body.errors[0].detail, /^Attendee already registered: at .* at Desk A\.$/);
  expectError(t, await checkIn(stations.out, sessions.talk), 409, {
    detail: 'Attendee not check in yet: no check in to this session today.',
  });
  expectError(t, await checkIn(stations.in, sessions.workshop), 422, { pointer: '/data/relationships/session' });
  t.equal((await checkIn(stations.in, sessions.talk)).status, 201);
  expectError(t, await checkIn(stations.in, sessions.talk), 409);
  const cancelled = await door.holder({ status: 'cancelled' });
  const refused = await call(app, {
    method: 'POST',
    url: '/v1/user-check-in',
    token: reg,
    body: {
      data: {
        type: 'user_check_in',
        relationships: { station: rel('station', stations.desk), 'ticket-holder': rel('attendee', cancelled.id) },
      },
    },
  });
  expectError(t, refused, 422, { pointer: '/data/relationships/ticket-holder' });
  // The reference's clients name the holder `ticket_holder`; naming it twice is refused.
  const snake = await door.holder();
  const post = (relationships: Record<string, unknown>) =>
    call(app, {
      method: 'POST',
      url: '/v1/user-check-in',
      token: reg,
      body: {
        data: { type: 'user_check_in', relationships: { station: rel('station', stations.desk), ...relationships } },
      },
    });
  const bySnake = await post({ ticket_holder: rel('attendee', snake.id) });
  t.equal(bySnake.status, 201, JSON.stringify(bySnake.body));
  const twice = await post({ ticket_holder: rel('attendee', snake.id), 'ticket-holder': rel('attendee', snake.id) });
  expectError(t, twice, 422, { pointer: '/data/relationships/ticket_holder' });
  // A deleted check-in no longer stands in the way.
  const id = made.body.data.id as string;
  t.equal((await call(app, { method: 'DELETE', url: `/v1/user-check-in/${id}`, token: reg })).status, 200);
  t.equal((await checkIn(stations.desk2)).status, 201);
});

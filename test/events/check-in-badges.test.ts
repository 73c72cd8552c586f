/**
 * Stations, station store paxs, user check-ins, badge forms and badge field forms (the reference's station.py,
 * station_store_paxs.py, user_check_in.py, badge_forms.py, badge_field_forms.py): CRUD by an organizer, the door's
 * work by a registrar (who still writes no ticket), nothing for anyone else (404), and bad input refused with
 * nothing written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  create,
  createCast,
  createEvent,
  expectRefused,
  rel,
  snapshotOf,
  type RefusedCase,
} from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Door Conf', 'published');
const other = await createEvent(app, cast, 'Other Conf', 'published');
const owner = cast.owner.token;
const registrar = (await seedUser(app))!;
await app.sql`insert into event_roles (event_id, user_id, role) values (${Number(event.id)}, ${Number(registrar.id)}, 'registrar')`;
const of = (id = event.id) => ({ event: rel('event', id) });
const room = await create(app, owner, 'microlocations', 'microlocation', { name: 'Hall' }, of());
const otherRoom = await create(app, owner, 'microlocations', 'microlocation', { name: 'Elsewhere' }, of(other.id));
const session = await create(
  app,
  owner,
  'sessions',
  'session',
  { title: 'Talk', state: 'accepted' },
  {
    ...of(),
    microlocation: rel('microlocation', room),
  },
);
const ticket = await create(
  app,
  owner,
  'tickets',
  'ticket',
  { name: 'Standard', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' },
  of(),
);
const holder = await create(
  app,
  owner,
  'attendees',
  'attendee',
  { firstname: 'Ada' },
  {
    ...of(),
    ticket: rel('ticket', ticket),
  },
);

const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, token: string | undefined, data?: unknown) =>
  call(app, { method, url, token, ...(data === undefined ? {} : { body: { data } }) });
const station = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) => ({
  type: 'station',
  attributes,
  relationships: { ...of(), ...relationships },
});

t.test('stations: an organizer keeps them, the registrar works with them, others find nothing', async (t) => {
  const made = await send(
    'POST',
    '/v1/stations',
    owner,
    station(
      { 'station-name': 'Door A', 'station-type': 'check in' },
      {
        microlocation: rel('microlocation', room),
      },
    ),
  );
  t.equal(made.status, 201, JSON.stringify(made.body.errors ?? []));
  const id = made.body.data.id as string;
  t.match(made.body.data.attributes, { 'station-name': 'Door A', 'station-type': 'check in' });
  const byReg = await send(
    'POST',
    '/v1/stations',
    registrar.token,
    station({ 'station-name': 'Desk', 'station-type': 'registration' }),
  );
  t.equal(byReg.status, 201, 'a registrar makes a station');
  const patched = await send('PATCH', `/v1/stations/${id}`, registrar.token, {
    type: 'station',
    id,
    attributes: { 'station-name': 'Door 1' },
  });
  t.equal(patched.status, 200);
  t.equal(patched.body.data.attributes['station-name'], 'Door 1');
  const list = await send('GET', `/v1/events/${event.id}/stations`, registrar.token);
  t.equal(list.body.meta.count, 2);
  for (const outsider of [cast.other.token, cast.speaker.token]) {
    t.equal((await send('GET', `/v1/stations/${id}`, outsider)).status, 404);
    t.equal((await send('GET', `/v1/events/${event.id}/stations`, outsider)).status, 404);
    t.equal((await send('PATCH', `/v1/stations/${id}`, outsider, { type: 'station', id, attributes: {} })).status, 404);
    t.equal((await send('DELETE', `/v1/stations/${id}`, outsider)).status, 404);
    const post = await send(
      'POST',
      '/v1/stations',
      outsider,
      station({ 'station-name': 'X', 'station-type': 'daily' }),
    );
    t.equal(post.status, 404);
  }
  t.equal((await send('GET', '/v1/stations', cast.other.token)).body.meta.count, 0);
  t.equal((await send('GET', '/v1/stations', cast.admin.token)).body.meta.count, 2);
  t.equal((await send('GET', `/v1/stations/${id}`, undefined)).status, 404);
  // A registrar does the door's work and nothing else: no ticket.
  const tix = await send('POST', '/v1/tickets', registrar.token, {
    type: 'ticket',
    attributes: { name: 'Sneaky', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' },
    relationships: of(),
  });
  t.equal(tix.status, 403);
  t.equal((await send('DELETE', `/v1/stations/${byReg.body.data.id}`, registrar.token)).status, 200);
  t.equal((await send('GET', `/v1/stations/${byReg.body.data.id}`, owner)).status, 404);
});

t.test('stations: bad input is refused and nothing is written', async (t) => {
  const snapshot = snapshotOf(app, ['stations']);
  const before = await snapshot();
  const cases: RefusedCase<unknown>[] = [
    ['unknown type', station({ 'station-name': 'A', 'station-type': 'exit' }), 422, '/data/attributes/station-type'],
    ['empty name', station({ 'station-name': '', 'station-type': 'daily' }), 422, '/data/attributes/station-name'],
    ['no name', station({ 'station-type': 'daily' }), 422, '/data/attributes/station-name'],
    [
      'a door without its room',
      station({ 'station-name': 'A', 'station-type': 'check out' }),
      422,
      '/data/relationships/microlocation',
    ],
    [
      "another event's room",
      station({ 'station-name': 'A', 'station-type': 'check in' }, { microlocation: rel('microlocation', otherRoom) }),
      422,
      '/data/relationships/microlocation',
    ],
    [
      'unknown member',
      station({ 'station-name': 'A', 'station-type': 'daily', colour: 'red' }),
      422,
      '/data/attributes/colour',
    ],
    [
      'no event',
      { type: 'station', attributes: { 'station-name': 'A', 'station-type': 'daily' } },
      422,
      '/data/relationships',
    ],
    [
      'an event that is not',
      station({ 'station-name': 'A', 'station-type': 'daily' }, { event: rel('event', '99999') }),
      404,
    ],
  ];
  await expectRefused(t, cases, (data) => send('POST', '/v1/stations', owner, data), snapshot, before);
});

t.test('station store paxs and user check-ins: the door counts and checks', async (t) => {
  const door = await create(
    app,
    owner,
    'stations',
    'station',
    { 'station-name': 'Door', 'station-type': 'check in' },
    {
      ...of(),
      microlocation: rel('microlocation', room),
    },
  );
  const desk = await create(
    app,
    owner,
    'stations',
    'station',
    { 'station-name': 'Desk', 'station-type': 'registration' },
    of(),
  );
  const pax = await send('POST', '/v1/station-store-paxs', registrar.token, {
    type: 'station-store-pax',
    attributes: { 'current-pax': '10' },
    relationships: { station: rel('station', door), session: rel('session', session) },
  });
  t.equal(pax.status, 201, JSON.stringify(pax.body.errors ?? []));
  t.equal(pax.body.data.attributes['current-pax'], 10);
  t.equal(pax.body.data.relationships.event.data?.id ?? event.id, event.id);
  const paxId = pax.body.data.id as string;
  const counted = await send('PATCH', `/v1/station-store-paxs/${paxId}`, registrar.token, {
    type: 'station-store-pax',
    id: paxId,
    attributes: { 'current-pax': 12 },
  });
  t.equal(counted.status, 200);
  t.equal((await send('GET', `/v1/stations/${door}/station-store-paxs`, owner)).body.meta.count, 1);
  t.equal((await send('GET', `/v1/station-store-paxs/${paxId}`, cast.other.token)).status, 404);
  const strangeSession = await create(
    app,
    owner,
    'sessions',
    'session',
    { title: 'Far', state: 'accepted' },
    of(other.id),
  );
  const far = await send('POST', '/v1/station-store-paxs', owner, {
    type: 'station-store-pax',
    attributes: { 'current-pax': 1 },
    relationships: { station: rel('station', door), session: rel('session', strangeSession) },
  });
  expectError(t, far, 422, { pointer: '/data/relationships/session' });
  const byOutsider = await send('POST', '/v1/station-store-paxs', cast.other.token, {
    type: 'station-store-pax',
    attributes: { 'current-pax': 1 },
    relationships: { station: rel('station', door), session: rel('session', session) },
  });
  t.equal(byOutsider.status, 404);

  const checkIn = (stationId: string, sessionId?: string, token = registrar.token) =>
    send('POST', '/v1/user-check-in', token, {
      type: 'user_check_in',
      attributes: {},
      relationships: {
        station: rel('station', stationId),
        ...(sessionId ? { session: rel('session', sessionId) } : {}),
        'ticket-holder': rel('attendee', holder),
      },
    });
  const registered = await checkIn(desk);
  t.equal(registered.status, 201, JSON.stringify(registered.body.errors ?? []));
  t.match(registered.body.data.attributes, { success: true, message: 'Ticket register successful.' });
  const checked = await checkIn(door, session);
  t.equal(checked.status, 201, JSON.stringify(checked.body.errors ?? []));
  t.match(checked.body.data.attributes, { message: 'Attendee check in successful.', 'speaker-name': '' });
  t.ok(checked.body.data.attributes['check-in-out-at']);
  expectError(t, await checkIn(door), 422, { pointer: '/data/relationships/session' });
  t.equal((await checkIn(door, session, cast.other.token)).status, 404);
  const id = checked.body.data.id as string;
  t.equal((await send('GET', `/v1/user-check-in/${id}`, cast.other.token)).status, 404);
  t.equal((await send('GET', `/v1/events/${event.id}/user-check-in`, owner)).body.meta.count, 2);
  t.equal(
    (await send('PATCH', `/v1/user-check-in/${id}`, owner, { type: 'user_check_in', id, attributes: {} })).status,
    405,
  );
  t.equal((await send('DELETE', `/v1/user-check-in/${id}`, registrar.token)).status, 200);
});

t.test('badge forms and their fields', async (t) => {
  const form = await send('POST', '/v1/badge-forms', registrar.token, {
    type: 'badge-form',
    attributes: { 'badge-id': 'b1', 'badge-size': '4 x 6 inch (101.6 x 152.4 mm)', 'badge-orientation': 'Portrait' },
    relationships: of(),
  });
  t.equal(form.status, 201, JSON.stringify(form.body.errors ?? []));
  const formId = form.body.data.id as string;
  const field = await send('POST', '/v1/badge-field-forms', cast.organizer.token, {
    type: 'badge-field-form',
    attributes: {
      'badge-id': 'b1',
      'field-identifier': 'firstname',
      'font-size': 14,
      'font-weight': [{ name: 'Bold', font_weight: 'bold' }],
      'qr-custom-field': ['email'],
      'is-field-expanded': true,
    },
    relationships: { 'badge-form': rel('badge-form', formId) },
  });
  t.equal(field.status, 201, JSON.stringify(field.body.errors ?? []));
  t.match(field.body.data.attributes, {
    'font-weight': [{ name: 'Bold', font_weight: 'bold' }],
    'qr-custom-field': ['email'],
  });
  t.equal((await send('GET', `/v1/badge-forms/${formId}/badge-field-forms`, registrar.token)).body.meta.count, 1);
  t.equal((await send('GET', `/v1/events/${event.id}/badge-forms`, registrar.token)).body.meta.count, 1);
  t.equal((await send('GET', `/v1/badge-forms/${formId}`, cast.other.token)).status, 404);
  t.equal((await send('GET', `/v1/badge-field-forms/${field.body.data.id}`, cast.other.token)).status, 404);

  const otherForm = await create(app, owner, 'badge-forms', 'badge-form', { 'badge-id': 'o1' }, of(other.id));
  const moved = await send('PATCH', `/v1/badge-field-forms/${field.body.data.id}`, cast.organizer.token, {
    type: 'badge-field-form',
    id: field.body.data.id,
    relationships: { 'badge-form': rel('badge-form', otherForm) },
  });
  t.ok([404, 422].includes(moved.status), `a field does not move to another event's form (${moved.status})`);

  const snapshot = snapshotOf(app, ['badge_forms', 'badge_field_forms']);
  const before = await snapshot();
  const fieldCases: RefusedCase<unknown>[] = [
    [
      'no badge id',
      { type: 'badge-field-form', attributes: {}, relationships: { 'badge-form': rel('badge-form', formId) } },
      422,
      '/data/attributes/badge-id',
    ],
    ['no badge form', { type: 'badge-field-form', attributes: { 'badge-id': 'b1' } }, 422, '/data/relationships'],
    [
      'font size as words',
      {
        type: 'badge-field-form',
        attributes: { 'badge-id': 'b1', 'font-size': 'big' },
        relationships: { 'badge-form': rel('badge-form', formId) },
      },
      422,
      '/data/attributes/font-size',
    ],
    [
      'a badge form that is not',
      {
        type: 'badge-field-form',
        attributes: { 'badge-id': 'b1' },
        relationships: { 'badge-form': rel('badge-form', '99999') },
      },
      404,
    ],
  ];
  await expectRefused(t, fieldCases, (data) => send('POST', '/v1/badge-field-forms', owner, data), snapshot, before);
  const noBadge = await send('POST', '/v1/badge-forms', owner, {
    type: 'badge-form',
    attributes: {},
    relationships: of(),
  });
  expectError(t, noBadge, 422, { pointer: '/data/attributes/badge-id' });
  t.equal((await send('DELETE', `/v1/badge-forms/${formId}`, cast.coorganizer.token)).status, 200);
  t.equal(
    (await send('GET', `/v1/badge-field-forms/${field.body.data.id}`, owner)).status,
    404,
    'its fields go with it',
  );
});

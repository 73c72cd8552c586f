/**
 * The door of a published event for the door's tests: its cast (test/helpers/events.ts) and a registrar, two rooms
 * with a session each (a track, a type and a speaker on the first), a ticket, stations of every kind, and ticket
 * holders of orders in each status, written straight to the tables the way checkout leaves them.
 */
import type { FastifyInstance } from 'fastify';
import { call } from '../helpers/app.js';
import { create, createCast, createEvent, rel, type Cast } from '../helpers/events.js';
import { seedUser, type TestUser } from '../helpers/users.js';

export interface Holder {
  id: string;
  identifier: string;
}

export interface Door {
  cast: Cast;
  registrar: TestUser;
  /** A registrar of another event only. */
  strangerRegistrar: TestUser;
  event: string;
  other: string;
  ticket: string;
  rooms: { hall: string; annex: string };
  sessions: { talk: string; workshop: string; elsewhere: string };
  track: string;
  stations: { desk: string; desk2: string; daily: string; in: string; out: string; annexIn: string };
  /** A new ticket holder of the event (or `event`), of an order in `status` (none: an order-less holder). */
  holder(fields?: {
    status?: string | null;
    firstname?: string;
    lastname?: string;
    email?: string;
    event?: string;
  }): Promise<Holder>;
  /** POST /v1/stations/{station}/scan as `token` (plain JSON). */
  scan(station: string, body: unknown, token?: string): ReturnType<typeof call>;
}

let n = 0;

export async function buildDoor(app: FastifyInstance): Promise<Door> {
  const cast = await createCast(app);
  const { id: event } = await createEvent(app, cast, 'Door Summit', 'published');
  const { id: other } = await createEvent(app, cast, 'Other Summit', 'published');
  const owner = cast.owner.token;
  const registrar = await seedUser(app);
  const strangerRegistrar = await seedUser(app);
  await app.sql`insert into event_roles (event_id, user_id, role) values
    (${Number(event)}, ${Number(registrar.id)}, 'registrar'), (${Number(other)}, ${Number(strangerRegistrar.id)}, 'registrar')`;
  const of = (id = event) => ({ event: rel('event', id) });
  const hall = await create(app, owner, 'microlocations', 'microlocation', { name: 'Hall' }, of());
  const annex = await create(app, owner, 'microlocations', 'microlocation', { name: 'Annex' }, of());
  const farRoom = await create(app, owner, 'microlocations', 'microlocation', { name: 'Far' }, of(other));
  const track = await create(app, owner, 'tracks', 'track', { name: 'Science', color: '#112233' }, of());
  const type = await create(app, owner, 'session-types', 'session-type', { name: 'Keynote', length: '00:30' }, of());
  const speaker = await create(
    app,
    owner,
    'speakers',
    'speaker',
    { name: 'Grace Hopper', email: 'g@example.org' },
    of(),
  );
  const session = (title: string, room: string, extra: Record<string, unknown> = {}, eventId = event) =>
    create(
      app,
      owner,
      'sessions',
      'session',
      { title, state: 'accepted', 'starts-at': '2030-05-01T10:00:00Z', 'ends-at': '2030-05-01T11:00:00Z' },
      { event: rel('event', eventId), microlocation: rel('microlocation', room), ...extra },
    );
  const talk = await session('Talk', hall, {
    track: rel('track', track),
    'session-type': rel('session-type', type),
    speakers: { data: [{ type: 'speaker', id: speaker }] },
  });
  const workshop = await session('Workshop', annex);
  const elsewhere = await session('Elsewhere', farRoom, {}, other);
  const ticket = await create(
    app,
    owner,
    'tickets',
    'ticket',
    { name: 'Standard', 'sales-starts-at': '2030-01-01T00:00:00Z', 'sales-ends-at': '2030-02-01T00:00:00Z' },
    of(),
  );
  const station = (name: string, type: string, room?: string) =>
    create(
      app,
      owner,
      'stations',
      'station',
      { 'station-name': name, 'station-type': type },
      { ...of(), ...(room ? { microlocation: rel('microlocation', room) } : {}) },
    );
  const stations = {
    desk: await station('Desk A', 'registration'),
    desk2: await station('Desk B', 'registration'),
    daily: await station('Daily', 'daily', hall),
    in: await station('Hall in', 'check in', hall),
    out: await station('Hall out', 'check out', hall),
    annexIn: await station('Annex in', 'check in', annex),
  };
  const buyer = cast.speaker;
  return {
    cast,
    registrar,
    strangerRegistrar,
    event,
    other,
    ticket,
    track,
    rooms: { hall, annex },
    sessions: { talk, workshop, elsewhere },
    stations,
    async holder({
      status = 'completed',
      firstname = `Holder${++n}`,
      lastname = 'Doe',
      email,
      event: eventId = event,
    } = {}) {
      const [order] =
        status === null
          ? [undefined]
          : await app.sql<{ id: number }[]>`insert into orders (identifier, event_id, user_id, status)
              values (gen_random_uuid()::text, ${Number(eventId)}, ${Number(buyer.id)}, ${status}) returning id`;
      const [row] = await app.sql<{ id: number; identifier: string }[]>`
        insert into attendees (event_id, order_id, ticket_id, firstname, lastname, email)
        values (${Number(eventId)}, ${order?.id ?? null}, ${eventId === event ? Number(ticket) : null}, ${firstname},
          ${lastname}, ${email ?? `${firstname.toLowerCase()}@example.org`})
        returning id, identifier`;
      return { id: String(row!.id), identifier: row!.identifier };
    },
    scan: (stationId, body, token = registrar.token) =>
      call(app, {
        method: 'POST',
        url: `/v1/stations/${stationId}/scan`,
        token,
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      }),
  };
}

/**
 * Permission matrix, writes where the rights differ by role: events (create, edit, delete, their
 * organizers and coorganizers), event topics (admins only) and session state moves (organizers
 * review, the session's speakers withdraw). Each cell acts on an event, topic or session of its own.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  buildWorld,
  create,
  createEvent,
  eventAttributes,
  expectCell,
  rel,
  tokenOf,
  type RoleName,
} from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const ROLES: RoleName[] = ['anonymous', 'other', 'speaker', 'coorganizer', 'organizer', 'owner', 'admin'];
type State = 'published' | 'draft';
type Expect = (role: RoleName, state: State) => number;

const RANK: Partial<Record<RoleName, number>> = { coorganizer: 1, organizer: 2, owner: 3, admin: 4 };
/**
 * At least `level` passes with `ok`; a weaker role in the event 403. Callers without a role: 401
 * without a token (404 on a draft, which they cannot see), 403 with one (404 on a draft).
 */
const needs =
  (level: 'coorganizer' | 'organizer' | 'owner', ok: number): Expect =>
  (role, state) => {
    const rank = RANK[role];
    if (rank !== undefined) return rank >= RANK[level]! ? ok : 403;
    if (state === 'draft') return 404;
    return role === 'anonymous' ? 401 : 403;
  };

interface Target {
  id: string;
  identifier?: string;
}
interface Cell {
  name: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  prepare(state: State): Promise<Target>;
  url(x: Target): string;
  body?(x: Target, state: State): unknown;
  expect: Expect;
  /** Not tied to an event: run once, without a state. */
  once?: boolean;
  /** Checked as the admin after the cell: the change happened exactly when the cell succeeded. */
  after?(t: Test, x: Target, succeeded: boolean, label: string): Promise<void>;
}

t.test('write matrix on events, topics and session states', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const { cast } = world;
  const admin = cast.admin.token;
  const spare = await seedUser(app);
  let n = 0;

  const freshEvent = async (state: State) => createEvent(app, cast, `Fresh ${++n}`, state, world.topic);
  const linkage = async (x: Target, name: string) =>
    ((await call(app, { url: `/v1/events/${x.id}/relationships/${name}`, token: admin })).body?.data ?? []).map(
      (d: { id: string }) => d.id,
    );

  const renameEvent = (path: 'id' | 'identifier'): Cell => ({
    name: `PATCH /v1/events/{${path}}`,
    method: 'PATCH',
    prepare: freshEvent,
    url: (x) => `/v1/events/${x[path]}`,
    body: (x) => ({ data: { type: 'event', id: x.id, attributes: { name: `Renamed ${x.id}` } } }),
    expect: needs('coorganizer', 200),
    async after(t, x, ok, label) {
      const res = await call(app, { url: `/v1/events/${x.id}`, token: admin });
      t.equal(res.body?.data?.attributes?.name === `Renamed ${x.id}`, ok, `${label}: renamed only when allowed`);
    },
  });

  /** A role change through the relationship route; `spare` joins, or the present holder leaves. */
  const roleCell = (name: 'organizers' | 'coorganizers', method: Cell['method']): Cell => {
    const holder = name === 'organizers' ? cast.organizer.id : cast.coorganizer.id;
    const sent = method === 'PATCH' ? [holder, spare.id] : method === 'POST' ? [spare.id] : [holder];
    return {
      name: `${method} /v1/events/{id}/relationships/${name}`,
      method,
      prepare: freshEvent,
      url: (x) => `/v1/events/${x.id}/relationships/${name}`,
      body: () => ({ data: sent.map((id) => ({ type: 'user', id })) }),
      expect: needs('owner', 200),
      async after(t, x, ok, label) {
        const now = await linkage(x, name);
        const changed = method === 'DELETE' ? !now.includes(holder) : now.includes(spare.id);
        t.equal(changed, ok, `${label}: ${name} changed only when allowed`);
      },
    };
  };

  /** A session of the event in state accepted, linked to the event's speaker (the `speaker` user). */
  const freshSession = async (state: State): Promise<Target> => {
    const r = world[state];
    const id = await create(
      app,
      cast.owner.token,
      'sessions',
      'session',
      { title: `Talk ${++n}`, state: 'accepted' },
      {
        event: rel('event', r.event),
        speakers: { data: [{ type: 'speaker', id: r.speaker }] },
      },
    );
    return { id };
  };
  const sessionMove = (to: string, expect: Expect): Cell => ({
    name: `PATCH /v1/sessions/{id} state accepted -> ${to}`,
    method: 'PATCH',
    prepare: freshSession,
    url: (x) => `/v1/sessions/${x.id}`,
    body: (x) => ({ data: { type: 'session', id: x.id, attributes: { state: to } } }),
    expect,
    async after(t, x, ok, label) {
      const res = await call(app, { url: `/v1/sessions/${x.id}`, token: admin });
      t.equal(res.body?.data?.attributes?.state, ok ? to : 'accepted', `${label}: state moved only when allowed`);
    },
  });

  const freshTopic = async (): Promise<Target> => ({
    id: await create(app, admin, 'event-topics', 'event-topic', { name: `Topic ${++n}` }),
  });
  const adminOnly =
    (ok: number): Expect =>
    (role) =>
      role === 'admin' ? ok : role === 'anonymous' ? 401 : 403;

  const CELLS: Cell[] = [
    {
      name: 'POST /v1/events',
      method: 'POST',
      prepare: async () => ({ id: '' }),
      url: () => '/v1/events',
      body: (_, state) => ({ data: { type: 'event', attributes: eventAttributes(`New ${++n}`, state) } }),
      expect: (role) => (role === 'anonymous' ? 401 : 201),
    },
    renameEvent('id'),
    renameEvent('identifier'),
    {
      name: 'PATCH /v1/events/{id}/relationships/event-topic',
      method: 'PATCH',
      prepare: freshEvent,
      url: (x) => `/v1/events/${x.id}/relationships/event-topic`,
      body: () => ({ data: null }),
      expect: needs('coorganizer', 200),
    },
    {
      name: 'PATCH /v1/events/{id} naming organizers in the document',
      method: 'PATCH',
      prepare: freshEvent,
      url: (x) => `/v1/events/${x.id}`,
      body: (x) => ({
        data: { type: 'event', id: x.id, relationships: { organizers: { data: [{ type: 'user', id: spare.id }] } } },
      }),
      expect: needs('owner', 200),
      async after(t, x, ok, label) {
        t.equal(
          (await linkage(x, 'organizers')).includes(spare.id),
          ok,
          `${label}: organizers changed only when allowed`,
        );
      },
    },
    {
      name: 'DELETE /v1/events/{id}',
      method: 'DELETE',
      prepare: freshEvent,
      url: (x) => `/v1/events/${x.id}`,
      expect: needs('organizer', 200),
      async after(t, x, ok, label) {
        const res = await call(app, { url: `/v1/events/${x.id}`, token: admin });
        t.equal(res.status, ok ? 404 : 200, `${label}: gone only when allowed`);
      },
    },
    ...(['organizers', 'coorganizers'] as const).flatMap((name) =>
      (['PATCH', 'POST', 'DELETE'] as const).map((m) => roleCell(name, m)),
    ),
    // Speakers may withdraw but not cancel; organizers do both (the reference's organizer table).
    sessionMove('withdrawn', (role, state) => {
      if (role === 'speaker') return state === 'draft' ? 404 : 200;
      return needs('coorganizer', 200)(role, state);
    }),
    sessionMove('canceled', needs('coorganizer', 200)),
    {
      name: 'POST /v1/event-topics',
      method: 'POST',
      prepare: async () => ({ id: '' }),
      url: () => '/v1/event-topics',
      body: () => ({ data: { type: 'event-topic', attributes: { name: `Topic ${++n}` } } }),
      expect: adminOnly(201),
      once: true,
    },
    {
      name: 'PATCH /v1/event-topics/{id}',
      method: 'PATCH',
      prepare: freshTopic,
      url: (x) => `/v1/event-topics/${x.id}`,
      body: (x) => ({ data: { type: 'event-topic', id: x.id, attributes: { name: `Renamed ${x.id}` } } }),
      expect: adminOnly(200),
      once: true,
    },
    {
      name: 'DELETE /v1/event-topics/{id}',
      method: 'DELETE',
      prepare: freshTopic,
      url: (x) => `/v1/event-topics/${x.id}`,
      expect: adminOnly(200),
      once: true,
      async after(t, x, ok, label) {
        const res = await call(app, { url: `/v1/event-topics/${x.id}` });
        t.equal(res.status, ok ? 404 : 200, `${label}: gone only when allowed`);
      },
    },
  ];

  for (const state of ['published', 'draft'] as const) {
    for (const cell of CELLS.filter((c) => !c.once || state === 'published')) {
      for (const role of ROLES) {
        const x = await cell.prepare(state);
        const label = `${cell.name}${cell.once ? '' : ` [${state}]`} as ${role}`;
        const res = await call(app, {
          method: cell.method,
          url: cell.url(x),
          token: tokenOf(cast, role),
          body: cell.body?.(x, state),
        });
        expectCell(t, res, cell.expect(role, state), label);
        await cell.after?.(t, x, res.status < 300, label);
      }
    }
  }
});

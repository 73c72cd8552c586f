/**
 * Permission matrix, writes on an event's records: POST, PATCH, DELETE and the event relationship of
 * every record kind, plus the POST routes under events, sessions and users, for each role on the
 * published and on the draft event. Organizer rights (owner, organizer, coorganizer) or admin are
 * needed; anonymous callers get 401, logged-in callers without rights 403, or 404 where the event is
 * a draft they cannot see. Every cell that changes something acts on a record made for it alone.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  buildWorld,
  create,
  createEvent,
  expectCell,
  rel,
  tokenOf,
  type EventRecords,
  type RoleName,
} from '../helpers/events.js';

const ROLES: RoleName[] = ['anonymous', 'other', 'speaker', 'coorganizer', 'organizer', 'owner', 'admin'];
const MANAGERS: RoleName[] = ['coorganizer', 'organizer', 'owner', 'admin'];
type State = 'published' | 'draft';
type Expect = (role: RoleName, state: State) => number;

/**
 * Organizer rights pass with `ok`. Without a token: 401, except on a draft where the route first
 * looks the draft record up (`anonOnDraft` 404). Logged in without rights: 403, or 404 on a draft.
 */
const write =
  (ok: number, anonOnDraft: 401 | 404): Expect =>
  (role, state) =>
    MANAGERS.includes(role)
      ? ok
      : role === 'anonymous'
        ? state === 'draft'
          ? anonOnDraft
          : 401
        : state === 'draft'
          ? 404
          : 403;

let n = 0;
type Key = Exclude<keyof EventRecords, 'event' | 'identifier'>;
interface Kind {
  path: string;
  type: string;
  key: Key;
  attributes(): Record<string, unknown>;
  /** The attribute a PATCH changes. */
  renames: string;
  relationships?(r: EventRecords): Record<string, unknown>;
  /** One per event: every cell that creates one needs an event of its own. */
  perEvent?: boolean;
  /**
   * The speaker's user edits it where they see it: the world's records (their own speaker, a session
   * they speak at), and with `fresh` also the records made for a cell (sessions linked to their speaker).
   */
  speakerEdits?: 'world' | 'fresh';
}
const KINDS: Kind[] = [
  {
    path: 'event-copyrights',
    type: 'event-copyright',
    key: 'copyright',
    attributes: () => ({ licence: 'CC0', year: 2020 }),
    renames: 'holder',
    perEvent: true,
  },
  {
    path: 'social-links',
    type: 'social-link',
    key: 'socialLink',
    attributes: () => ({ name: 'Blog', link: 'https://blog.example.com' }),
    renames: 'name',
  },
  {
    path: 'microlocations',
    type: 'microlocation',
    key: 'microlocation',
    attributes: () => ({ name: 'Hall' }),
    renames: 'name',
  },
  { path: 'sponsors', type: 'sponsor', key: 'sponsor', attributes: () => ({ name: 'Initech' }), renames: 'name' },
  {
    path: 'tracks',
    type: 'track',
    key: 'track',
    attributes: () => ({ name: 'Data', color: '#123456' }),
    renames: 'name',
  },
  {
    path: 'session-types',
    type: 'session-type',
    key: 'sessionType',
    attributes: () => ({ name: 'Workshop', length: '01:30' }),
    renames: 'name',
  },
  {
    path: 'sessions',
    type: 'session',
    key: 'session',
    attributes: () => ({ title: 'Keynote', state: 'accepted' }),
    renames: 'title',
    // Linked to the world's speaker, so the speaker's user acts on a session of their own.
    relationships: (r) => ({ speakers: { data: [{ type: 'speaker', id: r.speaker }] } }),
    speakerEdits: 'fresh',
  },
  {
    path: 'speakers',
    type: 'speaker',
    key: 'speaker',
    attributes: () => ({ name: 'Grace', email: `grace${++n}@example.com` }),
    renames: 'name',
    speakerEdits: 'world',
  },
  {
    path: 'custom-forms',
    type: 'custom_form',
    key: 'customForm',
    attributes: () => ({ form: 'session', 'field-identifier': `field${++n}`, type: 'text' }),
    renames: 'name',
  },
];

/** What one cell acts on: an event, a record under it, and the world's records of that state. */
interface Target {
  event: string;
  record: string;
  r: EventRecords;
}
interface WriteRoute {
  name: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  prepare(state: State): Promise<Target>;
  url(x: Target, role: RoleName): string;
  body?(x: Target): unknown;
  expect: Expect;
  /** Read back as the admin after the cell: the record changed exactly when the cell succeeded. */
  after?(x: Target, succeeded: boolean, label: string): Promise<void>;
}

t.test('write matrix on event records', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const { cast } = world;
  const admin = cast.admin.token;

  const eventFor = async (kind: Kind, state: State) =>
    kind.perEvent ? (await createEvent(app, cast, `Fresh ${++n}`, state)).id : world[state].event;
  const document = (kind: Kind, r: EventRecords, event?: string) => ({
    data: {
      type: kind.type,
      attributes: kind.attributes(),
      relationships: { ...(event ? { event: rel('event', event) } : {}), ...kind.relationships?.(r) },
    },
  });
  /** A record of its own for a cell (made by the owner), under a fresh event where the kind needs one. */
  const fresh = async (kind: Kind, state: State): Promise<Target> => {
    const r = world[state];
    const event = await eventFor(kind, state);
    const { data } = document(kind, r, event);
    return {
      event,
      r,
      record: await create(app, cast.owner.token, kind.path, kind.type, data.attributes, data.relationships),
    };
  };
  const existing = (kind: Kind) => async (state: State) => ({
    event: world[state].event,
    record: world[state][kind.key],
    r: world[state],
  });

  const recordRoutes = (kind: Kind): WriteRoute[] => {
    const edits =
      (records: 'world' | 'fresh'): Expect =>
      (role, state) =>
        (kind.speakerEdits === 'fresh' || kind.speakerEdits === records) && role === 'speaker' && state === 'published'
          ? 200
          : write(200, 404)(role, state);
    const detail = (segment: string) => (x: Target) => `/v1/${segment}/${x.record}`;
    const patchRoute = (segment: string): WriteRoute => ({
      name: `PATCH /v1/${segment}/{id}`,
      method: 'PATCH',
      prepare: (state) => fresh(kind, state),
      url: detail(segment),
      body: (x) => ({ data: { type: kind.type, id: x.record, attributes: { [kind.renames]: `Renamed ${x.record}` } } }),
      expect: segment === kind.path ? edits('fresh') : write(200, 404),
      async after(x, ok, label) {
        const res = await call(app, { url: `/v1/${kind.path}/${x.record}`, token: admin });
        t.equal(
          res.body?.data?.attributes?.[kind.renames] === `Renamed ${x.record}`,
          ok,
          `${label}: changed only when allowed`,
        );
      },
    });
    const deleteRoute = (segment: string): WriteRoute => ({
      name: `DELETE /v1/${segment}/{id}`,
      method: 'DELETE',
      prepare: (state) => fresh(kind, state),
      url: detail(segment),
      expect: write(200, 404),
      async after(x, ok, label) {
        const res = await call(app, { url: `/v1/${kind.path}/${x.record}`, token: admin });
        t.equal(res.status, ok ? 404 : 200, `${label}: gone only when allowed`);
      },
    });
    return [
      {
        name: `POST /v1/${kind.path}`,
        method: 'POST',
        prepare: async (state) => ({ event: await eventFor(kind, state), record: '', r: world[state] }),
        url: () => `/v1/${kind.path}`,
        body: (x) => document(kind, x.r, x.event),
        expect: write(201, 401),
      },
      patchRoute(kind.path),
      deleteRoute(kind.path),
      ...(kind.path === 'event-copyrights' ? [patchRoute('event-copyright'), deleteRoute('event-copyright')] : []),
      {
        name: `PATCH /v1/${kind.path}/{id}/relationships/event (same event)`,
        method: 'PATCH',
        prepare: existing(kind),
        url: (x) => `/v1/${kind.path}/${x.record}/relationships/event`,
        body: (x) => rel('event', x.event),
        expect: edits('world'),
      },
    ];
  };

  const kind = (path: string) => KINDS.find((k) => k.path === path)!;
  const speaker = kind('speakers');
  const underParent = (
    name: string,
    url: WriteRoute['url'],
    expect: Expect,
    withEvent = false,
    of = speaker,
  ): WriteRoute => ({
    name: `POST ${name}`,
    method: 'POST',
    prepare: async (state) => ({ event: world[state].event, record: '', r: world[state] }),
    url,
    body: (x) => document(of, x.r, withEvent ? x.event : undefined),
    expect,
  });
  const userSelf = (role: RoleName) => (role === 'anonymous' ? cast.speaker.id : cast[role].id);
  const ROUTES: WriteRoute[] = [
    ...KINDS.flatMap(recordRoutes),
    underParent('/v1/events/{id}/speakers', (x) => `/v1/events/${x.event}/speakers`, write(201, 404)),
    underParent('/v1/events/{identifier}/speakers', (x) => `/v1/events/${x.r.identifier}/speakers`, write(201, 404)),
    underParent(
      '/v1/events/{id}/custom-forms',
      (x) => `/v1/events/${x.event}/custom-forms`,
      write(201, 404),
      false,
      kind('custom-forms'),
    ),
    underParent('/v1/sessions/{id}/speakers', (x) => `/v1/sessions/${x.r.session}/speakers`, write(201, 404), true),
    // The user path is read first: only the user themself or an admin gets past it.
    underParent(
      '/v1/users/{caller}/speakers',
      (_, role) => `/v1/users/${userSelf(role)}/speakers`,
      write(201, 401),
      true,
    ),
    underParent(
      '/v1/users/{speaker user}/speakers',
      () => `/v1/users/${cast.speaker.id}/speakers`,
      (role, state) => {
        if (role === 'anonymous') return 401;
        if (role === 'admin') return 201;
        return role === 'speaker' && state === 'draft' ? 404 : 403;
      },
      true,
    ),
  ];

  for (const state of ['published', 'draft'] as const) {
    for (const route of ROUTES) {
      for (const role of ROLES) {
        const x = await route.prepare(state);
        const label = `${route.name} [${state}] as ${role}`;
        const res = await call(app, {
          method: route.method,
          url: route.url(x, role),
          token: tokenOf(cast, role),
          body: route.body?.(x),
        });
        const status = route.expect(role, state);
        expectCell(t, res, status, label);
        await route.after?.(x, res.status < 300, label);
      }
    }
  }
});

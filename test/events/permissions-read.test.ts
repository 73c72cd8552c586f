/**
 * Permission matrix, reads: every GET route of the event domain, for each role, on the published
 * event and on the draft one. Published records are public (custom forms need a login); a draft
 * and everything under it is 404 to anyone without a role in it (admins see everything).
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, expectCell, tokenOf, type EventRecords, type RoleName, type World } from '../helpers/events.js';

const ROLES: RoleName[] = ['anonymous', 'other', 'speaker', 'coorganizer', 'organizer', 'owner', 'admin'];
const MANAGERS: RoleName[] = ['coorganizer', 'organizer', 'owner', 'admin'];
type State = 'published' | 'draft';
type Expect = (role: RoleName, state: State) => number;

/** Public on a published event; a draft is 404 to callers without a role in it. */
const publicRead: Expect = (role, state) => (state === 'draft' && !MANAGERS.includes(role) ? 404 : 200);
/** As publicRead, and a login is needed even where the event is published. */
const loginRead: Expect = (role, state) =>
  role === 'anonymous' && state === 'published' ? 401 : publicRead(role, state);

const ids = (data: unknown): string[] =>
  Array.isArray(data) ? data.map((d) => d.id) : data ? [(data as { id: string }).id] : [];

interface ReadRoute {
  path: string;
  url(r: EventRecords, w: World): string;
  /** The id the answer's data must hold (one of a list, or the single resource). */
  has(r: EventRecords, w: World): string;
  expect: Expect;
}

type Key = Exclude<keyof EventRecords, 'event' | 'identifier'>;
/** `single`: the event has one, read at /v1/events/{id}/event-copyright (a row of its own), not a list. */
const KINDS: { path: string; key: Key; login?: boolean; single?: boolean }[] = [
  { path: 'event-copyrights', key: 'copyright', single: true },
  { path: 'social-links', key: 'socialLink' },
  { path: 'microlocations', key: 'microlocation' },
  { path: 'sponsors', key: 'sponsor' },
  { path: 'tracks', key: 'track' },
  { path: 'session-types', key: 'sessionType' },
  { path: 'sessions', key: 'session' },
  { path: 'speakers', key: 'speaker' },
  { path: 'custom-forms', key: 'customForm', login: true },
];

const route = (path: string, url: ReadRoute['url'], has: ReadRoute['has'], expect: Expect = publicRead): ReadRoute => ({
  path,
  url,
  has,
  expect,
});

const ROUTES: ReadRoute[] = [
  route(
    '/v1/events/{id}',
    (r) => `/v1/events/${r.event}`,
    (r) => r.event,
  ),
  route(
    '/v1/events/{identifier}',
    (r) => `/v1/events/${r.identifier}`,
    (r) => r.event,
  ),
  route(
    '/v1/events/{id}/relationships/organizers',
    (r) => `/v1/events/${r.event}/relationships/organizers`,
    (_, w) => w.cast.organizer.id,
  ),
  route(
    '/v1/events/{id}/relationships/coorganizers',
    (r) => `/v1/events/${r.event}/relationships/coorganizers`,
    (_, w) => w.cast.coorganizer.id,
  ),
  route(
    '/v1/events/{id}/event-copyright',
    (r) => `/v1/events/${r.event}/event-copyright`,
    (r) => r.copyright,
  ),
  route(
    '/v1/events/{identifier}/sessions',
    (r) => `/v1/events/${r.identifier}/sessions`,
    (r) => r.session,
  ),
  route(
    '/v1/event-copyright/{id} (alias)',
    (r) => `/v1/event-copyright/${r.copyright}`,
    (r) => r.copyright,
  ),
  ...KINDS.flatMap(({ path, key, login, single }) => {
    const expect = login ? loginRead : publicRead;
    return [
      ...(single
        ? []
        : [
            route(
              `/v1/events/{id}/${path}`,
              (r) => `/v1/events/${r.event}/${path}`,
              (r) => r[key],
              expect,
            ),
          ]),
      route(
        `/v1/${path}/{id}`,
        (r) => `/v1/${path}/${r[key]}`,
        (r) => r[key],
        expect,
      ),
      route(
        `/v1/${path}/{id}/relationships/event`,
        (r) => `/v1/${path}/${r[key]}/relationships/event`,
        (r) => r.event,
        expect,
      ),
      route(
        `/v1/${path}/{id}/event`,
        (r) => `/v1/${path}/${r[key]}/event`,
        (r) => r.event,
        expect,
      ),
    ];
  }),
  ...(['tracks', 'microlocations', 'session-types'] as const).map((path) => {
    const key = ({ tracks: 'track', microlocations: 'microlocation', 'session-types': 'sessionType' } as const)[path];
    return route(
      `/v1/${path}/{id}/sessions`,
      (r) => `/v1/${path}/${r[key]}/sessions`,
      (r) => r.session,
    );
  }),
  route(
    '/v1/sessions/{id}/speakers',
    (r) => `/v1/sessions/${r.session}/speakers`,
    (r) => r.speaker,
  ),
  route(
    '/v1/sessions/{id}/relationships/speakers',
    (r) => `/v1/sessions/${r.session}/relationships/speakers`,
    (r) => r.speaker,
  ),
  route(
    '/v1/speakers/{id}/sessions',
    (r) => `/v1/speakers/${r.speaker}/sessions`,
    (r) => r.session,
  ),
  route(
    '/v1/speakers/{id}/relationships/sessions',
    (r) => `/v1/speakers/${r.speaker}/relationships/sessions`,
    (r) => r.session,
  ),
];

t.test('read matrix', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);

  t.test('every GET route of an event and its records, per role, published and draft', async (t) => {
    for (const state of ['published', 'draft'] as const) {
      const r = world[state];
      for (const { path, url, has, expect } of ROUTES) {
        for (const role of ROLES) {
          const label = `GET ${path} [${state}] as ${role}`;
          const res = await call(app, { url: url(r, world), token: tokenOf(world.cast, role) });
          const status = expect(role, state);
          expectCell(t, res, status, label);
          if (status === 200) t.ok(ids(res.body?.data).includes(has(r, world)), `${label}: answers ${has(r, world)}`);
        }
      }
    }
  });

  t.test('event topics are public to read, whatever the role', async (t) => {
    for (const role of ROLES) {
      for (const url of ['/v1/event-topics', `/v1/event-topics/${world.topic}`]) {
        const res = await call(app, { url, token: tokenOf(world.cast, role) });
        expectCell(t, res, 200, `GET ${url} as ${role}`);
        t.ok(ids(res.body?.data).includes(world.topic), `GET ${url} as ${role}: answers the topic`);
      }
    }
  });

  t.test('global lists and the topic events list hold draft records only for its managers', async (t) => {
    const lists: { url: string; key: keyof EventRecords; login?: boolean }[] = [
      { url: '/v1/events', key: 'event' },
      { url: `/v1/event-topics/${world.topic}/events`, key: 'event' },
      ...KINDS.map(({ path, key, login }) => ({ url: `/v1/${path}`, key, login })),
    ];
    for (const { url, key, login } of lists) {
      for (const role of ROLES) {
        const label = `GET ${url} as ${role}`;
        const res = await call(app, { url: `${url}?page[size]=100`, token: tokenOf(world.cast, role) });
        if (login && role === 'anonymous') {
          expectCell(t, res, 401, label);
          continue;
        }
        expectCell(t, res, 200, label);
        const got = ids(res.body?.data);
        t.ok(got.includes(world.published[key]), `${label}: holds the published ${key}`);
        t.equal(
          got.includes(world.draft[key]),
          MANAGERS.includes(role),
          `${label}: draft ${key} ${MANAGERS.includes(role) ? 'present' : 'absent'}`,
        );
        t.equal(res.body?.meta?.count, got.length, `${label}: meta.count counts only what the caller sees`);
      }
    }
  });

  t.test("a user's speakers: only that user or an admin reads them, drafts only for the admin", async (t) => {
    const url = `/v1/users/${world.cast.speaker.id}/speakers`;
    const expected: Record<RoleName, number> = {
      anonymous: 401,
      other: 403,
      speaker: 200,
      coorganizer: 403,
      organizer: 403,
      owner: 403,
      admin: 200,
    };
    for (const role of ROLES) {
      const label = `GET ${url} as ${role}`;
      const res = await call(app, { url, token: tokenOf(world.cast, role) });
      expectCell(t, res, expected[role], label);
      if (expected[role] !== 200) continue;
      const got = ids(res.body?.data);
      t.ok(got.includes(world.published.speaker), `${label}: holds the published speaker`);
      t.equal(
        got.includes(world.draft.speaker),
        role === 'admin',
        `${label}: the draft event's speaker only for the admin`,
      );
    }
  });
});

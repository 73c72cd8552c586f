/**
 * The read cache invalidates by table (plugins/read-cache.ts): an answer that named the tables it
 * read (`ReadCache.depends`, as the JSON:API engine calls it) goes only when one of them changes,
 * whether this process, another connection or a view's base table changed it; an answer that named
 * none goes on any change; an answer computed while one of its tables changed is not kept; the
 * memoized callers follow the tables of the caller lookup; a write is read back at once.
 *
 * The engine's reads declare the tables their statement names; the settings route's handler is
 * replaced here by one that declares none (a route of its own that never calls `depends`).
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import postgres from 'postgres';
import t from 'tap';
import { CALLER_TABLES, callerLookup } from '../../src/auth/plugin.js';
import { ChangeFence } from '../../plugins/read-cache-feed.js';
import { ReadCache } from '../../plugins/read-cache.js';
import { buildTestApp, call } from '../helpers/app.js';
import { loginPair } from '../helpers/auth.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { notificationsSettled as settled } from '../helpers/notifications.js';
import { seedUser } from '../helpers/users.js';

/** Runs inside a read, between its lookup in the cache and its statement. */
let duringRead: ((request: FastifyRequest) => Promise<void>) | undefined;

function pausing(route: RouteOptions) {
  if (route.method !== 'GET') return;
  if (route.url === '/v1/settings/:id') {
    // It sends a statement, as every read does (`read` tells a cached answer by none being sent).
    route.handler = async (request: FastifyRequest) => {
      await request.server.sql`select 1`;
      return {
        data: { type: 'setting', id: '1', attributes: {}, links: { self: '/v1/settings/1' } },
        links: { self: '/v1/settings/1' },
        jsonapi: { version: '1.0' },
      };
    };
  }
  const before = route.preHandler ? [route.preHandler].flat() : [];
  route.preHandler = [
    ...before,
    async (request: FastifyRequest) => duringRead?.(request),
  ] as RouteOptions['preHandler'];
}

const { app, url, queries, resetQueries } = await buildTestApp(t, { READ_CACHE_MB: '8' }, { onRoute: pausing });
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Tabled Conf', 'published');
const of = { event: rel('event', event.id) };
await create(app, cast.owner.token, 'tracks', 'track', { name: 'Main', color: '#112233' }, of);
const session = await create(app, cast.owner.token, 'sessions', 'session', { title: 'First', state: 'accepted' }, of);
const sql = postgres(url, { max: 1, onnotice: () => {} });
t.teardown(() => sql.end());

const notificationsSettled = () => settled(app, sql);

/** A change of `table` by another connection (of no row where it has no event_id: a statement trigger notifies even so), once notified here. */
async function touch(table: string) {
  // A table with an event_id names the events of the rows changed (migration 0025): change them all.
  const [{ byEvent }] = await sql<{ byEvent: boolean }[]>`
    select exists(select 1 from information_schema.columns where table_schema = 'public' and table_name = ${table} and column_name = 'event_id') as "byEvent"`;
  await sql.unsafe(byEvent ? `update ${table} set event_id = event_id` : `delete from ${table} where false`);
  await notificationsSettled();
}

/** Reads `path` and tells whether the answer came from the cache (no statement sent). */
async function read(path: string, token?: string) {
  resetQueries();
  const res = await call(app, { url: path, token });
  t.equal(res.status, 200, `GET ${path}`);
  return { cached: queries.length === 0, body: res.body, queries: [...queries] };
}

/** Reads each path twice: the second answer comes from the cache. */
async function warm(...paths: string[]) {
  for (const path of paths) {
    await read(path);
    if (!(await read(path)).cached) throw new Error(`${path} was not kept`);
  }
}

const sessionPath = `/v1/sessions/${session}`;
const eventPath = `/v1/events/${event.id}`;
const sessionsPath = `/v1/events/${event.id}/sessions`;
/** A cached answer that names no table. */
const noTablePath = '/v1/settings/1';
const pagesPath = '/v1/pages';

t.test(
  'a write to sessions evicts what read sessions, keeps what read only events; a write is read back at once',
  async (t) => {
    await notificationsSettled();
    await warm(sessionPath, eventPath, noTablePath);
    const patched = await call(app, {
      method: 'PATCH',
      url: sessionPath,
      token: cast.owner.token,
      body: { data: { type: 'session', id: session, attributes: { title: 'Renamed' } } },
    });
    t.equal(patched.status, 200);
    const reread = await read(sessionPath);
    t.notOk(reread.cached, 'the session read is evicted before the answer of the write left');
    t.equal(reread.body.data.attributes.title, 'Renamed', 'and the write is read back at once');
    t.ok((await read(eventPath)).cached, 'the event read (events only) is kept');
    t.notOk((await read(noTablePath)).cached, 'an answer that named no table is evicted by the write');
    await notificationsSettled();
    t.ok((await read(eventPath)).cached, 'and still kept once every notification arrived');
  },
);

t.test("another connection's SQL change evicts by table once notified", async (t) => {
  await warm(sessionsPath, eventPath, noTablePath);
  await sql`update sessions set title = 'By SQL' where id = ${Number(session)}`;
  await notificationsSettled();
  const sessions = await read(sessionsPath);
  t.notOk(sessions.cached, 'the sessions list is evicted');
  t.equal(sessions.body.data[0].attributes.title, 'By SQL');
  t.ok((await read(eventPath)).cached, 'the event is kept');
  t.notOk((await read(noTablePath)).cached, 'the answer that named no table is evicted');
  await warm(noTablePath, pagesPath);
  await sql`update events set name = 'Renamed by SQL' where id = ${Number(event.id)}`;
  await notificationsSettled();
  const changed = await read(eventPath);
  t.notOk(changed.cached, 'a change of events evicts the event');
  t.equal(changed.body.data.attributes.name, 'Renamed by SQL');
  t.ok((await read(pagesPath)).cached, 'but not the pages, which read no events');
  t.notOk((await read(noTablePath)).cached, 'any change evicts an answer that named no table');
});

t.test('a change of a base table evicts an answer that read a view over it', async (t) => {
  t.strictSame(
    app.readCache!.views.get('user_events'),
    ['event_roles', 'events'],
    'the view is expanded from the catalog',
  );
  const path = `/v1/users/${cast.owner.id}/events`;
  const token = cast.owner.token;
  await read(path, token);
  t.ok((await read(path, token)).cached, 'the read of the view is kept');
  await touch('pages');
  t.ok((await read(path, token)).cached, 'a change of an unrelated table keeps it');
  await touch('event_roles');
  t.notOk((await read(path, token)).cached, 'a change of event_roles (read only through user_events) evicts it');
});

t.test('an answer whose computation overlaps a change of its tables is not kept', async (t) => {
  await warm(sessionsPath);
  await touch('sessions');
  duringRead = () => touch('sessions');
  t.notOk((await read(sessionsPath)).cached);
  duringRead = undefined;
  t.notOk((await read(sessionsPath)).cached, 'sessions changed while the list was computed: not kept');
  duringRead = () => touch('pages');
  await touch('sessions');
  t.notOk((await read(sessionsPath)).cached);
  duringRead = undefined;
  t.ok((await read(sessionsPath)).cached, 'a change of another table meanwhile does not matter');
});

t.test('the memoized callers follow the tables the caller lookup reads', async (t) => {
  const named = [
    ...callerLookup(app.db, 1, undefined)
      .toSQL()
      .sql.matchAll(/\b(?:from|join) "(\w+)"/g),
  ].map((m) => m[1]);
  t.strictSame([...new Set(named)].sort(), [...CALLER_TABLES].sort(), 'CALLER_TABLES names what the lookup reads');
  const token = cast.owner.token;
  // The pages list reads no users: a statement naming users is the caller's lookup.
  const lookups = async () => (await read('/v1/pages', token)).queries.filter((q) => /from "users"/.test(q)).length;
  await lookups();
  t.equal(await lookups(), 0, 'the caller is memoized');
  await touch('sessions');
  t.equal(await lookups(), 0, 'a change of another table keeps the memo');
  await touch('users');
  t.equal(await lookups(), 1, 'a change of users drops it');
  // Only an ended login notifies (migration 0012): the other user logs in, then the login ends.
  await loginPair(app, cast.other.email, cast.other.password);
  await sql`update logins set ended_at = now() where user_id = ${Number(cast.other.id)} and ended_at is null`;
  await notificationsSettled();
  t.equal(await lookups(), 1, 'and so does an ended login');
});

t.test(
  'a demoted administrator never gets the answer kept for the administrator (the key names the rights it was built with)',
  async (t) => {
    const admin = await seedUser(app, { admin: true });
    // The new account's notification (users) must not drop the caller memo between the two reads.
    await notificationsSettled();
    const full = await read('/v1/settings', admin.token);
    t.ok('storage-place' in full.body.data.attributes, 'an administrator reads the full settings');
    t.ok((await read('/v1/settings', admin.token)).cached, 'and the answer is kept');
    await sql`update users set is_admin = false where id = ${Number(admin.id)}`;
    await notificationsSettled();
    const limited = await read('/v1/settings', admin.token);
    t.notOk(limited.cached, 'the same token after the demotion is another key');
    t.notOk('storage-place' in limited.body.data.attributes, 'and reads the limited settings');
  },
);

t.test('the fence: a write waits for its own notification; without the listening connection it says so', async (t) => {
  const listening = new ChangeFence(app.sql, 5_000);
  await listening.listen();
  t.equal(await listening.passed(), true, 'the notification comes back');
  t.equal(await new ChangeFence(app.sql, 5_000).passed(), false, 'not listening: the caller clears the cache instead');
});

t.test('eviction takes only the entries of the changed table, among many', async (t) => {
  const cache = new ReadCache(1 << 30);
  const reply = {
    statusCode: 200,
    getHeader: () => 'application/json',
    code: () => reply,
    type: () => reply,
    header: () => reply,
    send: () => reply,
  };
  const requests: never[] = [];
  for (let i = 0; i < 20_000; i++) {
    const request = { url: `/v1/r/${i}`, headers: {}, caller: null } as never;
    requests.push(request);
    cache.answer(request, reply as never);
    cache.depends(request, [`table${i % 10}`]);
    if (i % 2 === 0) cache.depends(request, ['shared']);
    cache.keep(request, reply as never, '{}');
  }
  t.equal(cache.size, 20_000);
  cache.changed('table3');
  t.equal(cache.size, 18_000, 'a tenth goes');
  cache.changed('shared');
  t.equal(cache.size, 8_000, 'then every entry that read shared');
  cache.changed('elsewhere');
  t.equal(cache.size, 8_000, 'a table nothing read evicts nothing');
  t.equal(cache.answer(requests[1], reply as never), true, 'an entry of another table is answered');
  for (let i = 0; i < 1_000; i++) cache.changed(`not-a-table-${i}`);
  t.equal(cache.size, 0, 'a flood of payloads that name no table starts the cache over instead of growing its memory');
});

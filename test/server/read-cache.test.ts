/**
 * The read cache (plugins/read-cache.ts): a repeated JSON:API read sends no SQL; it is keyed by the
 * caller and the Accept header; a write through this process, another process's write, a write by
 * plain SQL (a worker, an operator), a change of the caller's account and the end of its login are all seen; an answer
 * computed while a change committed is not kept; `Cache-Control: no-cache` reads afresh; only 200
 * answers of cacheable routes are kept; the memory budget holds; every table notifies its changes.
 */
import postgres from 'postgres';
import t from 'tap';
import { ReadCache } from '../../plugins/read-cache.js';
import { buildOtherApp, buildTestApp, call, until } from '../helpers/app.js';
import { loginPair, post } from '../helpers/auth.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { notificationsSettled as settled } from '../helpers/notifications.js';
import { seedUser } from '../helpers/users.js';

const { app, url, queries, resetQueries } = await buildTestApp(t, { READ_CACHE_MB: '8' });
const cast = await createCast(app);
const event = await createEvent(app, cast, 'Cache Conf', 'published');
const track = await create(
  app,
  cast.owner.token,
  'tracks',
  'track',
  { name: 'Main', color: '#112233' },
  { event: rel('event', event.id) },
);
const sql = postgres(url, { max: 1, onnotice: () => {} });
t.teardown(() => sql.end());

const trackName = async (a = app, token?: string, headers: Record<string, string> = {}) =>
  (await call(a, { url: `/v1/tracks/${track}`, token, headers })).body.data.attributes.name as string;

const notificationsSettled = () => settled(app, sql);

t.test('a repeated read sends no SQL and answers the same document', async (t) => {
  // The notifications of the writes above arrive a moment later and drop what was read before them.
  await notificationsSettled();
  const first = await call(app, { url: `/v1/events/${event.id}/tracks` });
  resetQueries();
  const second = await call(app, { url: `/v1/events/${event.id}/tracks` });
  t.same(queries, [], 'no statement for the second read');
  t.equal(second.status, 200);
  t.same(second.body, first.body);
  t.equal(second.headers['content-type'], 'application/vnd.api+json', 'the same media type');
  t.equal(second.headers.etag, first.headers.etag, 'and the same ETag');
  const conditional = await call(app, {
    url: `/v1/events/${event.id}/tracks`,
    headers: { 'if-none-match': String(first.headers.etag) },
  });
  t.equal(conditional.status, 304, 'a cached answer is still answered 304 when the client has it');
});

t.test('entries are per caller and per Accept header; the token is still checked', async (t) => {
  const draft = await createEvent(app, cast, 'Hidden Draft', 'draft');
  const asOwner = await call(app, { url: `/v1/events/${draft.id}`, token: cast.owner.token });
  t.equal(asOwner.status, 200);
  t.equal(
    (await call(app, { url: `/v1/events/${draft.id}` })).status,
    404,
    'anonymous does not get the owner’s answer',
  );
  t.equal(
    (await call(app, { url: `/v1/events/${draft.id}`, token: cast.other.token })).status,
    404,
    'nor does another user',
  );
  t.equal(
    (await call(app, { url: `/v1/events/${draft.id}`, token: cast.owner.token })).status,
    200,
    'the owner again (cached)',
  );
  const wrongAccept = await call(app, {
    url: `/v1/events/${draft.id}`,
    token: cast.owner.token,
    headers: { accept: 'application/vnd.api+json; ext=foo' },
  });
  t.equal(wrongAccept.status, 406, 'negotiation runs before the cache');
  const forged = await call(app, { url: `/v1/events/${draft.id}`, token: `${cast.owner.token.slice(0, -2)}xx` });
  t.equal(forged.status, 401, 'a forged token is refused, cached answer or not');
});

t.test('a write through this process is read back at once', async (t) => {
  t.equal(await trackName(), 'Main');
  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/tracks/${track}`,
    token: cast.owner.token,
    body: { data: { type: 'track', id: track, attributes: { name: 'Renamed' } } },
  });
  t.equal(patched.status, 200);
  t.equal(await trackName(), 'Renamed', 'no stale answer after the write');
  // Without a commit there is no notification: only the process's own clearing can empty the cache.
  await notificationsSettled();
  await trackName();
  t.ok(app.readCache!.size > 0, 'the read is kept');
  const refused = await call(app, {
    method: 'PATCH',
    url: `/v1/tracks/${track}`,
    body: { data: { type: 'track', id: track } },
  });
  t.equal(refused.status, 401);
  t.ok(app.readCache!.size > 0, 'a refused write changed nothing: the read of the track stays');
});

t.test("another process's write and a write by SQL are seen once notified", async (t) => {
  const other = await buildOtherApp(t, url, { READ_CACHE_MB: '8' }); // a second API process on the same database
  t.equal(await trackName(other), 'Renamed', 'the second process caches its own answer');
  t.equal(await trackName(), 'Renamed');
  const patched = await call(other, {
    method: 'PATCH',
    url: `/v1/tracks/${track}`,
    token: cast.owner.token,
    body: { data: { type: 'track', id: track, attributes: { name: 'From the other process' } } },
  });
  t.equal(patched.status, 200);
  await until('the first process sees the other process’s write', async () =>
    (await trackName()) === 'From the other process' ? true : undefined,
  );
  await sql`update tracks set name = 'Written by SQL' where id = ${Number(track)}`;
  await until('both processes see the SQL write', async () =>
    (await trackName()) === 'Written by SQL' && (await trackName(other)) === 'Written by SQL' ? true : undefined,
  );
  t.pass('every process dropped its answers');
});

t.test("a change of the caller's account is seen (memoized callers are dropped too)", async (t) => {
  const user = cast.other;
  t.equal((await call(app, { url: `/v1/users/${user.id}`, token: user.token })).status, 200);
  await sql`update users set deleted_at = now() where id = ${Number(user.id)}`;
  await until('the deleted account’s token is refused', async () =>
    (await call(app, { url: `/v1/users/${user.id}`, token: user.token })).status === 401 ? true : undefined,
  );
  t.pass();
});

t.test('a login ended by another process is seen: its memoized access token is refused once notified', async (t) => {
  const other = await buildOtherApp(t, url);
  const user = await seedUser(app);
  const { access_token, refresh_token } = await loginPair(app, user.email, user.password);
  t.equal(
    (await call(app, { url: `/v1/users/${user.id}`, token: access_token })).status,
    200,
    'the caller is memoized here',
  );
  t.equal((await post(other, '/v1/auth/logout', { refresh_token })).status, 200, 'the login ends on the other process');
  await notificationsSettled();
  t.equal((await call(app, { url: `/v1/users/${user.id}`, token: access_token })).status, 401, 'and at once here');
});

t.test('Cache-Control: no-cache reads afresh', async (t) => {
  await trackName();
  resetQueries();
  await trackName(app, undefined, { 'cache-control': 'no-cache' });
  t.ok(queries.length > 0, 'the request ran its SQL');
  await trackName(app, cast.owner.token);
  await trackName(app, cast.owner.token);
  resetQueries();
  await trackName(app, cast.owner.token, { 'cache-control': 'no-cache' });
  t.ok(
    queries.some((q) => /from "users"/.test(q)),
    'and read the account of its token afresh',
  );
});

t.test('only 200 answers of cacheable reads are kept', async (t) => {
  resetQueries();
  t.equal((await call(app, { url: '/v1/tracks/999999' })).status, 404);
  t.equal((await call(app, { url: '/v1/tracks/999999' })).status, 404);
  t.equal(queries.length, 2, 'a 404 is asked again');
  const admin = cast.admin.token;
  await call(app, { url: '/v1/admin/statistics/mails', token: admin });
  resetQueries();
  await call(app, { url: '/v1/admin/statistics/mails', token: admin });
  t.ok(queries.length > 0, 'statistics counted over the last days are never kept');
});

t.test('an answer computed while a change commits is not kept', async (t) => {
  const cache = new ReadCache(1 << 20);
  const reply = {
    statusCode: 200,
    getHeader: () => 'application/vnd.api+json',
    code: () => reply,
    type: () => reply,
    header: () => reply,
    send: () => reply,
  };
  const request = { url: '/v1/x', headers: {}, caller: null } as never;
  t.equal(cache.answer(request, reply as never), false, 'a miss');
  cache.clear();
  cache.keep(request, reply as never, '{"stale":true}');
  t.equal(cache.size, 0, 'computed before the change: dropped');
  t.equal(cache.answer(request, reply as never), false);
  cache.keep(request, reply as never, '{"fresh":true}');
  t.equal(cache.size, 1, 'computed after it: kept');
});

t.test('the memory budget holds; the least recently used go first', async (t) => {
  const cache = new ReadCache(16 * 1000);
  const reply = {
    statusCode: 200,
    getHeader: () => 'application/json',
    code: () => reply,
    type: () => reply,
    header: () => reply,
    send: () => reply,
  };
  const body = 'x'.repeat(900);
  const requests = new Map<number, never>();
  const requestOf = (i: number) => {
    if (!requests.has(i)) requests.set(i, { url: `/v1/r/${i}`, headers: {}, caller: null } as never);
    return requests.get(i)!;
  };
  for (let i = 0; i < 40; i++) {
    cache.answer(requestOf(i), reply as never);
    cache.keep(requestOf(i), reply as never, body);
  }
  t.ok(cache.size >= 15 && cache.size <= 17, `about 17 entries of 0.9 kB fit in 16 kB, not 40 (${cache.size})`);
  t.equal(cache.answer(requestOf(39), reply as never), true, 'the newest is kept');
  t.equal(cache.answer(requestOf(0), reply as never), false, 'the oldest went');
  cache.answer(requestOf(100), reply as never);
  cache.keep(requestOf(100), reply as never, 'y'.repeat(2000));
  t.equal(cache.answer(requestOf(100), reply as never), false, 'an answer over a sixteenth of the budget is not kept');
});

t.test('every table of the schema notifies its changes', async (t) => {
  // But the rate limits' hits (db/schema/rate-limits.ts): no read serves them, and notifying them would
  // let anyone empty every process's read cache with failed logins. Nor does any read serve the refresh
  // tokens and the tokens of mailed links (db/schema/logins.ts), which every refresh and account mail writes. Nor
  // the schedule stamps (db/schema/schedule.ts): the schedule documents read them for Last-Modified only, after
  // their own digest of the schedule, and the first read after each change writes one.
  const missing = await sql<{ table: string }[]>`
    select c.relname as table from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
      and c.relname not in ('rate_limit_hits', 'refresh_tokens', 'account_tokens', 'schedule_stamps')
      and not exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'oe_change')`;
  t.same(
    missing.map((r) => r.table),
    [],
    'a table without the oe_change trigger would serve stale reads',
  );
});

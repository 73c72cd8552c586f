/**
 * The read cache by event (plugins/read-cache.ts, migration 0025): a change of a table with an
 * `event_id` column names the events of the rows it touched; an event's list of its records
 * (`/v1/events/{id}/sessions`) reads only that event's rows of the table, so it stays cached while
 * another event's rows change and goes when its own do (or a row moves in or out). A list whose
 * statement reads the table again (a filter) depends on the whole table, as does a record's read. A
 * write's role check comes from the memo while events and roles are unchanged, and a removed role
 * is seen at once.
 */
import postgres from 'postgres';
import t from 'tap';
import { eventScoped, ReadCache } from '../../plugins/read-cache.js';
import { buildTestApp, call, until } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { notificationsSettled as settled } from '../helpers/notifications.js';

const { app, url, queries, resetQueries } = await buildTestApp(t, { READ_CACHE_MB: '8' });
const cast = await createCast(app);
const alpha = await createEvent(app, cast, 'Alpha Conf', 'published');
const beta = await createEvent(app, cast, 'Beta Conf', 'published');
const sessionOf = (event: string, title: string) =>
  create(app, cast.owner.token, 'sessions', 'session', { title, state: 'accepted' }, { event: rel('event', event) });
const alphaSession = await sessionOf(alpha.id, 'Alpha talk');
const betaSession = await sessionOf(beta.id, 'Beta talk');
const sql = postgres(url, { max: 1, onnotice: () => {} });
t.teardown(() => sql.end());
const notificationsSettled = () => settled(app, sql);

const rename = (id: string, title: string, token = cast.owner.token) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${id}`,
    token,
    body: { data: { type: 'session', id, attributes: { title } } },
  });

/** GET `path`: its titles and how many statements it sent (0: answered from the cache). */
async function read(path: string) {
  resetQueries();
  const res = await call(app, { url: path });
  t.equal(res.status, 200, path);
  return {
    titles: (res.body.data as { attributes: { title: string } }[]).map((s) => s.attributes.title),
    statements: queries.length,
  };
}

const alphaList = `/v1/events/${alpha.id}/sessions?include=speakers,track,microlocation`;

t.test('the triggers name the events of the rows a change touched', async (t) => {
  const seen: string[] = [];
  const listening = await sql.listen('oe_change', (payload) => payload.startsWith('sessions') && seen.push(payload));
  t.teardown(() => listening.unlisten());
  const next = async (change: () => Promise<unknown>) => {
    const before = seen.length;
    await change();
    await until('the notification', async () => (seen.length > before ? true : undefined));
    return seen[seen.length - 1]!;
  };
  t.equal(
    await next(() => sql`update sessions set title = 'Beta again' where id = ${betaSession}`),
    `sessions:${beta.id}`,
    'an update names its row’s event',
  );
  const moved = await next(() => sql`update sessions set event_id = ${alpha.id} where id = ${betaSession}`);
  t.strictSame(
    moved.slice('sessions:'.length).split(',').sort(),
    [alpha.id, beta.id].sort(),
    'a row moved to another event names both',
  );
  await next(() => sql`update sessions set event_id = ${beta.id} where id = ${betaSession}`);
  t.equal(
    await next(() => sql`update sessions set title = 'none' where false`),
    'sessions:',
    'a change of no row names no event',
  );
  const doomed = await sessionOf(alpha.id, 'Doomed');
  t.equal(
    await next(() => sql`delete from sessions where id = ${doomed}`),
    `sessions:${alpha.id}`,
    'a delete names its row’s event',
  );
  // More events than fit in a notification (4,000 characters of ids): the table alone, so every answer
  // that read it goes. Copies of Alpha and its session with ids of ten digits, 400 of them.
  const BULK = 1_000_000_000;
  const copies = (table: string, id: string, extra: string) =>
    sql.unsafe(
      `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(r) || jsonb_build_object('id', ${BULK} + g${extra}))).* from ${table} r, generate_series(1, 400) g where r.id = ${Number(id)}`,
    );
  await copies('events', alpha.id, `, 'identifier', 'bulk' || g`);
  t.equal(
    await next(() => copies('sessions', alphaSession, `, 'event_id', ${BULK} + g`)),
    'sessions',
    'an insert into 400 events names the table alone',
  );
  await notificationsSettled();
  await read(alphaList);
  t.equal((await read(alphaList)).statements, 0, 'Alpha’s list is cached');
  t.equal(
    await next(() => sql`update sessions set title = 'Bulk' where id > ${BULK}`),
    'sessions',
    'so does an update',
  );
  await notificationsSettled();
  t.ok((await read(alphaList)).statements > 0, 'and Alpha’s list, which reads the table, is read afresh');
  t.equal(await next(() => sql`delete from sessions where id > ${BULK}`), 'sessions', 'and a delete');
  await sql`delete from events where id > ${BULK}`;
  const triggers = await sql<{ table: string }[]>`
    select c.relname as table from pg_class c
    join pg_attribute a on a.attrelid = c.oid and a.attname = 'event_id' and not a.attisdropped
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
      and exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'oe_change')
      and (select count(*) from pg_trigger g where g.tgrelid = c.oid and g.tgname in ('oe_change_insert', 'oe_change_update', 'oe_change_delete')) <> 3`;
  t.strictSame(
    triggers.map((r) => r.table),
    [],
    'every table with an event_id names the events of its changes',
  );
});

t.test('an event’s list stays cached while another event’s rows change, and goes when its own do', async (t) => {
  await notificationsSettled();
  t.strictSame((await read(alphaList)).titles, ['Alpha talk']);
  const record = `/v1/sessions/${alphaSession}`;
  await call(app, { url: record });
  t.equal((await rename(betaSession, 'Beta renamed')).status, 200);
  t.strictSame(
    await read(alphaList),
    { titles: ['Alpha talk'], statements: 0 },
    'another event’s session changed: answered from the cache',
  );
  resetQueries();
  await call(app, { url: record });
  t.ok(queries.length > 0, 'a record’s read depends on the whole table: read afresh');
  t.equal((await rename(alphaSession, 'Alpha renamed')).status, 200);
  const own = await read(alphaList);
  t.strictSame(own.titles, ['Alpha renamed'], 'its own session changed: read afresh at once');
  t.ok(own.statements > 0);
  await sql`update sessions set event_id = ${alpha.id} where id = ${betaSession}`;
  await notificationsSettled();
  t.strictSame(
    (await read(alphaList)).titles.sort(),
    ['Alpha renamed', 'Beta renamed'],
    'a session moved in from another event is seen',
  );
  await sql`update sessions set event_id = ${beta.id} where id = ${betaSession}`;
  await notificationsSettled();
  t.strictSame((await read(alphaList)).titles, ['Alpha renamed'], 'and moved out again');
});

t.test('a list whose statement reads the table’s rows of other events depends on the whole table', async (t) => {
  const filter = JSON.stringify([
    { name: 'speakers', op: 'any', val: { name: 'sessions', op: 'any', val: { name: 'title', op: 'eq', val: 'x' } } },
  ]);
  const filtered = `/v1/events/${alpha.id}/sessions?filter=${encodeURIComponent(filter)}`;
  const byIdentifier = `/v1/events/${alpha.identifier}/sessions`;
  await notificationsSettled();
  await read(filtered);
  await read(byIdentifier);
  t.equal((await read(filtered)).statements, 0, 'cached');
  t.equal((await read(byIdentifier)).statements, 0, 'cached');
  t.equal((await rename(betaSession, 'Beta once more')).status, 200);
  t.ok(
    (await read(filtered)).statements > 0,
    'the filter reads sessions again: read afresh after another event’s change',
  );
  t.ok(
    (await read(byIdentifier)).statements > 0,
    'an event named by its identifier is no number to scope by: read afresh',
  );
});

t.test('a write’s role check is memoized until a role changes', async (t) => {
  await notificationsSettled();
  t.equal((await rename(alphaSession, 'By the coorganizer', cast.coorganizer.token)).status, 200);
  resetQueries();
  t.equal((await rename(alphaSession, 'Again', cast.coorganizer.token)).status, 200);
  t.notOk(
    queries.some((q) => q.includes('"event_roles"') && !q.includes('"sessions"')),
    'the second write asks no role of the database',
  );
  await sql`delete from event_roles where user_id = ${cast.coorganizer.id} and event_id = ${alpha.id}`;
  await notificationsSettled();
  t.equal((await rename(alphaSession, 'Not any more', cast.coorganizer.token)).status, 403, 'the removed role is seen');
  const refused = await call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${alphaSession}`,
    token: cast.coorganizer.token,
    headers: { 'cache-control': 'no-cache' },
    body: { data: { type: 'session', id: alphaSession, attributes: { title: 'Still not' } } },
  });
  t.equal(refused.status, 403);
});

t.test('eviction by event, among entries of one table', async (t) => {
  const cache = new ReadCache(1 << 30);
  const reply = {
    statusCode: 200,
    getHeader: () => 'application/json',
    code: () => reply,
    type: () => reply,
    header: () => reply,
    send: () => reply,
  };
  const keep = (path: string, tables: string[], during?: () => void) => {
    const request = { url: path, headers: {}, caller: null } as never;
    cache.answer(request, reply as never);
    cache.depends(request, tables);
    during?.();
    cache.keep(request, reply as never, '{}');
    return request;
  };
  const fill = () => {
    keep('/one', [eventScoped('sessions', 1), 'events']);
    keep('/two', [eventScoped('sessions', 2)]);
    keep('/all', ['sessions']);
    keep('/tracks', [eventScoped('tracks', 2)]);
  };
  const kept = () =>
    ['/one', '/two', '/all', '/tracks'].filter((path) =>
      cache.answer({ url: path, headers: {}, caller: null } as never, reply as never),
    );
  fill();
  cache.changed('sessions:2,7');
  t.strictSame(kept(), ['/one', '/tracks'], 'event 2’s sessions: its list and the whole table’s readers go');
  fill();
  cache.changed('sessions:');
  t.strictSame(kept(), ['/one', '/two', '/tracks'], 'rows of no event: only the whole table’s readers go');
  cache.changed('sessions');
  t.strictSame(kept(), ['/tracks'], 'the whole table (TRUNCATE): every reader goes');
  fill();
  cache.changed('sessions:2;drop');
  t.strictSame(kept(), ['/tracks'], 'a payload whose events are not numbers counts as the whole table');
  fill();
  cache.changed('events');
  t.strictSame(kept(), ['/two', '/all', '/tracks'], 'a table without events evicts its readers');
  keep('/overlapped', [eventScoped('sessions', 1)], () => cache.changed('sessions:2'));
  t.strictSame(kept(), ['/tracks'], 'the change of event 2 took its readers meanwhile');
  t.equal(
    cache.answer({ url: '/overlapped', headers: {}, caller: null } as never, reply as never),
    true,
    'an answer computed while another event changed is kept',
  );
  keep('/stale', [eventScoped('sessions', 1)], () => cache.changed('sessions:1'));
  t.equal(
    cache.answer({ url: '/stale', headers: {}, caller: null } as never, reply as never),
    false,
    'one computed while its own event changed is not',
  );
  keep('/forgotten', [eventScoped('sessions', 3)], () =>
    cache.changed(`sessions:${Array.from({ length: 100_001 }, (_, i) => i + 10).join(',')}`),
  );
  t.equal(
    cache.answer({ url: '/forgotten', headers: {}, caller: null } as never, reply as never),
    false,
    'past the bound of remembered events, every event counts as changed',
  );
});

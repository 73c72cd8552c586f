/**
 * A JSON:API write's last statement goes out with its commit (src/jsonapi/write.ts, LastStatement),
 * and the read cache's fence rides on the transaction (ReadCache.transactionFence): seen through a
 * statement trigger that takes 300 ms, the fence and the commit are sent before the write has been
 * answered; a last statement that fails rolls the transaction back with its own error; the answer
 * still leaves only once the read cache has dropped what the write changed.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';

const SLOW_MS = 300;
const { app, queries, resetQueries } = await buildTestApp(
  t,
  { READ_CACHE_MB: '8' },
  {
    // Every statement that changes sessions takes SLOW_MS; a title of "Refused" breaks a rule (as a check
    // constraint would, when the statement runs).
    setupSql: `
      create function slow_sessions() returns trigger language plpgsql as $$
      begin
        perform pg_sleep(${SLOW_MS / 1000});
        if exists (select from new_rows where title = 'Refused') then
          raise exception 'refused' using errcode = 'check_violation';
        end if;
        return null;
      end $$;
      create trigger slow_sessions_update after update on sessions referencing new table as new_rows for each statement execute function slow_sessions();
    `,
  },
);
// When each statement was sent (the driver reports a statement as it puts it on the wire).
const sentAt: number[] = [];
const record = queries.push.bind(queries);
queries.push = (...items: string[]) => {
  for (const _ of items) sentAt.push(performance.now());
  return record(...items);
};
const reset = () => {
  resetQueries();
  sentAt.length = 0;
};

const cast = await createCast(app);
const owner = cast.owner.token;
const { id: event } = await createEvent(app, cast, 'Pipelined Conf', 'published');
const session = await create(
  app,
  owner,
  'sessions',
  'session',
  { title: 'First', state: 'accepted' },
  { event: rel('event', event) },
);
const list = `/v1/events/${event}/sessions`;
/** The titles of the event's sessions, and whether the answer came from the read cache (no statement sent). */
const titles = async () => {
  reset();
  const res = await call(app, { url: list, token: owner });
  return {
    titles: (res.body.data as { attributes: { title: string } }[]).map((s) => s.attributes.title),
    cached: queries.length === 0,
  };
};

/** Index of the first statement after `after` that matches. */
const find = (pattern: RegExp, after = -1) => queries.findIndex((q, i) => i > after && pattern.test(q));

/** PATCHes the session's title. */
const retitle = (title: string) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${session}`,
    token: owner,
    body: { data: { type: 'session', id: session, attributes: { title } } },
  });

t.test('a PATCH sends its update, the fence and the commit together, and its answer waits for the fence', async (t) => {
  // The driver describes a statement new to its connection before sending it, and what follows waits for
  // that: the statements are known to the connection from the second time on.
  for (const title of ['Warming', 'First']) t.equal((await retitle(title)).status, 200);
  t.strictSame((await titles()).titles, ['First']);
  t.ok((await titles()).cached, 'the list is kept in the read cache');
  reset();
  const res = await retitle('Second');
  t.equal(res.status, 200);
  t.equal(
    (res.body.data as { attributes: { title: string } }).attributes.title,
    'Second',
    'the answer is the updated record',
  );
  const lock = find(/for update/);
  const update = find(/update "sessions"/, lock);
  const fence = find(/pg_notify/, update);
  const commit = find(/^commit$/, fence);
  t.ok(
    lock > 0 && update > lock && fence === update + 1 && commit === fence + 1,
    `lock, update, fence, commit in order: ${queries.map((q) => q.slice(0, 30)).join(' | ')}`,
  );
  t.equal(queries.length, commit + 1, 'nothing after the commit: the fence rode on the transaction');
  t.ok(
    sentAt[commit]! - sentAt[update]! < SLOW_MS / 2,
    `the commit left ${Math.round(sentAt[commit]! - sentAt[update]!)} ms after the update, without waiting for its answer`,
  );
  const after = await titles();
  t.strictSame(after.titles, ['Second'], 'the next read of the list sees the write');
  t.notOk(after.cached, 'the kept list was dropped before the answer left');
});

t.test('a last statement that fails rolls its transaction back and answers its own error', async (t) => {
  reset();
  await titles();
  t.ok((await titles()).cached);
  reset();
  const started = performance.now();
  const res = await retitle('Refused');
  t.equal(res.status, 422, 'the broken rule is the client error it always was');
  t.ok(
    performance.now() - started < 1_500,
    'the answer does not wait for the fence of a transaction that never committed',
  );
  t.ok(find(/^commit$/) > find(/update "sessions"/), 'the commit had gone out behind the update');
  t.match(queries.at(-1), /pg_notify/, 'a fence of its own after the rolled-back transaction');
  const after = await titles();
  t.strictSame(after.titles, ['Second'], 'nothing of the refused write was kept');
  t.ok(after.cached, 'nor was the read cache cleared');
});

t.test('a DELETE sends its write with the commit too', async (t) => {
  const doomed = async () =>
    create(app, owner, 'sessions', 'session', { title: 'Doomed', state: 'accepted' }, { event: rel('event', event) });
  t.equal(
    (await call(app, { method: 'DELETE', url: `/v1/sessions/${await doomed()}`, token: owner })).status,
    200,
    'a first delete (see above)',
  );
  const id = await doomed();
  t.strictSame((await titles()).titles.sort(), ['Doomed', 'Second']);
  reset();
  const res = await call(app, { method: 'DELETE', url: `/v1/sessions/${id}`, token: owner });
  t.equal(res.status, 200);
  const commit = find(/^commit$/);
  t.ok(
    sentAt[commit]! - sentAt[find(/update "sessions"/)]! < SLOW_MS / 2,
    'the commit did not wait for the soft delete to be answered',
  );
  t.strictSame((await titles()).titles, ['Second'], 'the deleted session is gone from the next read');
});

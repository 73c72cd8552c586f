/**
 * Workers are woken when a job is created, not by their next poll (plugins/boss.ts): every queue is
 * notify-enabled; a job sent in a transaction is announced on pg-boss's channel when that transaction
 * commits, never before and never for one rolled back; a process that runs jobs listens on the channel,
 * one that only serves the API does not.
 */
import postgres from 'postgres';
import t from 'tap';
import { MAIL_QUEUE } from '../../plugins/mailer.js';
import { loadConfig } from '../../src/config.js';
import { jobs } from '../../src/jobs/index.js';
import { buildOtherApp, buildTestApp, TEST_SECRET, until } from '../helpers/app.js';

const { app, url } = await buildTestApp(t);
const listener = postgres(url, { max: 1, onnotice: () => {} });
t.teardown(() => listener.end());
// The channel as pg-boss names it (plans.notifyChannelSql of its schema, `pgboss`).
const [{ channel }] = await listener<{ channel: string }[]>`
  select 'pgboss_' || left(encode(sha224('pgboss'::bytea), 'hex'), 24) as channel`;
const heard: string[] = [];
await listener.listen(channel, (payload) => void heard.push(payload));
const announce = (payload: string) => listener`select pg_notify(${channel}, ${payload})`;

/** Sessions of the job queue that listen (or check that they still do). */
const listening = async () =>
  (
    await app.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = 'open-event-jobs' and query ilike '%listen%'`
  )[0]!.n;

t.test('every queue is notify-enabled', async (t) => {
  for (const { name } of jobs({ ...loadConfig({}), JWT_SECRET: TEST_SECRET }))
    t.equal((await app.boss.getQueue(name))?.notify, true, name);
});

t.test('a job is announced when its transaction commits, not before, and not when it rolls back', async (t) => {
  await app.db
    .transaction(async (tx) => {
      await app.sendJob(tx, MAIL_QUEUE, { mailId: 0 });
      throw new Error('rolled back');
    })
    .catch(() => {});
  await app.db.transaction(async (tx) => {
    await app.sendJob(tx, MAIL_QUEUE, { mailId: 0 });
    await announce('before the commit');
  });
  await announce('after the commit');
  await until('the last announcement', async () => (heard.includes('after the commit') ? true : undefined), 10_000);
  t.strictSame(heard, ['before the commit', MAIL_QUEUE, 'after the commit']);
});

t.test('a process that runs jobs listens; one that only serves the API does not', async (t) => {
  t.equal(await listening(), 0, 'the API-only app does not listen');
  await buildOtherApp(t, url, { ROLE: 'all' });
  t.ok(await until('a listening worker', async () => ((await listening()) >= 1 ? true : undefined), 10_000));
});

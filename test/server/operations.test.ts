/**
 * Health, readiness and metrics (src/operations.ts, issue 25): `/healthz` answers without the
 * database; `/readyz` is ready when the database answers, every migration is applied and the
 * workers of a process that runs jobs have started, not ready while the database is down and ready
 * again after; `/metrics` (Prometheus text format, METRICS_TOKEN) counts requests by route pattern
 * and status, jobs by queue, mail deliveries and read-cache hits, and shows the pool and the queues.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runMigrations } from '../../db/migrate.js';
import { MAIL_QUEUE } from '../../plugins/mailer.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, call, TEST_SECRET, until } from '../helpers/app.js';
import { startOwnPostgres } from '../helpers/postgres.js';

const TOKEN = 'a metrics token of some length';

/** The value of one series of the text format (`name{labels} value`), or undefined. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

t.test('health, readiness and metrics of a process that runs jobs', async (t) => {
  const { app } = await buildTestApp(t, { ROLE: 'all', READ_CACHE_MB: '8', METRICS_TOKEN: TOKEN });
  const metrics = async () => {
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
    return res.body;
  };

  const health = await app.inject({ url: '/healthz' });
  t.equal(health.statusCode, 200);
  t.strictSame(health.json(), { status: 'ok' });

  const ready = await until('the workers have started', async () => {
    const res = await app.inject({ url: '/readyz' });
    return res.statusCode === 200 ? res : undefined;
  });
  t.strictSame(ready.json(), { status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'ok' } });

  for (const authorization of [undefined, 'Bearer not the token', `JWT ${TOKEN}`]) {
    const res = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
    t.equal(res.statusCode, 401, `refused with ${authorization ?? 'no Authorization'}`);
    t.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
    t.match(res.json(), { errors: [{ status: '401', detail: /METRICS_TOKEN/ }] });
  }

  // A read twice (the second from the read cache), a 404, a mail and a job.
  for (let i = 0; i < 2; i++) t.equal((await call(app, { url: '/v1/events' })).status, 200);
  t.equal((await call(app, { url: '/v1/sessions/999999' })).status, 404);
  t.equal(
    (
      await app.mailer.send({
        to: { address: 'someone@example.com' },
        subject: 'Counted',
        action: 'test',
        text: 'Hello',
      })
    ).status,
    'sent',
  );
  await app.boss.send(MAIL_QUEUE, { mailId: 999_999 });
  const text = await until('the job has ended', async () => {
    const body = await metrics();
    return (sample(body, `jobs_ended_total{queue="${MAIL_QUEUE}",outcome="completed"}`) ?? 0) >= 1 ? body : undefined;
  });
  t.equal(
    sample(text, 'http_requests_total{method="GET",route="/v1/events",status="200"}'),
    2,
    'requests by route pattern and status',
  );
  t.equal(
    sample(text, 'http_requests_total{method="GET",route="/v1/sessions/:id",status="404"}'),
    1,
    'the pattern, not the URL',
  );
  t.equal(
    sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/events",status="200"}'),
    2,
    'and their durations',
  );
  t.ok((sample(text, 'read_cache_reads_total{result="hit"}') ?? 0) >= 1, 'the second read came from the read cache');
  t.ok((sample(text, 'read_cache_entries') ?? 0) >= 1);
  t.equal(sample(text, 'mail_delivery_attempts_total{outcome="sent"}'), 1, 'the mail');
  t.equal(sample(text, 'db_pool_connections{state="max"}'), 10, 'the pool');
  t.ok(text.includes(`job_queue_jobs{queue="${MAIL_QUEUE}",state="queued"}`), 'the queues');
  t.ok(text.includes('process_cpu_user_seconds_total'), 'and the process');
  t.equal((await call(app, { url: '/readyz' })).status, 200);
});

t.test('not ready while the database is down, ready again after', async (t) => {
  const pg = await startOwnPostgres('oe-readyz-pg-');
  t.teardown(() => pg.stop());
  // A server of its own (it is stopped here): its default database.
  const url = pg.adminUrl;
  await runMigrations(url);
  const dir = await mkdtemp(join(tmpdir(), 'oe-readyz-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ROLE: 'api',
    DB_CONNECT_TIMEOUT_SECONDS: '1',
    STORAGE_DIR: join(dir, 's'),
    MAIL_OUTBOX_DIR: join(dir, 'o'),
    ASSISTANT_SETTINGS_DIR: join(dir, 'a'),
    SKILL_REPO_DIR: join(dir, 'k'),
  });
  const app = await buildApp({ ...config, DATABASE_URL: url, JWT_SECRET: TEST_SECRET });
  t.teardown(() => app.close());
  await app.ready();
  const readiness = async () => {
    const res = await app.inject({ url: '/readyz' });
    return { status: res.statusCode, body: res.json() as object };
  };
  t.match(await readiness(), {
    status: 200,
    body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', jobs: 'not run here' } },
  });
  await pg.halt();
  const down = await readiness();
  t.equal(down.status, 503, 'not ready while the database is down');
  t.match(down.body, { errors: [{ status: '503', detail: /^Not ready: database unavailable: / }] });
  t.equal((await app.inject({ url: '/healthz' })).statusCode, 200, 'still alive');
  await pg.resume();
  await until('ready again', async () => ((await readiness()).status === 200 ? true : undefined));
});

t.test('a database without the latest migration is not ready', async (t) => {
  const { app, url } = await buildTestApp(t);
  const postgres = (await import('postgres')).default;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  await sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`;
  const res = await app.inject({ url: '/readyz' });
  t.equal(res.statusCode, 503);
  t.match(res.json(), { errors: [{ detail: /^Not ready: migrations \d+ of \d+ applied$/ }] });
});

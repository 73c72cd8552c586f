import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { migrationsFolder } from '../db/migrate.js';
import { errorResponses, JsonApiError, serviceUnavailable } from './jsonapi/index.js';
import { jobs } from './jobs/index.js';
import { within } from './within.js';
import type { Config } from './config.js';

export const operationsTag = {
  name: 'Operations',
  description: 'For load balancers, orchestrators and monitoring: liveness, readiness and Prometheus metrics.',
};

/** How long the readiness check waits for the database before it answers "not ready". */
const READY_TIMEOUT_MS = 2_000;

/** The migrations this version brings (drizzle-kit's journal), which a ready database has all applied. */
const expectedMigrations = (): number =>
  (JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries
    .length;

/** The pool's state, from the driver's `pool()` (db/patches/postgres+3.4.9-pool-stats.patch). */
interface PoolState {
  max: number;
  open: number;
  busy: number;
  full: number;
  reserved: number;
  connecting: number;
  waiting: number;
}

const HealthBody = Type.Object({ status: Type.Literal('ok') });
const ReadyBody = Type.Object({
  status: Type.Literal('ready'),
  checks: Type.Object({ database: Type.String(), migrations: Type.String(), jobs: Type.String() }),
});

/** The same digest of both sides: a comparison whose time does not depend on where they differ. */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

/**
 * The metrics of one app (a registry of its own: tests run several apps in one process). HTTP
 * requests by route pattern (never the raw URL: one series per route), method and status; the
 * rest is read when scraped.
 */
function metricsOf(app: FastifyInstance, queues: string[]) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to its answer, by route pattern, method and status',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the database pool by state (idle, busy, full: busy with as many statements as it pipelines, reserved: in a transaction, connecting) and its maximum',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = (app.sql as unknown as { pool(): PoolState }).pool();
      this.set({ state: 'idle' }, pool.open);
      this.set({ state: 'busy' }, pool.busy);
      this.set({ state: 'full' }, pool.full);
      this.set({ state: 'reserved' }, pool.reserved);
      this.set({ state: 'connecting' }, pool.connecting);
      this.set({ state: 'max' }, pool.max);
    },
  });
  new Gauge({
    name: 'db_pool_waiting_statements',
    help: 'Statements waiting for a connection of the pool',
    registers: [registry],
    collect() {
      this.set((app.sql as unknown as { pool(): PoolState }).pool().waiting);
    },
  });
  new Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs by queue and state (queued: waiting to run, deferred: waiting for their start time, active: running, failed: kept after their last attempt failed), as pg-boss last counted them',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      // A database that is down leaves the queues out of this scrape rather than failing it.
      // Without persistQueueStats, pg-boss answers one snapshot: the counts its monitor keeps on the queue.
      const stats = await Promise.all(
        queues.map((name) =>
          app.boss.getQueueStats(name).then(
            (s) => s[0],
            () => undefined,
          ),
        ),
      );
      for (const s of stats) {
        if (!s) continue;
        this.set({ queue: s.name, state: 'queued' }, s.queuedCount);
        this.set({ queue: s.name, state: 'deferred' }, s.deferredCount);
        this.set({ queue: s.name, state: 'active' }, s.activeCount);
        this.set({ queue: s.name, state: 'failed' }, s.failedCount);
      }
    },
  });
  new Counter({
    name: 'jobs_ended_total',
    help: 'Jobs the workers of this process ended, by queue and outcome (failed: the handler threw; pg-boss retries it until its retry limit)',
    labelNames: ['queue', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [queue, { completed, failed }] of app.jobWorkers.ended) {
        this.inc({ queue, outcome: 'completed' }, completed);
        this.inc({ queue, outcome: 'failed' }, failed);
      }
    },
  });
  new Counter({
    name: 'mail_delivery_attempts_total',
    help: 'Mail delivery attempts of this process by outcome (retry: failed, to be tried again; failed: failed for good)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const { sent, pending, failed } = app.mailer.attempts;
      this.reset();
      this.inc({ outcome: 'sent' }, sent);
      this.inc({ outcome: 'retry' }, pending);
      this.inc({ outcome: 'failed' }, failed);
    },
  });
  new Counter({
    name: 'read_cache_reads_total',
    help: 'Reads that could be answered from the read cache, by whether they were (hit) or not (miss: absent, or asked fresh)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const cache = app.readCache;
      this.reset();
      this.inc({ result: 'hit' }, cache?.answered.hits ?? 0);
      this.inc({ result: 'miss' }, cache?.answered.misses ?? 0);
    },
  });
  new Gauge({
    name: 'read_cache_entries',
    help: 'Answers kept in the read cache',
    registers: [registry],
    collect() {
      this.set(app.readCache?.size ?? 0);
    },
  });
  new Gauge({
    name: 'read_cache_characters',
    help: 'Characters the kept answers take (READ_CACHE_MB bounds them)',
    registers: [registry],
    collect() {
      this.set(app.readCache?.used ?? 0);
    },
  });
  const observe = (request: FastifyRequest, reply: FastifyReply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  };
  return { registry, observe };
}

/**
 * `GET /healthz` (the process answers), `GET /readyz` (the database answers, every migration of this
 * version is applied, and on processes that run jobs their workers have started: 503 otherwise),
 * `GET /metrics` (Prometheus text format; with METRICS_TOKEN set, only with `Authorization: Bearer
 * <token>`).
 */
export const operations = fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    const { registry, observe } = metricsOf(
      app,
      jobs(config).map((job) => job.name),
    );
    app.addHook('onResponse', async (request, reply) => observe(request, reply));
    const expected = expectedMigrations();

    app.get(
      '/healthz',
      {
        schema: {
          tags: [operationsTag.name],
          operationId: 'getHealth',
          summary: 'Whether the process is alive',
          description:
            'Answers without asking the database: for a liveness probe (restart the process when it does not answer).',
          response: {
            200: { description: 'The process answers', content: { 'application/json': { schema: HealthBody } } },
          },
        },
      },
      async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
    );

    app.get(
      '/readyz',
      {
        schema: {
          tags: [operationsTag.name],
          operationId: 'getReadiness',
          summary: 'Whether the process may take requests',
          description:
            'Ready when the database answers (within 2 s), every migration of this version is applied and, on a process that runs jobs, its workers have started. For a load balancer or a readiness probe.',
          response: {
            200: { description: 'Ready', content: { 'application/json': { schema: ReadyBody } } },
            ...errorResponses([503], { 503: 'Not ready: the detail says what is missing' }),
          },
        },
      },
      async (_request, reply) => {
        const checks = {
          database: 'ok',
          migrations: 'ok',
          jobs: app.jobWorkers.expected ? (app.jobWorkers.started ? 'ok' : 'not started') : 'not run here',
        };
        try {
          const applied = app.sql<
            { applied: number }[]
          >`select count(*)::int as applied from drizzle.__drizzle_migrations`;
          const [row] = await within(applied, READY_TIMEOUT_MS, `no answer within ${READY_TIMEOUT_MS / 1000} s`);
          if (row!.applied < expected) checks.migrations = `${row!.applied} of ${expected} applied`;
        } catch (err) {
          checks.database = `unavailable: ${(err as Error).message}`;
          checks.migrations = 'unknown';
        }
        const missing = Object.entries(checks).filter(([, state]) => state !== 'ok' && state !== 'not run here');
        if (missing.length > 0)
          throw serviceUnavailable(`Not ready: ${missing.map(([name, state]) => `${name} ${state}`).join('; ')}`);
        return reply.header('cache-control', 'no-store').send({ status: 'ready', checks });
      },
    );

    app.get(
      '/metrics',
      {
        schema: {
          tags: [operationsTag.name],
          operationId: 'getMetrics',
          summary: 'Metrics in the Prometheus text format',
          description:
            'Requests and their durations by route and status, the database pool, job queues, mail deliveries, the read cache and the process (CPU, memory, event loop). With METRICS_TOKEN set, only with `Authorization: Bearer <METRICS_TOKEN>`.',
          response: {
            200: {
              description: 'The metrics (`text/plain; version=0.0.4`)',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
            ...errorResponses(
              [401],
              { 401: 'METRICS_TOKEN is set and the request does not carry it' },
              { database: false },
            ),
          },
        },
      },
      async (request, reply) => {
        const token = config.METRICS_TOKEN;
        if (token) {
          const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
          if (!given || !sameSecret(given, token))
            throw new JsonApiError(
              401,
              'Unauthorized',
              'The metrics need Authorization: Bearer <METRICS_TOKEN>',
              undefined,
              { 'WWW-Authenticate': 'Bearer realm="metrics"' },
            );
        }
        return reply
          .header('cache-control', 'no-store')
          .type(registry.contentType)
          .send(await registry.metrics());
      },
    );
  },
  { name: 'operations', dependencies: ['db', 'boss', 'mailer'] },
);

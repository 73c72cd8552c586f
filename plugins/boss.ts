import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fromDrizzle, PgBoss, type Job, type Queue, type SendOptions, type WorkOptions } from 'pg-boss';
import type { Db } from './db.js';

/** One pg-boss queue: its name, retry policy, and the handler a worker runs for each batch. */
export interface JobDefinition<T extends object = object> {
  name: string;
  /** Created when missing, and updated to this at every start (also its dead letter queue). */
  queue: Omit<Queue, 'name' | 'partition' | 'policy'>;
  work?: WorkOptions;
  /**
   * A recurring run (a cron expression, evaluated in `tz`, UTC by default): kept in pg-boss's schedule table at every
   * start of a worker, and sent by whichever worker's cron pass finds it due; `missed: 'once'` sends one job for
   * occurrences that fell while no worker ran.
   */
  schedule?: { cron: string; tz?: string; missed?: 'skip' | 'once' };
  /** Builds the handler from the ready app (database, mailer); jobs may run more than once. */
  handler(app: FastifyInstance): (jobs: Job<T>[]) => Promise<unknown>;
}

export interface BossOptions {
  url: string;
  jobs: JobDefinition[];
  /** Run the handlers here (roles `worker` and `all`); otherwise this process only sends jobs. */
  work: boolean;
  /** False: do not connect at all (building the OpenAPI document needs no database). */
  connect?: boolean;
  /** Time to open a connection of the queue's own pool (DB_CONNECT_TIMEOUT_SECONDS, as the service's pool). */
  connectTimeoutSeconds?: number;
  /**
   * Every queue's heartbeat: a running job's worker refreshes it twice in this time, and a job whose
   * heartbeat is older (its worker died) is failed, so it is retried, after at most `monitorSeconds` more.
   */
  heartbeatSeconds: number;
  /** How often a worker looks for jobs with a stale heartbeat or past their expiry. */
  monitorSeconds: number;
  /** How often a worker looks for jobs that became due (retries, `startAfter`); a job due now is announced by NOTIFY. */
  pollSeconds: number;
  /** On close, running jobs get until this long after the close began, less the time to hand back the rest. */
  shutdownTimeoutMs: number;
}

/** Kept from the shutdown timeout for failing the jobs still running (so they are retried) and closing the pools. */
const HAND_BACK_MS = 3000;

declare module 'fastify' {
  interface FastifyInstance {
    boss: PgBoss;
    /** Sends a job inside the caller's transaction: it exists exactly when the transaction commits. */
    sendJob(db: Db, name: string, data: object, options?: Omit<SendOptions, 'db'>): Promise<string | null>;
    /**
     * Whether this process runs jobs (`expected`), whether its workers have started (readiness), and
     * the jobs its handlers ended since, by queue and outcome (/metrics).
     */
    jobWorkers: { expected: boolean; started: boolean; ended: Map<string, { completed: number; failed: number }> };
  }
}

/**
 * pg-boss in the service's own database: queues are created at start-up, workers start once the app
 * is ready (handlers use its decorators) and stop, letting running jobs finish, before the pool closes.
 */
export default fp(
  async (app: FastifyInstance, options: BossOptions) => {
    const boss = new PgBoss({
      connectionString: options.url,
      max: 3,
      application_name: 'open-event-jobs',
      ...(options.connectTimeoutSeconds ? { connectionTimeoutMillis: options.connectTimeoutSeconds * 1000 } : {}),
      // Maintenance (expiry, retention) runs where jobs run.
      supervise: options.work,
      // Workers are woken by a NOTIFY sent when a job is created (on commit), not by their next poll: a task, a
      // mail, an image variant starts at once. A worker's own connection listens (reconnecting by itself).
      useListenNotify: options.work,
      superviseIntervalSeconds: options.monitorSeconds,
      monitorIntervalSeconds: options.monitorSeconds,
      // Cron passes run where jobs run, and only when a queue has a schedule.
      schedule: options.work && options.jobs.some((job) => job.schedule),
    });
    // Only what names the failure: pg errors carry their whole client (pool, config), kilobytes per line.
    boss.on('error', (err: Error & { code?: string }) =>
      app.log.error(
        { err: { type: err.name, message: err.message, code: err.code, stack: err.stack } },
        'job queue error',
      ),
    );
    app.decorate('boss', boss);
    const workers = {
      expected: options.work && options.connect !== false,
      started: false,
      ended: new Map<string, { completed: number; failed: number }>(),
    };
    app.decorate('jobWorkers', workers);
    app.decorate('sendJob', (db: Db, name: string, data: object, sendOptions: Omit<SendOptions, 'db'> = {}) =>
      boss.send(name, data, { ...sendOptions, db: fromDrizzle(db, sql) }),
    );
    if (options.connect === false) return;
    await boss.start();
    for (const job of options.jobs) {
      // createQueue leaves an existing queue as it is; the update applies the configured retry policy.
      const queue = { ...job.queue, heartbeatSeconds: options.heartbeatSeconds, notify: true };
      await boss.createQueue(job.name, queue);
      await boss.updateQueue(job.name, queue);
      if (options.work && job.schedule)
        await boss.schedule(job.name, job.schedule.cron, null, {
          tz: job.schedule.tz ?? 'UTC',
          ...(job.schedule.missed ? { missed: job.schedule.missed } : {}),
        });
    }
    /** Ids of the jobs whose handlers run in this process. */
    const running = new Set<string>();
    if (options.work) {
      app.addHook('onReady', async () => {
        for (const job of options.jobs) {
          const handler = job.handler(app);
          const ended = { completed: 0, failed: 0 };
          workers.ended.set(job.name, ended);
          // Polling behind the NOTIFY finds the jobs that become due later (retries, startAfter).
          const polling = {
            pollingIntervalSeconds: options.pollSeconds,
            notifyPollingIntervalSeconds: options.pollSeconds,
          };
          await boss.work(job.name, { ...polling, ...job.work }, async (batch: Job<object>[]) => {
            for (const { id } of batch) running.add(id);
            try {
              const result = await handler(batch);
              ended.completed += batch.length;
              return result;
            } catch (err) {
              ended.failed += batch.length;
              throw err;
            } finally {
              for (const { id } of batch) running.delete(id);
            }
          });
        }
        workers.started = true;
      });
    }
    // The close begins (preClose) before the HTTP server drains its requests; the jobs share that time.
    let closing = Date.now();
    app.addHook('preClose', async () => void (closing = Date.now()));
    app.addHook('onClose', async () => {
      // Jobs still running at the timeout are failed (and retried, here or by another worker) before the pool closes.
      await boss.stop({
        graceful: true,
        timeout: Math.max(1000, closing + options.shutdownTimeoutMs - HAND_BACK_MS - Date.now()),
      });
      if (running.size > 0)
        app.log.warn(
          { jobs: [...running] },
          `${running.size} running job(s) handed back at the shutdown timeout, to be retried`,
        );
    });
  },
  { name: 'boss', dependencies: ['db'] },
);

import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { fromDrizzle, PgBoss, type SendOptions } from 'pg-boss';
import type { JobDefinition } from '../src/jobs/job.js';
import type { Db } from './db.js';

export interface BossOptions {
  url: string;
  jobs: JobDefinition[];
  /** Run the handlers here (roles `worker` and `all`); otherwise this process only sends jobs. */
  work: boolean;
  /** False: do not connect at all (building the OpenAPI document needs no database). */
  connect?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    boss: PgBoss;
    /** Sends a job inside the caller's transaction: it exists exactly when the transaction commits. */
    sendJob(db: Db, name: string, data: object, options?: Omit<SendOptions, 'db'>): Promise<string | null>;
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
      // Maintenance (expiry, retention) runs where jobs run.
      supervise: options.work,
      schedule: false,
    });
    boss.on('error', (err) => app.log.error({ err }, 'job queue error'));
    app.decorate('boss', boss);
    app.decorate('sendJob', (db: Db, name: string, data: object, sendOptions: Omit<SendOptions, 'db'> = {}) =>
      boss.send(name, data, { ...sendOptions, db: fromDrizzle(db, sql) }),
    );
    if (options.connect === false) return;
    await boss.start();
    for (const job of options.jobs) {
      // createQueue leaves an existing queue as it is; the update applies the configured retry policy.
      await boss.createQueue(job.name, job.queue);
      await boss.updateQueue(job.name, job.queue);
    }
    if (options.work) {
      app.addHook('onReady', async () => {
        for (const job of options.jobs) await boss.work(job.name, job.work ?? {}, job.handler(app));
      });
    }
    app.addHook('onClose', async () => {
      await boss.stop({ graceful: true, timeout: 10_000 });
    });
  },
  { name: 'boss', dependencies: ['db'] },
);

import type { FastifyInstance } from 'fastify';
import type { Job, Queue, WorkOptions } from 'pg-boss';

/** One pg-boss queue: its name, retry policy, and the handler a worker runs for each batch. */
export interface JobDefinition<T extends object = object> {
  name: string;
  /** Created when missing, and updated to this at every start (also its dead letter queue). */
  queue: Omit<Queue, 'name' | 'partition' | 'policy'>;
  work?: WorkOptions;
  /** Builds the handler from the ready app (database, mailer); jobs may run more than once. */
  handler(app: FastifyInstance): (jobs: Job<T>[]) => Promise<unknown>;
}

export const defineJob = <T extends object>(job: JobDefinition<T>): JobDefinition<T> => job;

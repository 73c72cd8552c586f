import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { WorkOptions } from 'pg-boss';
import { tasks, users } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import type { MailAddress } from '../../plugins/mailer.js';
import { defineJob } from './job.js';

export type Task = typeof tasks.$inferSelect;

export interface TaskJob {
  taskId: string;
}

/**
 * A queue whose jobs each run one task (`/v1/tasks/<id>`). A task that no longer waits is left
 * alone, so a job that runs again after its task ended does nothing.
 */
export const taskJob = (name: string, run: (app: FastifyInstance, task: Task) => Promise<void>, work?: WorkOptions) =>
  defineJob<TaskJob>({
    name,
    queue: { retryLimit: 2, retryDelay: 30 },
    work,
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const [task] = await app.db.select().from(tasks).where(and(eq(tasks.id, job.data.taskId), eq(tasks.state, 'WAITING')));
        if (task) await run(app, task);
      }
    },
  });

/** The address of the user who asked for a task. */
export async function requesterOf(app: FastifyInstance, task: Task): Promise<MailAddress> {
  const [user] = await app.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, task.userId!));
  return { address: user!.email, name: user!.name ?? undefined };
}

/** Ends a task with its state and result (the progress text cleared). */
export const finishTask = (db: Db, id: string, state: string, result: object, extra: Partial<Task> = {}) =>
  db.update(tasks).set({ state, result, status: null, updatedAt: new Date(), ...extra }).where(eq(tasks.id, id));

/** The progress text of a waiting task. */
export const setTaskStatus = async (db: Db, id: string, status: string) =>
  void (await db.update(tasks).set({ status, updatedAt: new Date() }).where(eq(tasks.id, id)));

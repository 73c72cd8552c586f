import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { WorkOptions } from 'pg-boss';
import type { JobDefinition } from './job.js';
import { tasks, users } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import type { MailAddress, OutgoingMail } from '../../plugins/mailer.js';
import { defineJob } from './job.js';

export type Task = typeof tasks.$inferSelect;

export interface TaskJob {
  taskId: string;
}

/** Attempts after the first of a task's job (a worker that died); then the task is abandoned. */
export const TASK_RETRIES = 2;

/** Where the jobs of every task queue go once their retries are spent: the task is ended there. */
export const TASK_ABANDONED_QUEUE = 'task-abandoned';

const waiting = (id: string) => and(eq(tasks.id, id), eq(tasks.state, 'WAITING'));

/** How a kind of task says, in its requester's mail, that the task was given up. */
export type AbandonedMail = (app: FastifyInstance, task: Task, message: string) => Promise<OutgoingMail>;

/**
 * A queue whose jobs each run one task (`/v1/tasks/<id>`). A task that no longer waits is left
 * alone, so a job that runs again after its task ended does nothing. A job whose retries are spent
 * (the worker died each time) goes to the abandoned-task queue, so no task waits for ever.
 */
export function taskJob(
  name: string,
  run: (app: FastifyInstance, task: Task) => Promise<void>,
  options: { queue?: JobDefinition['queue']; work?: WorkOptions } = {},
) {
  return defineJob<TaskJob>({
    name,
    queue: { retryLimit: TASK_RETRIES, ...options.queue, deadLetter: TASK_ABANDONED_QUEUE },
    work: options.work,
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const [task] = await app.db.select().from(tasks).where(waiting(job.data.taskId));
        if (task) await run(app, task);
      }
    },
  });
}

/** A task queue whose next attempt (after a failure, or a worker that died) starts `seconds` later. */
export const retryingAfter = (seconds: number, job: JobDefinition): JobDefinition => ({
  ...job,
  queue: { ...job.queue, retryDelay: seconds },
});

/**
 * The abandoned-task queue: ends the task FAILED (an import FAILURE) and mails its requester what
 * `mails` says for its kind. It must exist before the queues that name it as their dead letter queue.
 */
export const taskAbandoned = (mails: Record<'export' | 'import' | 'app', AbandonedMail>) =>
  defineJob<TaskJob>({
    name: TASK_ABANDONED_QUEUE,
    queue: { retryLimit: 5, retryDelay: 60 },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const [task] = await app.db.select().from(tasks).where(waiting(job.data.taskId));
        const abandoned = task && mails[task.kind as keyof typeof mails];
        if (!task || !abandoned) continue;
        const message = 'The task failed on the server';
        const state = task.kind === 'import' ? 'FAILURE' : 'FAILED';
        await app.mailer.send(await abandoned(app, task, message), (tx) =>
          finishTask(tx, task.id, state, { __error: true, message }),
        );
      }
    },
  });

/** The address of the user who asked for a task. */
export async function requesterOf(app: FastifyInstance, task: Task): Promise<MailAddress> {
  const [user] = await app.db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, task.userId!));
  return { address: user!.email, name: user!.name ?? undefined };
}

/** A task that ended meanwhile (another run of its job finished it): the transaction ending it again rolls back. */
export class TaskEnded extends Error {}

/**
 * Ends a waiting task with its state and result (the progress text cleared); throws TaskEnded when
 * it no longer waits, so that what commits with the end (its mail) commits only once.
 */
export async function finishTask(db: Db, id: string, state: string, result: object, extra: Partial<Task> = {}) {
  const ended = await db
    .update(tasks)
    .set({ state, result, status: null, updatedAt: new Date(), ...extra })
    .where(waiting(id))
    .returning({ id: tasks.id });
  if (ended.length === 0) throw new TaskEnded(`task ${id} has already ended`);
}

/** The progress text of a waiting task. */
export const setTaskStatus = async (db: Db, id: string, status: string) =>
  void (await db.update(tasks).set({ status, updatedAt: new Date() }).where(waiting(id)));

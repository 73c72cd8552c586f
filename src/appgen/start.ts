import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tasks } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { take } from '../rate-limits/hits.js';
import { clientOf, mailboxOf } from '../rate-limits/keys.js';
import { APP_GROUP, APP_QUEUE, type AppTaskOptions } from './job.js';

export interface AppgenRateLimits {
  perEmail: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Counts a build against the limits of its mailbox and client address, in the transaction that records
 * it (the keys stay locked until it commits, so requests racing for the last place are counted one
 * after the other); throws RateLimited when either is used up.
 */
const takeBuild = (tx: Db, limits: AppgenRateLimits, { mailbox, client }: AppTaskOptions) =>
  take(
    tx,
    [
      { bucket: 'app-mailbox', key: mailbox, max: limits.perEmail, windowSeconds: limits.windowSeconds },
      { bucket: 'app-client', key: client, max: limits.perIp, windowSeconds: limits.windowSeconds },
    ],
    (seconds) => `Too many app builds; try again in ${seconds} seconds`,
  );

/**
 * Records a build task and queues its job, within the rate limits: what every entry point does with
 * checked fields. A null `app_name` names the app after the event (the build reads it).
 */
export async function startBuild(
  app: FastifyInstance,
  request: FastifyRequest,
  limits: AppgenRateLimits,
  fields: { email: string; app_name: string | null; endpoint: string },
) {
  const email = fields.email.toLowerCase();
  const options: AppTaskOptions = {
    email,
    app_name: fields.app_name,
    endpoint: fields.endpoint,
    identifier: randomBytes(8).toString('hex'),
    mailbox: mailboxOf(email),
    client: clientOf(request.ip),
  };
  const id = await app.db.transaction(async (tx) => {
    await takeBuild(tx, limits, options);
    const [task] = await tx.insert(tasks).values({ kind: 'app', options }).returning({ id: tasks.id });
    await app.sendJob(tx, APP_QUEUE, { taskId: task!.id }, { group: APP_GROUP });
    return task!.id;
  });
  return { id, identifier: options.identifier };
}

import { MAIL_QUEUE } from '../../plugins/mailer.js';
import { defineJob } from './job.js';

/**
 * The safety net of every mail: sent with the mail's record, it runs after the first retry delay and
 * delivers the mail if the immediate attempt failed (or the process died before it), retrying with
 * backoff until the mailer marks it sent or, after its last attempt, failed (it stays recorded).
 */
export const mailDelivery = (retrySeconds: number, retryLimit: number) =>
  defineJob<{ mailId: number }>({
    name: MAIL_QUEUE,
    queue: { retryLimit, retryDelay: retrySeconds, retryBackoff: true, retryDelayMax: 6 * 3600 },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        if ((await app.mailer.deliver(job.data.mailId)) === 'pending')
          throw new Error(`mail ${job.data.mailId} is not delivered yet`);
      }
    },
  });

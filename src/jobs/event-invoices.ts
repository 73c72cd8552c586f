import { isMonth, issueMonth, previousMonth } from '../resources/event-invoices/issue.js';
import { defineJob } from './job.js';

export const EVENT_INVOICES_QUEUE = 'event-invoices';

/** What a run bills: a month (`YYYY-MM`), or, sent by the schedule with none, the month just ended. */
export interface EventInvoicesJob {
  month?: string;
}

/**
 * The monthly invoices of the ticket fees (the reference's send_monthly_event_invoice, a cron at 0:00 on the 1st):
 * scheduled at 00:00 UTC on the 1st of each month for the month just ended, and sent once if the service was down
 * then. Runs are idempotent (issue.ts): a retry or a second run adds only what is missing.
 */
export const eventInvoices = () =>
  defineJob<EventInvoicesJob>({
    name: EVENT_INVOICES_QUEUE,
    queue: { retryLimit: 5, retryDelay: 60, retryBackoff: true },
    schedule: { cron: '0 0 1 * *', tz: 'UTC', missed: 'once' },
    handler: (app) => async (jobs) => {
      for (const job of jobs) {
        const month = job.data?.month && isMonth(job.data.month) ? job.data.month : previousMonth();
        const run = await issueMonth(app, month);
        app.log.info({ month, issued: run.issued.length, existing: run.existing }, 'event invoices issued');
      }
    },
  });

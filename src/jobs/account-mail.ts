import {
  ACCOUNT_MAIL_QUEUE,
  sendAccountMail,
  type AccountMailJob,
  type AccountMailOptions,
} from '../auth/account-mail.js';
import { defineJob } from './job.js';

/** Mails about accounts: verification and password reset links, notices of password changes. */
export const accountMail = (options: AccountMailOptions) =>
  defineJob<AccountMailJob>({
    name: ACCOUNT_MAIL_QUEUE,
    queue: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
    handler: (app) => async (jobs) => {
      for (const job of jobs) await sendAccountMail(app, options, job.data);
    },
  });

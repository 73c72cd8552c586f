import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { settings, users } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import type { OutgoingMail } from '../../plugins/mailer.js';
import { RateLimited } from '../rate-limits/hits.js';
import { takeMails, type MailLimits } from '../rate-limits/mail.js';
import { takeSignup, type SignupLimits } from '../rate-limits/signup.js';
import { issueAccountToken } from './account-tokens.js';
import { duration } from '../duration.js';
import { roleInviteMail } from '../resources/role-invites/mail.js';
import { speakerInviteMail } from '../resources/speaker-invites/mail.js';

export const ACCOUNT_MAIL_QUEUE = 'account-mail';

/**
 * A mail about an account, sent by a job (in the transaction of the write it follows). A reset names
 * only the address it was asked for: the request is answered the same whether an account has it or not,
 * and the job finds out.
 */
export type AccountMailJob =
  | { kind: 'verify-email'; userId: number }
  | { kind: 'reset-password'; email: string }
  | { kind: 'password-changed'; userId: number }
  | { kind: 'speaker-invite'; inviteId: number }
  | { kind: 'role-invite'; inviteId: number };

export interface AccountMailer {
  /**
   * Counts a mail to `recipient` against the mail limits of the client at `ip` and sends the job in
   * `db`'s transaction. Past a limit: `refuse` throws RateLimited (429), `skip` sends nothing and answers false.
   */
  queue(
    db: Db,
    job: AccountMailJob,
    to: { recipient: string; ip: string; whenLimited: 'refuse' | 'skip' },
  ): Promise<boolean>;
  /**
   * Counts a new account for `email`, registered by the client at `ip`, against the sign-up limits (in the
   * transaction that inserts it); throws RateLimited (429) past them. Its verification mail is queued apart.
   */
  countSignup(db: Db, email: string, ip: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountMail: AccountMailer;
  }
}

/**
 * Decorates the app with `accountMail`, counting account mails with the receipts' limits (MAIL_RATE_*) and the
 * registrations that mail a verification link with the sign-up limits (SIGNUP_RATE_*).
 */
export const accountMailPlugin = fp(
  async (app: FastifyInstance, { limits, signups }: { limits: MailLimits; signups: SignupLimits }) => {
    app.decorate('accountMail', {
      async queue(db, job, { recipient, ip, whenLimited }) {
        try {
          await takeMails(db, limits, [recipient], ip);
        } catch (err) {
          if (err instanceof RateLimited && whenLimited === 'skip') {
            app.log.warn(
              { job: job.kind },
              'an account mail was not sent: the mail limits of its recipient or client are reached',
            );
            return false;
          }
          throw err;
        }
        await app.sendJob(db, ACCOUNT_MAIL_QUEUE, job);
        return true;
      },
      countSignup: (db, email, ip) => takeSignup(db, signups, email, ip),
    } satisfies AccountMailer);
  },
  { name: 'account-mail', dependencies: ['boss'] },
);

export interface AccountMailOptions {
  /** Where the web front end runs when the settings name no `frontend-url` (PUBLIC_URL). */
  publicUrl: string;
  /** Lifetimes of the links, in seconds (EMAIL_VERIFICATION_EXPIRES_IN, PASSWORD_RESET_EXPIRES_IN, INVITE_EXPIRES_IN). */
  verifyFor: number;
  resetFor: number;
  inviteFor: number;
}

/**
 * The mail of a job, with a new link token where it needs one; nothing for an account that is gone (or
 * verified already, for a verification). The links lead to the front end's `/verify` and
 * `/reset-password` pages (its app/router.js), which post the token back.
 */
async function composeAccountMail(
  app: FastifyInstance,
  options: AccountMailOptions,
  job: AccountMailJob,
): Promise<OutgoingMail | null> {
  const [site] = await app.db
    .select({ appName: settings.appName, frontendUrl: settings.frontendUrl })
    .from(settings)
    .where(eq(settings.id, 1));
  const appName = site?.appName ?? 'Open Event';
  const frontend = (site?.frontendUrl ?? options.publicUrl).replace(/\/+$/, '');
  if (job.kind === 'speaker-invite') return speakerInviteMail(app, job.inviteId, appName, frontend);
  if (job.kind === 'role-invite') return roleInviteMail(app, job.inviteId, appName, frontend, options.inviteFor);
  const account =
    'userId' in job ? eq(users.id, job.userId) : sql`lower(${users.email}) = ${job.email.trim().toLowerCase()}`;
  const [user] = await app.db
    .select({ id: users.id, email: users.email, isVerified: users.isVerified })
    .from(users)
    .where(and(account, isNull(users.deletedAt)))
    .limit(1);
  if (!user) return null;
  const to = { address: user.email };
  switch (job.kind) {
    case 'verify-email': {
      if (user.isVerified) return null;
      const token = await issueAccountToken(app.db, user, 'verify-email', options.verifyFor);
      const link = `${frontend}/verify?token=${encodeURIComponent(token)}`;
      return {
        to,
        subject: `Confirm your email address for ${appName}`,
        action: 'verify-email',
        text:
          `Hello,\n\nplease confirm that ${user.email} is your address at ${appName} by opening this link ` +
          `within ${duration(options.verifyFor)}:\n\n${link}\n\nIf you did not sign up, ignore this mail.\n`,
      };
    }
    case 'reset-password': {
      const token = await issueAccountToken(app.db, user, 'reset-password', options.resetFor);
      const link = `${frontend}/reset-password?token=${encodeURIComponent(token)}`;
      return {
        to,
        subject: `Reset your password for ${appName}`,
        action: 'reset-password',
        text:
          `Hello,\n\nsomeone asked to reset the password of ${user.email} at ${appName}. Choose a new one at this link ` +
          `within ${duration(options.resetFor)} (it works once):\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
      };
    }
    case 'password-changed':
      return {
        to,
        subject: `Your password for ${appName} was changed`,
        action: 'password-changed',
        text:
          `Hello,\n\nthe password of ${user.email} at ${appName} was just changed, and your other logins were ended.\n\n` +
          `If it was not you, choose a new password at ${frontend}/reset-password at once.\n`,
      };
  }
}

/** Runs one account mail job (jobs may run more than once: a second mail carries a second valid link). */
export async function sendAccountMail(app: FastifyInstance, options: AccountMailOptions, job: AccountMailJob) {
  const mail = await composeAccountMail(app, options, job);
  if (mail) await app.mailer.send(mail);
}

import type { Config } from '../config.js';
import type { Db } from '../../plugins/db.js';
import { take } from './hits.js';
import { clientOf, mailboxOf } from './keys.js';

/** Mails clients may have the service send to one mailbox and from one client address in a window (MAIL_RATE_*). */
export interface MailLimits {
  perRecipient: number;
  perClient: number;
  windowSeconds: number;
}

export const mailLimitsOf = (config: Config): MailLimits => ({
  perRecipient: config.MAIL_RATE_PER_RECIPIENT,
  perClient: config.MAIL_RATE_PER_IP,
  windowSeconds: config.MAIL_RATE_WINDOW_SECONDS,
});

/**
 * Counts the mails a request is about to have sent to `recipients` (addresses the client chose, so the
 * service must not become anyone's mail cannon): each mailbox by the mails it gets, the client by all
 * of them. Throws RateLimited, before anything is sent, when any mailbox or the client is over its
 * limit: the request sends all its mails or none.
 */
export async function takeMails(db: Db, limits: MailLimits, recipients: string[], ip: string): Promise<void> {
  const perMailbox = new Map<string, number>();
  for (const address of recipients) perMailbox.set(mailboxOf(address), (perMailbox.get(mailboxOf(address)) ?? 0) + 1);
  const window = { windowSeconds: limits.windowSeconds };
  await take(
    db,
    [
      ...[...perMailbox].map(([key, weight]) => ({
        bucket: 'mail-recipient',
        key,
        weight,
        max: limits.perRecipient,
        ...window,
      })),
      { bucket: 'mail-client', key: clientOf(ip), weight: recipients.length, max: limits.perClient, ...window },
    ],
    (seconds) => `Too many mails to these addresses or from this client address; try again in ${seconds} seconds`,
  );
}

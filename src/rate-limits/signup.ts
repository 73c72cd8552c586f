import type { Config } from '../config.js';
import type { Db } from '../../plugins/db.js';
import { take } from './hits.js';
import { clientOf } from './keys.js';

/** New accounts one client address, and all clients for one address domain, may make in a window (SIGNUP_RATE_*). */
export interface SignupLimits {
  perClient: number;
  perDomain: number;
  windowSeconds: number;
}

export const signupLimitsOf = (config: Config): SignupLimits => ({
  perClient: config.SIGNUP_RATE_PER_IP,
  perDomain: config.SIGNUP_RATE_PER_DOMAIN,
  windowSeconds: config.SIGNUP_WINDOW_SECONDS,
});

/** The domain of an address as the sign-up limit counts it: lower-cased, what follows the last `@`. */
const domainOf = (email: string) => email.trim().toLowerCase().split('@').pop()!;

/**
 * Counts a new account for `email` made by the client at `ip` (in the transaction that inserts it, so a
 * refused or failed registration counts nothing and concurrent ones wait for each other): each registration
 * mails a verification link, and unlimited accounts would be a mail cannon and a flood of the users table.
 * Throws RateLimited (429 with `Retry-After`) past either limit.
 */
export async function takeSignup(db: Db, limits: SignupLimits, email: string, ip: string): Promise<void> {
  const window = { windowSeconds: limits.windowSeconds };
  await take(
    db,
    [
      { bucket: 'signup-client', key: clientOf(ip), max: limits.perClient, ...window },
      { bucket: 'signup-domain', key: domainOf(email), max: limits.perDomain, ...window },
    ],
    (seconds) =>
      `Too many new accounts from this client address or for this address's domain; try again in ${seconds} seconds`,
  );
}

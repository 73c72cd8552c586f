import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import type { Config } from '../config.js';
import { forbidden } from '../jsonapi/index.js';
import { forget, take } from '../rate-limits/hits.js';
import { clientOf } from '../rate-limits/keys.js';
import { upgradedHash, verifyPassword } from './password.js';
import { liveAccountWith } from './accounts.js';

/** Failed logins allowed per e-mail address and per client address in a window (LOGIN_*). */
export interface LoginLimits {
  perEmail: number;
  perClient: number;
  windowSeconds: number;
}

export const loginLimitsOf = (config: Config): LoginLimits => ({
  perEmail: config.LOGIN_MAX_FAILURES,
  perClient: config.LOGIN_MAX_FAILURES_PER_IP,
  windowSeconds: config.LOGIN_WINDOW_SECONDS,
});

const EMAIL_BUCKET = 'login-email';

/** Why a blocked account's right password is refused (403): an administrator set `is-blocked`. */
export const ACCOUNT_BLOCKED = 'This account has been blocked by an administrator';

/**
 * Replaces the hash `from` that a password matched by `to`, its hash with HASH_OPTIONS. Only while the
 * stored hash is still `from`: a password changed since the check is kept. Neither the token generation
 * nor the logins change, so no token ends: the password is the same.
 */
const rehash = (userId: number, from: string, to: string) =>
  sql`update ${users} set password_hash = ${to} where ${users.id} = ${userId} and ${users.passwordHash} = ${from}`;

/**
 * The account of an e-mail and password, or null when they do not match one; the login of every face
 * (POST /v1/auth/login, its alias, /aaa/login.json). Guessing is limited per e-mail address (one
 * account's password) and per client (many accounts' passwords): past either limit the attempt is
 * refused with RateLimited before the password is even hashed, right or wrong. Each attempt counts as
 * a failure before the password is checked, so guesses sent in parallel are all counted; a success
 * forgives the e-mail's failures, never the client's others (whoever logs into their own account
 * between guesses at others' must not start their count over). The right password of a blocked
 * account is refused with 403 (ACCOUNT_BLOCKED). A success also upgrades a hash made with other
 * parameters than HASH_OPTIONS, in the statement that forgives the failures; a failure writes no hash.
 */
export async function checkLogin(
  app: FastifyInstance,
  limits: LoginLimits,
  attempt: { email: string; password: string; ip: string },
): Promise<{ id: number; email: string; tokenGeneration: number } | null> {
  const email = attempt.email.trim().toLowerCase();
  // No address is longer (RFC 5321); a longer string matches no account and must not bloat the index.
  const key = email.slice(0, 254);
  const [, clientHit] = await take(
    app.db,
    [
      { bucket: EMAIL_BUCKET, key, max: limits.perEmail, windowSeconds: limits.windowSeconds },
      { bucket: 'login-client', key: clientOf(attempt.ip), max: limits.perClient, windowSeconds: limits.windowSeconds },
    ],
    (seconds) => `Too many failed logins; try again in ${seconds} seconds`,
  );
  const [user] = await app.db
    .select({
      id: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      tokenGeneration: users.tokenGeneration,
      isBlocked: users.isBlocked,
    })
    .from(users)
    .where(liveAccountWith(email))
    .limit(1);
  if (!(await verifyPassword(user?.passwordHash, attempt.password)) || !user) return null;
  // A blocked account's login is refused, so it upgrades nothing either.
  const upgrade = user.isBlocked ? null : await upgradedHash(user.passwordHash, attempt.password);
  await forget(
    app.db,
    { bucket: EMAIL_BUCKET, key, ids: [clientHit!] },
    upgrade === null ? undefined : rehash(user.id, user.passwordHash, upgrade),
  );
  // Only whoever knows the password learns that the account is blocked.
  if (user.isBlocked) throw forbidden(ACCOUNT_BLOCKED);
  return { id: user.id, email: user.email, tokenGeneration: user.tokenGeneration };
}

/**
 * Runs `check` of a token a client presents (a refresh token, the token of a mailed link) as one
 * attempt of that client: failed attempts count like failed logins of a client (LOGIN_MAX_FAILURES_PER_IP
 * per LOGIN_WINDOW_SECONDS, in a count of their own), and past the limit the token is not even looked at.
 * The tokens are far too long to guess; the limit keeps a client from hammering the database with them.
 * An attempt counts until `check` succeeds, so attempts sent in parallel are all counted.
 */
export async function checkTokenAttempt<T>(
  app: FastifyInstance,
  limits: LoginLimits,
  ip: string,
  check: () => Promise<T>,
): Promise<T> {
  const [hit] = await take(
    app.db,
    [{ bucket: 'token-client', key: clientOf(ip), max: limits.perClient, windowSeconds: limits.windowSeconds }],
    (seconds) => `Too many failed attempts from this client address; try again in ${seconds} seconds`,
  );
  const result = await check();
  await forget(app.db, { ids: [hit!] });
  return result;
}

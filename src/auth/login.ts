import { and, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/index.js';
import type { Config } from '../config.js';
import { forget, take } from '../rate-limits/hits.js';
import { clientOf } from '../rate-limits/keys.js';
import { verifyPassword } from './password.js';

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

/**
 * The account of an e-mail and password, or null when they do not match one; the login of every face
 * (POST /v1/auth/login, its alias, /aaa/login.json). Guessing is limited per e-mail address (one
 * account's password) and per client (many accounts' passwords): past either limit the attempt is
 * refused with RateLimited before the password is even hashed, right or wrong. Each attempt counts as
 * a failure before the password is checked, so guesses sent in parallel are all counted; a success
 * forgives the e-mail's failures, never the client's others (whoever logs into their own account
 * between guesses at others' must not start their count over).
 */
export async function checkLogin(
  app: FastifyInstance,
  limits: LoginLimits,
  attempt: { email: string; password: string; ip: string },
): Promise<{ id: number; email: string } | null> {
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
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, isNull(users.deletedAt)))
    .limit(1);
  if (!(await verifyPassword(user?.passwordHash, attempt.password)) || !user) return null;
  await forget(app.db, { bucket: EMAIL_BUCKET, key, ids: [clientHit!] });
  return { id: user.id, email: user.email };
}

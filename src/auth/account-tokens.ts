import { and, eq, sql } from 'drizzle-orm';
import { accountTokens } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { newToken, tokenHash } from './logins.js';

export type AccountTokenPurpose = 'verify-email' | 'reset-password';

/**
 * The token of a link mailed to `user.email`, valid for `seconds`; only its hash is kept. Deletes up to
 * 100 expired tokens of any account, so no sweeper is needed.
 */
export async function issueAccountToken(
  db: Db,
  user: { id: number; email: string },
  purpose: AccountTokenPurpose,
  seconds: number,
) {
  const token = newToken();
  await db.execute(sql`
    delete from ${accountTokens} where ${accountTokens.tokenHash} in (
      select a.token_hash from ${accountTokens} a where a.expires_at <= now() order by a.expires_at limit 100 for update skip locked)`);
  await db.insert(accountTokens).values({
    tokenHash: tokenHash(token),
    userId: user.id,
    purpose,
    email: user.email,
    expiresAt: sql`now() + make_interval(secs => ${seconds})`,
  });
  return token;
}

/**
 * Uses the token of a mailed link: the account it was issued for and the address it was mailed to, or
 * null when it is unknown, used or expired. A token is used once: it is deleted, and so is every other
 * token of its purpose for that account (one verification or reset ends the links of the others).
 */
export async function useAccountToken(db: Db, token: string, purpose: AccountTokenPurpose) {
  const [used] = await db
    .delete(accountTokens)
    .where(and(eq(accountTokens.tokenHash, tokenHash(token)), eq(accountTokens.purpose, purpose)))
    .returning({
      userId: accountTokens.userId,
      email: accountTokens.email,
      expired: sql<boolean>`${accountTokens.expiresAt} <= now()`,
    });
  if (!used || used.expired) return null;
  await db.delete(accountTokens).where(and(eq(accountTokens.userId, used.userId), eq(accountTokens.purpose, purpose)));
  return { userId: used.userId, email: used.email };
}

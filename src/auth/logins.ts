import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { accountTokens, logins, refreshTokens, users } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { unauthorized } from '../jsonapi/index.js';

/** Lifetimes in seconds: JWT_EXPIRES_IN and JWT_REFRESH_EXPIRES_IN. */
export interface TokenLifetimes {
  access: number;
  refresh: number;
}

export interface TokenPair {
  access_token: string;
  refresh_token: string;
}

export type EndReason = 'logout' | 'reuse' | 'password' | 'deleted' | 'blocked';

/** A new opaque token: 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** What the database keeps of a token: its SHA-256 (the tokens are random, so no slow hash is needed). */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest();

const secondsFromNow = (seconds: number) => sql`now() + make_interval(secs => ${seconds})`;

/** Until when a login that issues tokens now can have a live one. */
const loginLifetime = (l: TokenLifetimes) => secondsFromNow(Math.max(l.access, l.refresh));

/**
 * Starts a login of `userId`: its first refresh token and an access token that names it. One statement,
 * which also stamps the account's last login (`last-accessed-at`) and deletes up to 100 logins whose
 * tokens have all expired (with their refresh tokens), so no sweeper is needed.
 */
export async function startLogin(app: FastifyInstance, lifetimes: TokenLifetimes, userId: number): Promise<TokenPair> {
  const refresh = newToken();
  const [row] = await app.db.execute<{ login_id: string }>(sql`
    with expired as (
      delete from ${logins} where ${logins.id} in (
        select l.id from ${logins} l where l.expires_at <= now() order by l.expires_at limit 100 for update skip locked)),
    login as (
      insert into ${logins} (user_id, expires_at) values (${userId}, ${loginLifetime(lifetimes)}) returning id),
    seen as (
      update ${users} set last_login_at = now() where id = ${userId})
    insert into ${refreshTokens} (login_id, token_hash, expires_at)
    select login.id, ${tokenHash(refresh)}, ${secondsFromNow(lifetimes.refresh)} from login
    returning login_id`);
  return { access_token: app.issueToken(userId, { loginId: row!.login_id }), refresh_token: refresh };
}

/** Ends the live logins of an account (but `keep`), or one login: their refresh and access tokens stop working. */
export async function endLogins(
  db: Db,
  which: { userId: number; keep?: string | null } | { loginId: string },
  reason: EndReason,
) {
  const target =
    'loginId' in which
      ? eq(logins.id, which.loginId)
      : and(eq(logins.userId, which.userId), which.keep ? ne(logins.id, which.keep) : undefined);
  await db
    .update(logins)
    .set({ endedAt: sql`now()`, endReason: reason })
    .where(and(target, isNull(logins.endedAt)));
}

/**
 * What a new password ends, in the transaction that sets it: every login of the account but `keep` (the
 * login that changed it, whose client keeps using its tokens), and the links of reset mails not used yet.
 * The assistant's tokens end by the token generation the same update raises (`raiseGeneration`).
 */
export async function endAfterPasswordChange(db: Db, userId: number, keep: string | null) {
  await endLogins(db, { userId, keep }, 'password');
  await db
    .delete(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, 'reset-password')));
}

/** The column value that ends the tokens issued in the account's current generation. */
export const raiseGeneration = () => sql`${users.tokenGeneration} + 1`;

type Refresh = { pair: TokenPair } | { refused: string };

const REUSED = 'This refresh token was replaced by another one that was used; the login has ended';

/**
 * Exchanges a refresh token for a new pair. A token stays usable until one of the tokens issued for it
 * is used: that first use retires it. Presenting a retired token, or using a second child of a token
 * that another child already retired (two chains from one token: one of them is a thief's), ends the
 * whole login. A client that always presents the token of its login (the web front end) and never the
 * ones it is given back keeps working until that token expires; one that rotates retires each token as
 * it uses the next. The token row and the parent it retires are locked, so concurrent refreshes are
 * judged one after the other. Refusals are 401; the ending of a login commits before it is answered.
 */
export async function refreshLogin(app: FastifyInstance, lifetimes: TokenLifetimes, token: string): Promise<TokenPair> {
  const outcome = await app.db.transaction(async (tx): Promise<Refresh> => {
    const [current] = await tx
      .select({
        id: refreshTokens.id,
        parentId: refreshTokens.parentId,
        retiredBy: refreshTokens.retiredBy,
        expired: sql<boolean>`${refreshTokens.expiresAt} <= now()`,
        loginId: logins.id,
        ended: logins.endedAt,
        userId: users.id,
        deleted: users.deletedAt,
      })
      .from(refreshTokens)
      .innerJoin(logins, eq(logins.id, refreshTokens.loginId))
      .innerJoin(users, eq(users.id, logins.userId))
      .where(eq(refreshTokens.tokenHash, tokenHash(token)))
      .for('update', { of: refreshTokens });
    if (!current) return { refused: 'Invalid refresh token' };
    if (current.deleted) return { refused: 'The account of this token no longer exists' };
    if (current.ended) return { refused: 'The login of this refresh token has ended' };
    if (current.expired) return { refused: 'Refresh token has expired' };
    const reused = async (): Promise<Refresh> => {
      await endLogins(tx, { loginId: current.loginId }, 'reuse');
      return { refused: REUSED };
    };
    if (current.retiredBy !== null) return reused();
    if (current.parentId !== null) {
      const [parent] = await tx
        .select({ retiredBy: refreshTokens.retiredBy })
        .from(refreshTokens)
        .where(eq(refreshTokens.id, current.parentId))
        .for('update');
      if (parent!.retiredBy !== null && parent!.retiredBy !== current.id) return reused();
      if (parent!.retiredBy === null)
        await tx.update(refreshTokens).set({ retiredBy: current.id }).where(eq(refreshTokens.id, current.parentId));
    }
    const next = newToken();
    await tx.insert(refreshTokens).values({
      loginId: current.loginId,
      parentId: current.id,
      tokenHash: tokenHash(next),
      expiresAt: secondsFromNow(lifetimes.refresh),
    });
    await tx
      .update(logins)
      .set({ expiresAt: sql`greatest(${logins.expiresAt}, ${loginLifetime(lifetimes)})` })
      .where(eq(logins.id, current.loginId));
    return {
      pair: { access_token: app.issueToken(current.userId, { loginId: current.loginId }), refresh_token: next },
    };
  });
  if ('refused' in outcome) throw unauthorized(outcome.refused);
  return outcome.pair;
}

/** The login a refresh token belongs to, whatever its state; undefined for a token nobody issued. */
export async function loginOfRefreshToken(db: Db, token: string): Promise<string | undefined> {
  const [row] = await db
    .select({ loginId: refreshTokens.loginId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash(token)));
  return row?.loginId;
}

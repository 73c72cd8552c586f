import fastifyJwt from '@fastify/jwt';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { logins, users } from '../../db/schema/index.js';
import type { Caller } from './caller.js';
import { PANEL_TABLES, panelsOf } from './panels.js';
import { unauthorized } from '../../plugins/http-errors.js';
import type { Db } from '../../plugins/db.js';
import { wantsFresh } from '../../plugins/read-cache.js';

export interface AuthOptions {
  secret: string;
  /** Token lifetime in seconds. */
  expiresIn: number;
}

/**
 * What ends an access token before its expiry besides its account's deletion: the login it belongs to
 * (`sid`, tokens of `POST /v1/auth/login` and its refreshes), or else the account's token generation it
 * was issued in (`gen`, the assistant's tokens), which every password change moves on.
 */
export type TokenScope = { loginId: string } | { generation: number };

interface Claims {
  identity: number;
  sid?: string;
  gen?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets `request.caller` from the Authorization header; 401 for a bad, expired or orphaned token. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** The live account a token names; 401 for a bad, expired, revoked or orphaned token. */
    callerOf(token: string, fresh?: boolean): Promise<Caller>;
    /** A token of `userId`; `expiresIn` (seconds) shortens its lifetime below the configured one, never lengthens it. */
    issueToken(userId: number, scope?: TokenScope, expiresIn?: number): string;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: Claims;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Joined when a token names no login: no login has this id. */
const NO_LOGIN = '00000000-0000-0000-0000-000000000000';

/** The token of `Authorization: JWT <token>` (the documented form) or `Bearer <token>`. */
export function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^(JWT|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must be "JWT <token>" or "Bearer <token>"');
  return match[2];
}

/** Claims as this service issues them; anything else is not a token of ours. */
function isClaims(claims: Partial<Claims>): claims is Claims {
  const { identity, sid, gen } = claims;
  // Ids are positive int4 values; a larger number would fail in PostgreSQL rather than match nothing.
  return (
    Number.isInteger(identity) &&
    identity! >= 1 &&
    identity! <= 2147483647 &&
    (sid === undefined || (typeof sid === 'string' && UUID.test(sid))) &&
    (gen === undefined || (Number.isInteger(gen) && gen >= 0 && gen <= 2147483647))
  );
}

/**
 * The tables `callerLookup` reads: the read cache drops its memoized callers when one of them changes
 * (a deleted or demoted account, a changed password, an ended login, a panel opened or closed). A test compares this list with
 * the tables the lookup's SQL names.
 */
export const CALLER_TABLES = ['users', 'logins', ...PANEL_TABLES] as const;

/** The live account a token names, with its login (`sid`) when the token names one. */
export const callerLookup = (db: Db, identity: number, sid: string | undefined) =>
  db
    .select({
      id: users.id,
      email: users.email,
      isAdmin: users.isAdmin,
      isSuperAdmin: users.isSuperAdmin,
      isVerified: users.isVerified,
      generation: users.tokenGeneration,
      login: logins.id,
      ended: logins.endedAt,
      panels: panelsOf(),
    })
    .from(users)
    .leftJoin(logins, and(eq(logins.id, sid ?? NO_LOGIN), eq(logins.userId, users.id)))
    .where(and(eq(users.id, identity), isNull(users.deletedAt)))
    .limit(1);

export default fp(
  async (app, options: AuthOptions) => {
    await app.register(fastifyJwt, {
      secret: options.secret,
      // @fastify/jwt reads a numeric expiresIn as seconds (it converts to fast-jwt's milliseconds itself).
      sign: { algorithm: 'HS256', expiresIn: options.expiresIn },
      // A token without an expiry would never end, whoever signed it.
      verify: { algorithms: ['HS256'], requiredClaims: ['exp'] },
    });
    app.decorateRequest('caller', null);

    app.decorate('issueToken', (userId: number, scope: TokenScope = { generation: 0 }, expiresIn?: number) =>
      app.jwt.sign(
        { identity: userId, ...('loginId' in scope ? { sid: scope.loginId } : { gen: scope.generation }) },
        {
          sub: String(userId),
          ...(expiresIn !== undefined ? { expiresIn: Math.min(expiresIn, options.expiresIn) } : {}),
        },
      ),
    );

    // `fresh`: read the account even when the read cache holds it (Cache-Control: no-cache).
    app.decorate('callerOf', async (token: string, fresh = false): Promise<Caller> => {
      let claims: Partial<Claims>;
      try {
        claims = app.jwt.verify<Claims>(token);
      } catch (err) {
        const expired = (err as { code?: string }).code === 'FAST_JWT_EXPIRED';
        throw unauthorized(expired ? 'Token has expired' : 'Invalid token');
      }
      if (!isClaims(claims)) throw unauthorized('Invalid token');
      const { identity, sid } = claims;
      const load = async () => (await callerLookup(app.db, identity, sid))[0];
      const row = await (app.readCache && !fresh
        ? app.readCache.memo(`caller ${identity} ${sid ?? ''}`, CALLER_TABLES, load)
        : load());
      if (!row) throw unauthorized('The account of this token no longer exists');
      if (sid !== undefined ? row.login === null || row.ended !== null : (claims.gen ?? 0) !== row.generation) {
        throw unauthorized(
          sid !== undefined ? 'The login of this token has ended' : 'The password changed since this token was issued',
        );
      }
      return {
        id: row.id,
        email: row.email,
        isAdmin: row.isAdmin,
        isSuperAdmin: row.isSuperAdmin,
        isVerified: row.isVerified,
        loginId: sid ?? null,
        panels: row.panels,
      };
    });

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = bearerOf(request);
      if (token !== undefined) request.caller = await app.callerOf(token, wantsFresh(request));
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

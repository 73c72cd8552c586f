import fastifyJwt from '@fastify/jwt';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { users } from '../db/schema/index.js';
import type { Caller } from '../src/auth/caller.js';
import { unauthorized } from '../src/jsonapi/errors.js';
import { wantsFresh } from './read-cache.js';

export interface AuthOptions {
  secret: string;
  /** Token lifetime in seconds. */
  expiresIn: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyInstance {
    /** Sets `request.caller` from the Authorization header; 401 for a bad, expired or orphaned token. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** The live account a token names; 401 for a bad, expired or orphaned token. */
    callerOf(token: string, fresh?: boolean): Promise<Caller>;
    issueToken(userId: number): string;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { identity: number };
  }
}

/** `Authorization: JWT <token>` (the documented form) or `Bearer <token>`. */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^(JWT|Bearer)\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthorized('Authorization header must be "JWT <token>" or "Bearer <token>"');
  return match[2];
}

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

    app.decorate('issueToken', (userId: number) => app.jwt.sign({ identity: userId }, { sub: String(userId) }));

    // `fresh`: read the account even when the read cache holds it (Cache-Control: no-cache).
    app.decorate('callerOf', async (token: string, fresh = false): Promise<Caller> => {
      let identity: unknown;
      try {
        identity = app.jwt.verify<{ identity: number }>(token).identity;
      } catch (err) {
        const expired = (err as { code?: string }).code === 'FAST_JWT_EXPIRED';
        throw unauthorized(expired ? 'Token has expired' : 'Invalid token');
      }
      // Ids are positive int4 values; a larger number would fail in PostgreSQL rather than match nothing.
      if (!Number.isInteger(identity) || (identity as number) < 1 || (identity as number) > 2147483647)
        throw unauthorized('Invalid token');
      const load = async () => {
        const [caller] = await app.db
          .select({ id: users.id, email: users.email, isAdmin: users.isAdmin, isSuperAdmin: users.isSuperAdmin })
          .from(users)
          .where(and(eq(users.id, identity as number), isNull(users.deletedAt)))
          .limit(1);
        return caller;
      };
      const caller = await (app.readCache && !fresh ? app.readCache.caller(identity as number, load) : load());
      if (!caller) throw unauthorized('The account of this token no longer exists');
      return caller;
    });

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const token = tokenOf(request);
      if (token !== undefined) request.caller = await app.callerOf(token, wantsFresh(request));
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../../db/schema/index.js';
import type { Caller } from '../auth/caller.js';
import { JsonApiError } from '../jsonapi/index.js';

/** The assistant's roles, weakest first; `admin` and `superadmin` are the event service's flags. */
export const ROLES = ['anonymous', 'user', 'reviewer', 'operator', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

export const rank = (role: Role) => ROLES.indexOf(role);

export interface Identity {
  caller: Caller | null;
  role: Role;
}

/** A failure answered as `{"accepted": false, "message"}` with this status. */
export class AssistantError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The token of an assistant request: the `access_token` parameter (query or form), else the Authorization header. */
function tokenOf(request: FastifyRequest, params: Record<string, string | undefined>): string | undefined {
  if (params.access_token) return params.access_token;
  const match = /^(JWT|Bearer)\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[2];
}

/**
 * Who calls and with which role. As the reference (AbstractAPIHandler.getIdentity), a token that is bad,
 * expired or of a deleted account is an anonymous caller: the editor sends its stale cookie token with
 * every request. Endpoints that need a role then refuse it with the role text (401).
 */
export async function identify(
  app: FastifyInstance,
  request: FastifyRequest,
  params: Record<string, string | undefined>,
): Promise<Identity> {
  const token = tokenOf(request, params);
  if (!token) return ANONYMOUS;
  let caller: Caller;
  try {
    caller = await app.callerOf(token);
  } catch (err) {
    if (err instanceof JsonApiError && err.status === 401) {
      request.log.info({ reason: err.detail }, 'assistant token refused; the caller is anonymous');
      return ANONYMOUS;
    }
    throw err;
  }
  return { caller, role: await roleOf(app, caller) };
}

const ANONYMOUS: Identity = Object.freeze({ caller: null, role: 'anonymous' });

export async function roleOf(app: FastifyInstance, caller: Caller): Promise<Role> {
  if (caller.isSuperAdmin) return 'superadmin';
  if (caller.isAdmin) return 'admin';
  const [row] = await app.db.select({ role: users.assistantRole }).from(users).where(eq(users.id, caller.id));
  return (row?.role ?? 'user') as Role;
}

/** Refuses callers below `minimal` with the reference's 401 text (AbstractAPIHandler: the caller's role, then the one required). */
export function requireRole(identity: Identity, minimal: Role): Caller {
  if (rank(identity.role) < rank(minimal) || !identity.caller) {
    throw new AssistantError(
      401,
      `Base user role not sufficient. Your base user role is '${identity.role.toUpperCase()}', minimum user role required is '${minimal}'`,
    );
  }
  return identity.caller;
}

/** The `session.identity` member every assistant answer carries. */
export const sessionOf = (identity: Identity, request: FastifyRequest) => ({
  identity: identity.caller
    ? { type: 'email', name: identity.caller.email, anonymous: false }
    : { type: 'host', name: request.ip, anonymous: true },
});

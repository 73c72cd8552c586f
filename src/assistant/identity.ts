import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users } from '../../db/schema/index.js';
import type { Caller } from '../auth/caller.js';
import { JsonApiError } from '../jsonapi/errors.js';

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

/** Who calls and with which role; a token that is bad, expired or of a deleted account is a 401. */
export async function identify(app: FastifyInstance, request: FastifyRequest, params: Record<string, string | undefined>): Promise<Identity> {
  const token = tokenOf(request, params);
  if (!token) return { caller: null, role: 'anonymous' };
  let caller: Caller;
  try {
    caller = await app.callerOf(token);
  } catch (err) {
    if (err instanceof JsonApiError) throw new AssistantError(401, err.detail);
    throw err;
  }
  return { caller, role: await roleOf(app, caller) };
}

export async function roleOf(app: FastifyInstance, caller: Caller): Promise<Role> {
  if (caller.isSuperAdmin) return 'superadmin';
  if (caller.isAdmin) return 'admin';
  const [row] = await app.db.select({ role: users.assistantRole }).from(users).where(eq(users.id, caller.id));
  return (row?.role ?? 'user') as Role;
}

/** Refuses callers below `minimal` as the reference does (401 naming both roles). */
export function requireRole(identity: Identity, minimal: Role): Caller {
  if (rank(identity.role) < rank(minimal) || !identity.caller) {
    throw new AssistantError(401, `Base user role not sufficient. Your base user role is '${minimal.toUpperCase()}', your user role is '${identity.role}'`);
  }
  return identity.caller;
}

/** The `session.identity` member every assistant answer carries. */
export const sessionOf = (identity: Identity, request: FastifyRequest) => ({
  identity: identity.caller
    ? { type: 'email', name: identity.caller.email, anonymous: false }
    : { type: 'host', name: request.ip, anonymous: true },
});

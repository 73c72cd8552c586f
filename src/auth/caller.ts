import type { FastifyRequest } from 'fastify';
import { type Caller, forbidden, unauthorized } from '../jsonapi/index.js';

/** The authenticated user a request acts for (the engine's interface); `null` when the request carries no token. */
export type { Caller };

/** Administrators and super administrators pass every administrator check. */
export const isStaff = (caller: Caller | null): boolean => !!caller && (caller.isAdmin || caller.isSuperAdmin);

/** The caller of a request that needs a login: 401 without one. */
export function loggedIn({ caller }: { caller: Caller | null }): Caller {
  if (!caller) throw unauthorized();
  return caller;
}

/** The caller of an administrators-only request: 401 without a login, 403 for anyone else. */
export function requireStaff(request: { caller: Caller | null }): void {
  if (!isStaff(loggedIn(request))) throw forbidden('Admin access is required');
}

/** `onRequest` hook of routes for logged-in users: 401 before any of the body is read or parsed. */
export const requireLogin =
  (app: { authenticate(request: FastifyRequest): Promise<void> }) =>
  async (request: FastifyRequest): Promise<void> => {
    await app.authenticate(request);
    loggedIn(request);
  };

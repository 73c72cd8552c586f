import type { FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../jsonapi/index.js';

/** The authenticated user a request acts for; `null` when the request carries no token. */
export interface Caller {
  id: number;
  email: string;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  /** The login (`POST /v1/auth/login`) the token belongs to; null for tokens of no login (the assistant's). */
  loginId: string | null;
}

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

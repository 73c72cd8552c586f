/**
 * Who a request acts for, as the engine sees it: what the authentication in front of it (src/auth)
 * puts on `request.caller`. The engine hands it to the policies and keys its caches with it; it never
 * reads tokens itself.
 */
export interface Caller {
  id: number;
  email: string;
  isAdmin: boolean;
  isSuperAdmin: boolean;
  /**
   * Whether the account proved its address (a verification link, an accepted role invite). What a record grants
   * an address (a speaker named by it, an invitation to it) is the caller's only once it is: anyone may register
   * an address they do not hold.
   */
  isVerified: boolean;
  /** The login (`POST /v1/auth/login`) the token belongs to; null for tokens of no login (the assistant's). */
  loginId: string | null;
  /**
   * The admin panels (`sales`, `admin`, ...) the caller's custom system roles open (src/auth/panels.ts); absent
   * or empty for most users. Administrators see every panel whatever this holds.
   */
  panels?: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated user; `null` when the request carries no token. */
    caller: Caller | null;
  }
}

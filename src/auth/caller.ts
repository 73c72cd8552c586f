/** The authenticated user a request acts for; `null` when the request carries no token. */
export interface Caller {
  id: number;
  email: string;
  isAdmin: boolean;
  isSuperAdmin: boolean;
}

/** Administrators and super administrators pass every administrator check. */
export const isStaff = (caller: Caller | null): boolean => !!caller && (caller.isAdmin || caller.isSuperAdmin);

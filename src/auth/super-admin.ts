import type { Db } from '../../plugins/db.js';
import { users } from '../../db/schema/index.js';
import { hashPassword } from './password.js';
import { liveAccountWith } from './accounts.js';

/**
 * Creates the super admin named by SUPER_ADMIN_EMAIL, or promotes that account if it exists.
 * Idempotent: an existing account keeps its password. The operator names the address, so a new account is verified.
 */
export async function ensureSuperAdmin(db: Db, email: string, password: string): Promise<'created' | 'promoted'> {
  const match = liveAccountWith(email);
  const promoted = await db
    .update(users)
    .set({ isAdmin: true, isSuperAdmin: true })
    .where(match)
    .returning({ id: users.id });
  if (promoted.length > 0) return 'promoted';
  await db
    .insert(users)
    .values({ email, passwordHash: await hashPassword(password), isAdmin: true, isSuperAdmin: true, isVerified: true })
    .onConflictDoNothing();
  return 'created';
}

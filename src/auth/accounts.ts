import { and, isNull, sql, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema/index.js';

/** The live account with this address, in any letter case (as the unique index `lower(email)` tells accounts apart). */
export const liveAccountWith = (email: string): SQL =>
  and(sql`lower(${users.email}) = lower(${email})`, isNull(users.deletedAt))!;

import { activities } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import type { Caller } from './caller.js';

/** Who did it, as the reference's record_activity writes it: `e-mail (id)`, or `Anonymous`. */
export const actorOf = (caller: Pick<Caller, 'email' | 'id'> | null) =>
  caller ? `${caller.email} (${caller.id})` : 'Anonymous';

/** Adds lines to the activity log in `db`'s transaction (one statement). */
export async function recordActivity(db: Db, caller: Pick<Caller, 'email' | 'id'> | null, lines: string[]) {
  if (lines.length === 0) return;
  const actor = actorOf(caller);
  await db.insert(activities).values(lines.map((action) => ({ actor, action })));
}

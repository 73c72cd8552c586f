import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { speakers, speakersSessions } from '../../../db/schema/index.js';
import { isStaff, type Caller } from '../../auth/caller.js';
import type { Ctx } from '../../jsonapi/index.js';
import { holdsRole } from '../events/access.js';

/** Addresses compare without case and surrounding blanks. */
export const sameAddress = (column: PgColumn | SQL, address: string): SQL =>
  sql`lower(${column}) = ${address.trim().toLowerCase()}`;

/**
 * The caller's address matched against `column`, where the address grants something: only once the account has
 * verified it (undefined, no match, before: whoever registers an address an organiser typed proves nothing).
 */
export const provenAddress = (column: PgColumn | SQL, caller: Caller): SQL | undefined =>
  caller.isVerified ? sameAddress(column, caller.email) : undefined;

/** Ids of the sessions the caller speaks at: a live speaker of theirs, by account or by verified address. */
export const spokenSessions = (caller: Caller) =>
  sql`(select ${speakersSessions.sessionId} from ${speakersSessions}
       inner join ${speakers} on ${speakers.id} = ${speakersSessions.speakerId}
       where ${and(isNull(speakers.deletedAt), or(eq(speakers.userId, caller.id), provenAddress(speakers.email, caller)))})`;

/**
 * The reference's `is_speaker_for_session`: administrators, the event's organizers and coorganizers, and
 * the session's speakers may invite co-speakers to it and see and withdraw its invitations.
 */
export async function speaksForSession(ctx: Ctx, caller: Caller, sessionId: number, eventId: number): Promise<boolean> {
  if (isStaff(caller) || (await holdsRole(ctx, eventId, 'coorganizer'))) return true;
  const [row] = await ctx.db.execute<{ one: number }>(
    sql`select 1 as one where ${sessionId} in ${spokenSessions(caller)}`,
  );
  return !!row;
}

/**
 * Call-for-speakers submissions: what a signed-in user who holds no role in an event may write of its
 * speakers and sessions (their own), and which members stay the organizers' (defaults on create,
 * unchanged on update). ember-data sends every member on every save, so "unchanged" is checked against
 * the stored value, not by the member's presence.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { events, sessions, speakers, speakersSessions } from '../../db/schema/index.js';
import { loggedIn } from '../auth/caller.js';
import { forbidden, integerId, type Ctx, type Row, type WriteInput } from '../jsonapi/index.js';

/**
 * A submission needs an event that takes them: `is-sessions-speakers-enabled` (the reference refuses
 * speakers and sessions of an event without it, app/api/speakers.py and sessions.py before_post), so
 * that no signed-in user fills an event's lists uninvited.
 */
export async function requireOpenSubmissions(ctx: Ctx, eventId: number) {
  const [event] = await ctx.db
    .select({ open: events.isSessionsSpeakersEnabled })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event?.open)
    throw forbidden(
      'This event takes no speaker or session submissions (is-sessions-speakers-enabled is off)',
      '/data/relationships/event',
    );
}

/** A member only organizers set: its column, and its default (what a submission may send on create). */
export interface OrganizerMember {
  column: string;
  initial: unknown;
  /** The value a sent null stands for, when the attribute's write maps null to it. */
  nullIs?: unknown;
}

/** Two member values are the same: date-times as instants, ids as numbers. */
function same(sent: unknown, stored: unknown): boolean {
  if (stored instanceof Date) return typeof sent === 'string' && new Date(sent).getTime() === stored.getTime();
  if (sent === null || stored === null || stored === undefined) return (sent ?? null) === (stored ?? null);
  if (typeof stored === 'number' && typeof sent === 'string') return integerId(sent) === stored;
  return sent === stored;
}

/**
 * Refuses (403) a submitter's write that sets an organizer-only member: on create (`row` absent) to
 * anything but its default, on update to anything but its stored value.
 */
export function keepOrganizerMembers(
  input: WriteInput,
  members: { attributes?: Record<string, OrganizerMember>; relationships?: Record<string, OrganizerMember> },
  row?: Row,
) {
  for (const [kind, specs] of [
    ['attributes', members.attributes],
    ['relationships', members.relationships],
  ] as const) {
    for (const [name, { column, initial, nullIs }] of Object.entries(specs ?? {})) {
      const raw = (input[kind] as Record<string, unknown>)[name];
      if (raw === undefined) continue;
      const sent = raw === null && nullIs !== undefined ? nullIs : raw;
      if (!same(sent, row ? row[column] : initial))
        throw forbidden(`Only organizers of the event may set ${name}`, `/data/${kind}/${name}`);
    }
  }
}

const ids = (named: string | null | string[] | undefined): number[] =>
  [named ?? []].flat().map((id) => integerId(id) ?? 0);

/**
 * A submitter links only records of their own, and keeps the links others made: every record named
 * is already linked or is the caller's (`own`), and every linked record that is not the caller's
 * stays named.
 */
function ownLinks(named: number[], linked: number[], own: Set<number>, pointer: string, what: string) {
  const kept = new Set(named);
  if (named.some((id) => !linked.includes(id) && !own.has(id)) || linked.some((id) => !own.has(id) && !kept.has(id)))
    throw forbidden(`You may add or remove only ${what} of your own`, pointer);
}

/** The ids among `candidates` of live speakers whose user is the caller. */
async function ownSpeakers(ctx: Ctx, candidates: number[]): Promise<Set<number>> {
  if (candidates.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: speakers.id })
    .from(speakers)
    .where(and(inArray(speakers.id, candidates), eq(speakers.userId, loggedIn(ctx).id), isNull(speakers.deletedAt)));
  return new Set(rows.map((r) => r.id));
}

/** The ids among `candidates` of live sessions the caller created. */
async function ownSessions(ctx: Ctx, candidates: number[]): Promise<Set<number>> {
  if (candidates.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, candidates), eq(sessions.creatorId, loggedIn(ctx).id), isNull(sessions.deletedAt)));
  return new Set(rows.map((r) => r.id));
}

/** The ids linked through speakers_sessions to one speaker (`side` speakerId) or one session. */
async function linkedTo(ctx: Ctx, side: 'speakerId' | 'sessionId', id: number): Promise<number[]> {
  const other = side === 'speakerId' ? speakersSessions.sessionId : speakersSessions.speakerId;
  const rows = await ctx.db.select({ id: other }).from(speakersSessions).where(sql`${speakersSessions[side]} = ${id}`);
  return rows.map((r) => r.id);
}

/** A submitter's session names only their own speakers (and keeps its other speakers). */
export async function checkSubmittedSpeakers(ctx: Ctx, input: WriteInput, row?: Row) {
  const named = input.relationships.speakers;
  if (named === undefined) return;
  const wanted = ids(named);
  const linked = row ? await linkedTo(ctx, 'sessionId', row.id as number) : [];
  ownLinks(
    wanted,
    linked,
    await ownSpeakers(ctx, [...new Set([...wanted, ...linked])]),
    '/data/relationships/speakers',
    'speakers',
  );
}

/** A submitter's speaker names only sessions they created (and keeps its other sessions). */
export async function checkSubmittedSessions(ctx: Ctx, input: WriteInput, row?: Row) {
  const named = input.relationships.sessions;
  if (named === undefined) return;
  const wanted = ids(named);
  const linked = row ? await linkedTo(ctx, 'speakerId', row.id as number) : [];
  ownLinks(
    wanted,
    linked,
    await ownSessions(ctx, [...new Set([...wanted, ...linked])]),
    '/data/relationships/sessions',
    'sessions',
  );
}

/** A user relationship (speaker `user`, session `creator`) a submitter may set only to themself. */
export function namesCaller(ctx: Ctx, input: WriteInput, name: string) {
  const named = input.relationships[name];
  if (named === undefined) return;
  if (named === null || integerId(named) !== loggedIn(ctx).id)
    throw forbidden(`${name} must be yourself`, `/data/relationships/${name}`);
}

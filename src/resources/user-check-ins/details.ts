import { and, eq, isNull, sql } from 'drizzle-orm';
import { sessions, sessionTypes, speakers, speakersSessions, tracks } from '../../../db/schema/index.js';
import { unprocessable, type Ctx } from '../../jsonapi/index.js';
import type { DoorStation } from './rules.js';

/**
 * What the reference checks and records of a check-in's session (app/api/user_check_in.py, validate_microlocation):
 * a session but at a registration station, of the station's event, in the room of a door; the session's track, type
 * and speakers as they are now.
 */
export async function checkInDetails(
  ctx: Ctx,
  station: DoorStation,
  sessionId: number | null,
  pointer: string,
): Promise<Record<string, unknown>> {
  if (sessionId === null) {
    if (station.type !== 'registration')
      throw unprocessable(`A check at a ${station.type} station names its session`, pointer);
    return {};
  }
  // Joined (not a single-table select), so that Drizzle qualifies the columns of the speakers' subquery.
  const [session] = await ctx.db
    .select({
      room: sessions.microlocationId,
      track: tracks.name,
      type: sessionTypes.name,
      speakers: sql<string>`(select coalesce(string_agg(${speakers.name}, ', ' order by ${speakers.id}), '')
        from ${speakersSessions} join ${speakers} on ${speakers.id} = ${speakersSessions.speakerId}
        where ${speakersSessions.sessionId} = ${sessions.id} and ${isNull(speakers.deletedAt)})`,
    })
    .from(sessions)
    .leftJoin(tracks, eq(tracks.id, sessions.trackId))
    .leftJoin(sessionTypes, eq(sessionTypes.id, sessions.sessionTypeId))
    .where(and(eq(sessions.id, sessionId), eq(sessions.eventId, station.eventId), isNull(sessions.deletedAt)));
  if (!session) throw unprocessable(`The event has no session ${sessionId}`, pointer);
  const door = station.type === 'check in' || station.type === 'check out';
  if (door && session.room !== station.room)
    throw unprocessable(
      'Location of your session not matches with station location, please check with the organizer.',
      pointer,
    );
  return { trackName: session.track, sessionName: session.type, speakerName: session.speakers };
}

import { and, eq, isNull, sql } from 'drizzle-orm';
import { sessions, sessionTypes, speakers, speakersSessions, stations, tracks } from '../../../db/schema/index.js';
import { unprocessable, type Ctx } from '../../jsonapi/index.js';

/**
 * What the reference checks and records of a check-in (app/api/user_check_in.py): a session but at a registration
 * station, in the room of a door; the session's track, type and speakers as they are now; the time at a door.
 */
export async function checkInDetails(ctx: Ctx, values: Record<string, unknown>) {
  const [station] = await ctx.db
    .select({ type: stations.stationType, room: stations.microlocationId })
    .from(stations)
    .where(eq(stations.id, values.stationId as number));
  if (!station) return;
  const sessionId = values.sessionId as number | null | undefined;
  if (sessionId === undefined || sessionId === null) {
    if (station.type !== 'registration')
      throw unprocessable(`A check at a ${station.type} station names its session`, '/data/relationships/session');
    return;
  }
  const [session] = await ctx.db
    .select({
      room: sessions.microlocationId,
      track: sql<string | null>`(select ${tracks.name} from ${tracks} where ${tracks.id} = ${sessions.trackId})`,
      type: sql<
        string | null
      >`(select ${sessionTypes.name} from ${sessionTypes} where ${sessionTypes.id} = ${sessions.sessionTypeId})`,
      speakers: sql<string>`(select coalesce(string_agg(${speakers.name}, ', ' order by ${speakers.id}), '')
        from ${speakersSessions} join ${speakers} on ${speakers.id} = ${speakersSessions.speakerId}
        where ${speakersSessions.sessionId} = ${sessions.id} and ${isNull(speakers.deletedAt)})`,
    })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId)));
  if (!session) return;
  const door = station.type === 'check in' || station.type === 'check out';
  if (door && session.room !== station.room)
    throw unprocessable("The session is not held in the station's room", '/data/relationships/session');
  Object.assign(values, {
    trackName: session.track,
    sessionName: session.type,
    speakerName: session.speakers,
    ...(door ? { checkInOutAt: new Date() } : {}),
  });
}

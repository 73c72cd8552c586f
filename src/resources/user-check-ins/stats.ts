import { Type, type Static } from '@sinclair/typebox';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { events } from '../../../db/schema/index.js';
import { requireLogin } from '../../auth/caller.js';
import { API_PREFIX, compatibilityParameters, errorResponses, INT4_MAX, type Ctx } from '../../jsonapi/index.js';
import { doorEventOf } from '../events/access.js';

const count = (description: string) => Type.Integer({ minimum: 0, description });
const names = (description: string) => Type.Array(Type.String(), { description });

const SessionStats = Type.Object(
  {
    session_id: Type.String({ description: 'the id asked for' }),
    session_name: Type.String({ description: "the session's type ('' for none), as the reference names it" }),
    track_name: Type.String({ description: "the session's track ('' for none)" }),
    speakers: names("the session's speakers"),
    check_in: count('ticket holders checked in to the session today'),
    check_out: count('ticket holders checked out of the session today'),
    manual_count: Type.Object(
      {
        current_pax: Type.Optional(Type.Integer()),
        created_at: Type.Optional(Type.String()),
        modified_at: Type.Optional(Type.String()),
      },
      {
        additionalProperties: false,
        description: "the session's latest head count at a station (station-store-paxs), or {} for none",
      },
    ),
  },
  { $id: 'RegistrationSessionStats', additionalProperties: false },
);

const TrackStats = Type.Object(
  {
    track_id: Type.String({ description: 'the id asked for' }),
    track_name: Type.String(),
    current_speakers: names('the speakers of the session of the track on now (none: empty)'),
    current_session: Type.String({ description: "the type of the session of the track on now ('' for none)" }),
    check_in: count("ticket holders checked in to the track's sessions today"),
    check_out: count("ticket holders checked out of the track's sessions today"),
  },
  { $id: 'RegistrationTrackStats', additionalProperties: false },
);

const RegistrationStats = Type.Object(
  {
    total_attendee: count(
      "the event's ticket holders whose tickets pass the door (live, of a completed or placed order)",
    ),
    total_registered: count('ticket holders registered today'),
    total_not_checked_in: count('total_attendee less total_registered'),
    total_track_checked_in: count('ticket holders checked in today, once per track'),
    total_track_checked_out: count('ticket holders checked out today, once per track'),
    total_session_checked_in: count('ticket holders checked in today, once per session'),
    total_session_checked_out: count('ticket holders checked out today, once per session'),
    session_stats: Type.Array(Type.Ref(SessionStats), { description: 'one per session of `session_ids`' }),
    track_stats: Type.Array(Type.Ref(TrackStats), { description: 'one per track of `track_ids`' }),
  },
  { $id: 'RegistrationStats', additionalProperties: false },
);

const IDS = '^ *([0-9]{1,10} *(, *[0-9]{1,10} *)*)?$';
const Query = Type.Object(
  {
    session_ids: Type.Optional(
      Type.String({ maxLength: 2000, pattern: IDS, description: 'comma-separated ids of sessions of the event' }),
    ),
    track_ids: Type.Optional(
      Type.String({ maxLength: 2000, pattern: IDS, description: 'comma-separated ids of tracks of the event' }),
    ),
    ...compatibilityParameters,
  },
  { additionalProperties: false },
);

/** The ids of a comma-separated list, as an int[] (ids beyond int4 name nothing). */
function idArray(list: string | undefined): SQL {
  const ids = (list ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(Number)
    .filter((n) => n >= 1 && n <= INT4_MAX);
  return ids.length === 0
    ? sql`array[]::int[]`
    : sql`array[${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}]::int[]`;
}

/**
 * The day's figures in one statement: the check-ins since midnight in the event's time zone (as the reference counts
 * those since midnight UTC), each holder once per session or track; the sessions and tracks asked for in the order
 * asked, those that are not the event's left out.
 */
async function stats(ctx: Ctx, eventId: number, query: Static<typeof Query>) {
  const [{ timezone }] = (await ctx.db
    .select({ timezone: events.timezone })
    .from(events)
    .where(eq(events.id, eventId))) as [{ timezone: string }];
  const speakersOf = (session: string) =>
    sql.raw(`coalesce((select json_agg(sp.name order by sp.id)
      from speakers_sessions ss join speakers sp on sp.id = ss.speaker_id
      where ss.session_id = ${session} and sp.deleted_at is null), '[]')`);
  const rows = await ctx.db.execute(sql`
    with passes as (
      select uc.ticket_holder_id as holder, uc.session_id, se.track_id, st.station_type as type
      from user_check_ins uc
      join stations st on st.id = uc.station_id
      left join sessions se on se.id = uc.session_id
      where uc.event_id = ${eventId} and uc.deleted_at is null
        and uc.created_at >= (date_trunc('day', now() at time zone ${timezone}) at time zone ${timezone})
    ), door as (
      select distinct holder, session_id, track_id, type from passes where type in ('check in', 'check out')
    ), figures as (
      select
        (select count(*)::int from attendees a left join orders o on o.id = a.order_id
          where a.event_id = ${eventId} and a.deleted_at is null
            and (a.order_id is null or (o.deleted_at is null and o.status in ('completed', 'placed')))) as total_attendee,
        (select count(distinct holder)::int from passes where type = 'registration') as total_registered,
        (select count(*)::int from (select distinct holder, track_id from door
          where type = 'check in' and session_id is not null) x) as total_track_checked_in,
        (select count(*)::int from (select distinct holder, track_id from door
          where type = 'check out' and session_id is not null) x) as total_track_checked_out,
        (select count(*)::int from (select distinct holder, session_id from door where type = 'check in') x)
          as total_session_checked_in,
        (select count(*)::int from (select distinct holder, session_id from door where type = 'check out') x)
          as total_session_checked_out
    )
    select json_build_object(
      'total_attendee', f.total_attendee,
      'total_registered', f.total_registered,
      'total_not_checked_in', f.total_attendee - f.total_registered,
      'total_track_checked_in', f.total_track_checked_in,
      'total_track_checked_out', f.total_track_checked_out,
      'total_session_checked_in', f.total_session_checked_in,
      'total_session_checked_out', f.total_session_checked_out,
      'session_stats', coalesce((
        select json_agg(json_build_object(
          'session_id', asked.id::text,
          'session_name', coalesce(sty.name, ''),
          'track_name', coalesce(tr.name, ''),
          'speakers', ${speakersOf('se.id')},
          'check_in', (select count(distinct holder) from door where type = 'check in' and session_id = se.id),
          'check_out', (select count(distinct holder) from door where type = 'check out' and session_id = se.id),
          'manual_count', coalesce((
            select json_build_object(
              'current_pax', p.current_pax,
              'created_at', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+0000"'),
              'modified_at', to_char(p.modified_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+0000"'))
            from station_store_paxs p where p.session_id = se.id and p.deleted_at is null
            order by p.created_at desc, p.id desc limit 1), '{}'::json)
        ) order by asked.n)
        from unnest(${idArray(query.session_ids)}) with ordinality as asked(id, n)
        join sessions se on se.id = asked.id and se.event_id = ${eventId} and se.deleted_at is null
        left join session_types sty on sty.id = se.session_type_id
        left join tracks tr on tr.id = se.track_id), '[]'),
      'track_stats', coalesce((
        select json_agg(json_build_object(
          'track_id', asked.id::text,
          'track_name', tr.name,
          'current_speakers', coalesce(${speakersOf('now_on.id')}, '[]'),
          'current_session', coalesce(now_on.type_name, ''),
          'check_in', (select count(distinct holder) from door where type = 'check in' and track_id = tr.id),
          'check_out', (select count(distinct holder) from door where type = 'check out' and track_id = tr.id)
        ) order by asked.n)
        from unnest(${idArray(query.track_ids)}) with ordinality as asked(id, n)
        join tracks tr on tr.id = asked.id and tr.event_id = ${eventId} and tr.deleted_at is null
        left join lateral (
          select se.id, sty.name as type_name from sessions se
          left join session_types sty on sty.id = se.session_type_id
          where se.track_id = tr.id and se.deleted_at is null and se.starts_at <= now() and se.ends_at >= now()
          order by se.starts_at, se.id limit 1) now_on on true), '[]')
    ) as stats
    from figures f`);
  return (rows as unknown as { stats: Static<typeof RegistrationStats> }[])[0]!.stats;
}

/**
 * `GET /v1/user-check-in/stats/event/{event_id}`: the door's figures of the day (the reference's
 * app/api/custom/check_in_stats.py, get_registration_stats), for its check-in app.
 */
export default async function registrationStatsRoute(app: FastifyInstance) {
  for (const schema of [SessionStats, TrackStats, RegistrationStats]) app.addSchema(schema);
  app.get(
    `${API_PREFIX}/user-check-in/stats/event/:event_id`,
    {
      onRequest: requireLogin(app),
      schema: {
        tags: ['User check in'],
        operationId: 'getRegistrationStats',
        summary: "The door's figures of the day",
        description:
          "How many of the event's ticket holders registered today and how many are not yet, and how many checked in " +
          'and out of its sessions and tracks today (each holder once per session or track), with figures for the ' +
          'sessions of `session_ids` and the tracks of `track_ids` (in the order asked; ids that are not the ' +
          "event's are left out). Today is the event's time zone's. For the event's owner, organizers, coorganizers " +
          'and registrars and administrators; anyone else gets 404 (401 without a login).',
        params: Type.Object({ event_id: Type.String({ maxLength: 64, description: "the event's id or identifier" }) }),
        querystring: Query,
        response: {
          200: Type.Ref(RegistrationStats, { description: "The day's figures" }),
          ...errorResponses([400, 401, 404], { 404: 'No event whose door the caller runs has this id' }),
        },
      },
    },
    async (request) => {
      const { ctx, eventId } = await doorEventOf(app.db, request);
      return stats(ctx, eventId, request.query as Static<typeof Query>);
    },
  );
}

import postgres from 'postgres';
import { hashPassword } from '../../src/auth/password.js';

export interface Seeded {
  adminEmail: string;
  adminPassword: string;
  /** Seeded users besides the admin (some of them soft-deleted). */
  users: number;
  /** The published event with many sessions and speakers. */
  event: { id: number; sessions: number; speakers: number };
  /** A published event of the other 99, where the session create benchmark writes (the large event stays as seeded). */
  otherEventId: number;
  /** A session of that other event: the mixed run PATCHes it (the large event's sessions list is what it reads). */
  otherSessionId: number;
}

const ADMIN_EMAIL = 'admin@bench.example.com';
const TRACKS = 50;
const ROOMS = 100;
/** With the benchmark's event, 100 events. */
const OTHER_EVENTS = 99;
const PASSWORD = 'bench password 1234';

/**
 * The benchmark data set, inserted in bulk by SQL. Every account shares one argon2 hash (hashing
 * 10,000 passwords would take minutes and measure nothing); created_at is spread over years in an
 * order unrelated to the id, every 50th user is soft-deleted and every 100th is an admin. Ends with
 * VACUUM ANALYZE, as autovacuum would, so the plans are those of a settled database.
 */
export async function seed(url: string, { users = 10_000, sessions = 5_000, speakers = 5_000 } = {}): Promise<Seeded> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const hash = await hashPassword(PASSWORD);
    await sql.unsafe(
      `insert into users (
         email, password_hash, name, first_name, last_name, details, contact, avatar_url,
         facebook_url, twitter_url, instagram_url, original_image_url, thumbnail_image_url,
         small_image_url, icon_image_url, is_admin, created_at, deleted_at)
       select
         'user' || g || '@bench.example.com',
         $1,
         'Bench User ' || g,
         'First' || g,
         'Last' || g,
         case when g % 3 = 0 then repeat('Speaker, organiser and volunteer. ', 1 + g % 8) end,
         case when g % 4 = 0 then '+1 555 ' || lpad((g % 10000)::text, 4, '0') end,
         'https://cdn.example.com/avatars/' || g || '.png',
         case when g % 2 = 0 then 'https://facebook.com/user' || g end,
         case when g % 3 = 0 then 'https://twitter.com/user' || g end,
         case when g % 5 = 0 then 'https://instagram.com/user' || g end,
         'https://cdn.example.com/avatars/' || g || '/original.png',
         'https://cdn.example.com/avatars/' || g || '/thumbnail.png',
         'https://cdn.example.com/avatars/' || g || '/small.png',
         'https://cdn.example.com/avatars/' || g || '/icon.png',
         g % 100 = 0,
         timestamptz '2021-01-01 00:00:00+00'
           + ((g::bigint * 7919) % $2) * interval '3 hours' + (g % 3600) * interval '1 second',
         case when g % 50 = 0 then timestamptz '2024-06-01 00:00:00+00' + g * interval '1 minute' end
       from generate_series(1, $2::int) as g`,
      [hash, users],
    );
    const [admin] = await sql<{ id: number }[]>`insert into users (email, password_hash, name, is_admin, is_super_admin)
              values (${ADMIN_EMAIL}, ${hash}, 'Bench Super Admin', true, true) returning id`;
    const event = await seedEvent(sql, admin!.id, sessions, speakers);
    const [other] = await sql<{ id: number }[]>`select id from events where identifier = 'other1'`;
    const [otherSession] = await sql<
      { id: number }[]
    >`select min(id) as id from sessions where event_id = ${other!.id}`;
    // The steady state autovacuum reaches: statistics, hint bits and a visibility map (index-only scans).
    await sql.unsafe('vacuum analyze');
    return {
      adminEmail: ADMIN_EMAIL,
      adminPassword: PASSWORD,
      users,
      event: { id: event, sessions, speakers },
      otherEventId: other!.id,
      otherSessionId: otherSession!.id,
    };
  } finally {
    await sql.end();
  }
}

/**
 * A published event owned by `owner`, filed under one of 40 topics, with 50 tracks, 100 rooms, 3
 * session types, 100 sponsors, 30 custom form fields, 3 social links and a copyright, `sessions`
 * sessions (each in a track, room and type, every 40th soft-deleted) and `speakers` speakers, each
 * session linked to two speakers; 20 footer pages for the site.
 */
async function seedEvent(sql: postgres.Sql, owner: number, sessions: number, speakers: number): Promise<number> {
  await sql`insert into event_topics (name, slug) select 'Topic ' || g, 'topic-' || g from generate_series(1, 40) as g`;
  const [event] = await sql<{ id: number }[]>`
    insert into events (identifier, name, starts_at, ends_at, timezone, state, owner_id, description, event_topic_id)
    values ('benchevt', 'Bench Summit', '2030-05-01T09:00:00Z', '2030-05-04T18:00:00Z', 'Europe/Berlin',
            'published', ${owner}, 'The event of the benchmark', (select min(id) from event_topics))
    returning id`;
  const id = event!.id;
  await sql`insert into microlocations (event_id, name, floor) select ${id}, 'Room ' || g, g % 4 from generate_series(1, ${ROOMS}::int) as g`;
  await sql`insert into sponsors (event_id, name, description, url, level, logo_url, type)
            select ${id}, 'Sponsor ' || g, 'Sponsor number ' || g, 'https://sponsor' || g || '.example.com', 1 + g % 4,
                   'https://cdn.example.com/sponsors/' || g || '.png', (array['Gold','Silver','Bronze'])[1 + g % 3]
            from generate_series(1, 100) as g`;
  await sql`insert into custom_forms (event_id, form, field_identifier, type, is_required, is_included)
            select ${id}, (array['speaker','session','attendee'])[1 + g % 3], 'field' || g, 'text', g % 2 = 0, true
            from generate_series(1, 30) as g`;
  await sql`insert into social_links (event_id, name, link)
            select ${id}, name, link from (values ('Website', 'https://bench.example.com'), ('Mastodon', 'https://mastodon.example/@bench'),
                                                 ('GitHub', 'https://github.com/bench')) as v(name, link)`;
  await sql`insert into event_copyrights (event_id, holder, licence, year) values (${id}, 'Bench Summit', 'CC BY 4.0', 2030)`;
  await sql`insert into pages (name, title, url, description, place, language, index)
            select 'page' || g, 'Page ' || g, '/page' || g, 'What page ' || g || ' says', 'footer', 'en', g from generate_series(1, 20) as g`;
  await sql`insert into session_types (event_id, name, length)
            select ${id}, name, length from (values ('Talk', '00:30'), ('Workshop', '02:00'), ('Lightning', '00:05')) as v(name, length)`;
  await sql`insert into tracks (event_id, name, color, font_color, position)
            select ${id}, 'Track ' || g, '#' || lpad(to_hex(g * 1234567 % 16777215), 6, '0'), '#ffffff', g
            from generate_series(1, ${TRACKS}::int) as g`;
  await sql`insert into speakers (event_id, name, email, mobile, organisation, short_biography, website, is_featured)
            select ${id}, 'Speaker ' || g, 'speaker' || g || '@bench.example.com', '+1 555 ' || lpad(g::text, 6, '0'),
                   'Org ' || (g % 300), repeat('Builds things and talks about them. ', 1 + g % 5),
                   'https://speaker' || g || '.example.com', g % 25 = 0
            from generate_series(1, ${speakers}::int) as g`;
  await sql`insert into sessions (event_id, title, subtitle, short_abstract, starts_at, ends_at, state, track_id,
                                  microlocation_id, session_type_id, creator_id, deleted_at)
            select ${id}, 'Session ' || g, 'Part ' || (g % 7), repeat('What the session is about. ', 1 + g % 6),
                   timestamptz '2030-05-01 09:00+00' + (g % 300) * interval '15 minutes',
                   timestamptz '2030-05-01 09:30+00' + (g % 300) * interval '15 minutes',
                   (array['accepted','confirmed','submitted','pending'])[1 + g % 4],
                   (select min(id) from tracks where event_id = ${id}) + g % ${TRACKS}::int,
                   (select min(id) from microlocations where event_id = ${id}) + g % ${ROOMS}::int,
                   (select min(id) from session_types where event_id = ${id}) + g % 3,
                   ${owner},
                   case when g % 40 = 0 then now() end
            from generate_series(1, ${sessions}::int) as g`;
  await sql`insert into speakers_sessions (speaker_id, session_id)
            select sp.id, se.id from
              (select id, row_number() over (order by id) as n from sessions where event_id = ${id}) se
              join (select id, row_number() over (order by id) as n from speakers where event_id = ${id}) sp
                on sp.n = se.n or sp.n = (se.n % ${speakers}) + 1`;
  await otherEvents(sql, owner);
  return id;
}

/**
 * 99 more events (every third a draft, owned by seeded users, every second in one of 300 groups) with 5
 * tracks, 3 rooms, 2 session types, 10 sessions, 10 speakers, 3 video streams and 30 custom form fields each: the event, track and session tables hold other events' rows, as they would in
 * production, so plans that only work on a one-event database would show.
 */
async function otherEvents(sql: postgres.Sql, owner: number) {
  await sql`insert into events (identifier, name, starts_at, ends_at, timezone, state, owner_id)
            select 'other' || g, 'Other event ' || g, timestamptz '2029-01-01 09:00+00' + g * interval '1 day',
                   timestamptz '2029-01-02 18:00+00' + g * interval '1 day', 'UTC',
                   case when g % 3 = 0 then 'draft' else 'published' end,
                   coalesce((select id from users where id = 1 + g % 9000), ${owner})
            from generate_series(1, ${OTHER_EVENTS}::int) as g`;
  await sql`insert into tracks (event_id, name, color, font_color)
            select e.id, 'Track ' || g, '#336699', '#ffffff'
            from events e cross join generate_series(1, 5) as g where e.identifier like 'other%'`;
  await sql`insert into microlocations (event_id, name)
            select e.id, 'Hall ' || g from events e cross join generate_series(1, 3) as g where e.identifier like 'other%'`;
  await sql`insert into session_types (event_id, name, length)
            select e.id, 'Type ' || g, '00:45' from events e cross join generate_series(1, 2) as g where e.identifier like 'other%'`;
  await sql`insert into sessions (event_id, title, state, track_id)
            select e.id, 'Talk ' || g, 'accepted', (select min(id) from tracks t where t.event_id = e.id)
            from events e cross join generate_series(1, 10) as g where e.identifier like 'other%'`;
  await sql`insert into speakers (event_id, name, email)
            select e.id, 'Person ' || g, 'p' || g || '-' || e.id || '@bench.example.com'
            from events e cross join generate_series(1, 10) as g where e.identifier like 'other%'`;
  // Groups of events and video streams exist in production in the hundreds: with the tables empty the
  // planner reads them whole, and the EXPLAIN check would say nothing about their lookups.
  await sql`insert into groups (name, user_id)
            select 'Group ' || g, coalesce((select id from users where id = 1 + g % 9000), ${owner}) from generate_series(1, 300) as g`;
  await sql`update events set group_id = (select min(id) from groups) + id % 300 where identifier like 'other%' and id % 2 = 0`;
  await sql`insert into video_streams (owner_event_id, name, url)
            select e.id, 'Stream ' || g, 'https://stream.example.com/' || e.id || '/' || g
            from events e cross join generate_series(1, 3) as g where e.identifier like 'other%'`;
  // Every event has its forms, as the service creates them with each event.
  await sql`insert into custom_forms (event_id, form, field_identifier, type, is_required, is_included)
            select e.id, (array['speaker','session','attendee'])[1 + g % 3], 'field' || g, 'text', g % 2 = 0, true
            from events e cross join generate_series(1, 30) as g where e.identifier like 'other%'`;
}

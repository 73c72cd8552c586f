import postgres from 'postgres';
import { hashPassword } from '../../src/auth/password.js';

export interface Seeded {
  adminEmail: string;
  adminPassword: string;
  /** Seeded users besides the admin (some of them soft-deleted). */
  users: number;
}

const ADMIN_EMAIL = 'admin@bench.example.com';
const PASSWORD = 'bench password 1234';

/**
 * The benchmark data set, inserted in bulk by SQL. Every account shares one argon2 hash (hashing
 * 10,000 passwords would take minutes and measure nothing); created_at is spread over years in an
 * order unrelated to the id, every 50th user is soft-deleted and every 100th is an admin. Ends with
 * VACUUM ANALYZE, as autovacuum would, so the plans are those of a settled database.
 */
export async function seed(url: string, { users = 10_000 } = {}): Promise<Seeded> {
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
    await sql`insert into users (email, password_hash, name, is_admin, is_super_admin)
              values (${ADMIN_EMAIL}, ${hash}, 'Bench Super Admin', true, true)`;
    // The steady state autovacuum reaches: statistics, hint bits and a visibility map (index-only scans).
    await sql.unsafe('vacuum analyze');
    return { adminEmail: ADMIN_EMAIL, adminPassword: PASSWORD, users };
  } finally {
    await sql.end();
  }
}

import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any number fixed for the service: the advisory lock the migrations hold. */
const MIGRATION_LOCK = 7_236_001;

/**
 * Applies the drizzle-kit generated SQL migrations; safe to run on every start, also by several
 * processes starting at once (one migrates while the others wait on a session advisory lock, then
 * find nothing left to do).
 */
export async function runMigrations(url: string, connectTimeoutSeconds = 30): Promise<void> {
  // One connection: the lock, the migrations and their transaction share the session.
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: connectTimeoutSeconds });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.end();
  }
}

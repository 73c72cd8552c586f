import type { FastifyInstance } from 'fastify';
import type postgres from 'postgres';
import { CHANGE_CHANNEL } from '../../plugins/read-cache.js';

/**
 * Once every change committed so far (through `sql`, another connection) has reached `app` and its read
 * cache: PostgreSQL delivers notifications in commit order, so a fence notified now arrives after all of them.
 */
export async function notificationsSettled(app: FastifyInstance, sql: postgres.Sql) {
  const fence = `test-fence-${process.hrtime.bigint()}`;
  let seen!: () => void;
  const arrived = new Promise<void>((resolve) => (seen = resolve));
  // The channel is listened to already: the app's own connection receives the fence.
  const { unlisten } = await app.sql.listen(CHANGE_CHANNEL, (payload) => void (payload === fence && seen()));
  try {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${fence})`;
    await arrived;
  } finally {
    await unlisten();
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import type postgres from 'postgres';

/** How long a job waits for a free slot before it gives up (and pg-boss retries it later). */
const WAIT_MS = 60_000;
const POLL_MS = 500;

/** No slot became free in time. */
export class NoFreeSlot extends Error {}

/**
 * Runs `work` holding one of `count` slots named `name`: a session advisory lock on a connection
 * kept for the run, so the bound holds over every process on the database (pg-boss's group
 * concurrency can let workers that fetch at the same moment run more), and a process that dies
 * frees its slot with its connection.
 */
export async function withSlot<T>(sql: postgres.Sql, name: string, count: number, work: () => Promise<T>): Promise<T> {
  const connection = await sql.reserve();
  try {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      for (let slot = 0; slot < count; slot++) {
        const [row] = await connection`select pg_try_advisory_lock(hashtext(${name}), ${slot}) as got`;
        if (!row!.got) continue;
        try {
          return await work();
        } finally {
          await connection`select pg_advisory_unlock(hashtext(${name}), ${slot})`;
        }
      }
      if (Date.now() > deadline) throw new NoFreeSlot(`no free ${name} slot within ${WAIT_MS / 1000} seconds`);
      await sleep(POLL_MS);
    }
  } finally {
    connection.release();
  }
}

/**
 * Which tables a request changed, from the `oe_change` notifications of migrations 0010 and 0025 (per
 * table and committed transaction, or per statement with the events of the rows: `sessions:12`). No waiting on the clock: after the answer, a fence notification is sent
 * on another connection; PostgreSQL delivers notifications in commit order, so once the fence arrives
 * every change committed before it has arrived too.
 */
import postgres from 'postgres';

const CHANNEL = 'oe_change';

// No table may be written by a refused request. What refusals do write by design, rate-limit hits
// (rate_limit_hits: failed logins, mails, app builds), has no trigger (migration 0011), nor has the job
// queue (schema pgboss), so neither shows here.

export interface WriteWatcher {
  /** Tables changed since the last call (fenced: nothing committed before the call is missed). */
  settle(): Promise<string[]>;
  close(): Promise<void>;
}

export async function watchWrites(url: string): Promise<WriteWatcher> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const changed: string[] = [];
  const fences = new Map<string, () => void>();
  let counter = 0;
  await sql.listen(CHANNEL, (payload) => {
    const fence = fences.get(payload);
    if (fence) fence();
    else if (!payload.startsWith('fuzz-fence:')) changed.push(payload.split(':')[0]!);
  });
  return {
    async settle() {
      const token = `fuzz-fence:${++counter}`;
      const arrived = new Promise<void>((resolve) => fences.set(token, resolve));
      await sql.notify(CHANNEL, token);
      await arrived;
      fences.delete(token);
      return [...new Set(changed.splice(0))];
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

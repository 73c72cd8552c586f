import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** Set by test/run.ts: a superuser URL of the test server and the migrated template database. */
const adminUrl = () => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests with `make test`');
  return url;
};
export const TEMPLATE = 'oe_test_template';

export const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/**
 * A database of its own for one test file, copied from the migrated template (or, with
 * `migrated: false`, an empty one); dropped by `drop`.
 */
export async function createTestDatabase({ migrated = true } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `oe_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${migrated ? TEMPLATE : 'template0'}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl(), name),
    async drop() {
      const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}

/**
 * A session of its own that runs `lock` (a row or table lock) in an open transaction and holds it
 * until `release`; resolves only once the lock is held, so work started afterwards must wait for it.
 * Released and closed at the end of the test `t` in any case.
 */
export async function holdLock(
  t: { teardown(fn: () => unknown): void },
  url: string,
  lock: (sql: postgres.TransactionSql) => Promise<unknown>,
): Promise<{ pid: number; release(): Promise<void> }> {
  const session = postgres(url, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: (pid: number) => void;
  const holding = new Promise<number>((resolve) => (held = resolve));
  const done = session.begin(async (sql) => {
    await lock(sql);
    const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    held(row!.pid);
    await released;
  });
  t.teardown(async () => {
    release();
    await done.catch(() => {});
    await session.end();
  });
  // The transaction ends only after `release`, so until the lock is held only its failure can win.
  const pid = await Promise.race([holding, done as Promise<never>]);
  return {
    pid,
    async release() {
      release();
      await done;
    },
  };
}

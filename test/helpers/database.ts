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

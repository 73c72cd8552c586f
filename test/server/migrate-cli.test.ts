/**
 * `npm run migrate` (db/migrate-cli.ts): applies every migration of this version to DATABASE_URL and
 * exits 0, again with nothing left to do; a database that refuses the connection ends it with exit
 * code 1 and one line.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import postgres from 'postgres';
import t from 'tap';
import { migrationsFolder } from '../../db/migrate.js';
import { createTestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/postgres.js';

// tap preloads its hooks into child processes through NODE_OPTIONS; the command runs as npm runs it.
const { NODE_OPTIONS: _nodeOptions, ...env } = process.env;
const migrate = (url: string) =>
  new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'db/migrate-cli.ts'],
      { env: { ...env, DATABASE_URL: url } },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    );
  });

t.test('applies every migration, then finds nothing left to do', async (t) => {
  const db = await createTestDatabase({ migrated: false });
  t.teardown(() => db.drop());
  const expected = (
    JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }
  ).entries.length;
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  for (const round of ['first', 'second']) {
    const { code, out, err } = await migrate(db.url);
    t.equal(code, 0, `${round} run: exit 0 ${err}`);
    t.equal(out.trim(), 'Migrations applied.');
    const [{ applied }] = await sql<
      { applied: number }[]
    >`select count(*)::int as applied from drizzle.__drizzle_migrations`;
    t.equal(applied, expected, `${round} run: all ${expected} applied`);
  }
});

t.test('a database that refuses the connection: exit 1, one line', async (t) => {
  const port = await freePort();
  const { code, err } = await migrate(`postgres://someone:secret@127.0.0.1:${port}/events`);
  t.equal(code, 1);
  t.equal(err.trim().split('\n').length, 1, err);
  t.match(err, `The database at 127.0.0.1:${port}/events (DATABASE_URL) refused the connection (ECONNREFUSED`);
});

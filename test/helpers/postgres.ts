import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../db/embedded.js';

/** A TCP port nothing listens on right now (loopback). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export interface PostgresServer {
  /** A superuser URL of the server (may create and drop databases). */
  adminUrl: string;
  /** True when the server was started here (embedded in a temporary folder). */
  embedded: boolean;
  /** Stops an embedded server and deletes its folder; nothing for DATABASE_URL. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * The PostgreSQL server for `make test` and `make bench`: the one DATABASE_URL names when it is set,
 * otherwise an embedded one in a fresh temporary folder (`prefix`) on a free loopback port.
 */
export async function startPostgres(prefix: string): Promise<PostgresServer> {
  const url = process.env.DATABASE_URL;
  if (url) return { adminUrl: url, embedded: false, stop: async () => {} };
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  let embedded;
  try {
    embedded = await startEmbeddedPostgres(dir, { port: await freePort(), persistent: false });
  } catch (err) {
    await removeDir();
    throw err;
  }
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: embedded.url,
    embedded: true,
    stop: () =>
      (stopped ??= (async () => {
        try {
          await embedded.stop();
        } finally {
          await removeDir();
        }
      })()),
  };
}

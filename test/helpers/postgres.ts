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

/**
 * A loopback TCP port held by a listening socket until `release`, so that no other test file (and no
 * outgoing connection) takes it while the app that will listen on it is built; then listen at once.
 */
export async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface PostgresServer {
  /** A superuser URL of the server (may create and drop databases). */
  adminUrl: string;
  /** True when the server was started here (embedded in a temporary folder). */
  embedded: boolean;
  /** Stops an embedded server and deletes its folder; nothing for DATABASE_URL. Safe to call twice. */
  stop(): Promise<void>;
}

/** An embedded server that a test may stop and start again (database restarts), its data kept meanwhile. */
export interface OwnPostgres extends PostgresServer {
  /** Stops the server (a fast shutdown: sessions end with 57P01) and keeps its data. */
  halt(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  resume(): Promise<void>;
}

/**
 * An embedded PostgreSQL of its own in a fresh temporary folder (`prefix`) on a free loopback port,
 * also when DATABASE_URL is set: tests that stop the database must not stop everyone's.
 */
export async function startOwnPostgres(prefix: string, settings: Record<string, string> = {}): Promise<OwnPostgres> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>>;
  try {
    // Persistent: a halt keeps the data; the folder goes with `stop`.
    embedded = await startEmbeddedPostgres(dir, { port: await freePort(), persistent: true, settings });
  } catch (err) {
    await removeDir();
    throw err;
  }
  let stopped: Promise<void> | undefined;
  return {
    adminUrl: embedded.url,
    embedded: true,
    halt: () => embedded.stop(),
    resume: () => embedded.start(),
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

/**
 * The PostgreSQL server for `make test` and `make bench`: the one DATABASE_URL names when it is set,
 * otherwise an embedded one in a fresh temporary folder (`prefix`) on a free loopback port.
 */
export async function startPostgres(prefix: string, settings: Record<string, string> = {}): Promise<PostgresServer> {
  const url = process.env.DATABASE_URL;
  if (url) return { adminUrl: url, embedded: false, stop: async () => {} };
  return startOwnPostgres(prefix, settings);
}

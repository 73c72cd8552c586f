/**
 * `make test`: starts PostgreSQL (embedded, unless DATABASE_URL names a server whose user may
 * create databases), migrates a template database that every test file copies, runs tap, and
 * ends with one line per failed assertion and the line `N passed, N failed`.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, statfs } from 'node:fs/promises';
import postgres from 'postgres';
import { runMigrations } from '../db/migrate.js';
import { TEMPLATE, withDatabase } from './helpers/database.js';
import { startPostgres } from './helpers/postgres.js';
import { TapTally } from './helpers/tap-tally.js';
import { compileProject, sourceNames } from './runner/compile.js';
import { runTestFiles } from './runner/files.js';

const TEST_SERVER_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  // The WAL lives in memory too (below): checkpoint before it grows past what a run needs.
  max_wal_size: '256MB',
};

/** Free bytes a memory-backed scratch folder must have for a whole run (databases, uploads, builds, browsers). */
const SCRATCH_FREE = 4 * 2 ** 30;

/**
 * The folder every temporary file of the run goes to (the test server's data, each file's uploads, outboxes and
 * builds): TEST_TMPDIR when set, otherwise a new folder in /dev/shm when that is a memory file system with room to
 * spare, otherwise the system's. On the machines' ext4 disk, copying the template for a test's database cost 400 ms
 * of kernel time (its ~500 files created and written); in memory, 20 ms.
 */
async function scratchDir(): Promise<{ dir: string; remove(): Promise<void> } | undefined> {
  if (process.env.TEST_TMPDIR) return { dir: process.env.TEST_TMPDIR, remove: async () => {} };
  const shm = await statfs('/dev/shm').catch(() => undefined);
  const TMPFS_MAGIC = 0x01021994;
  if (!shm || shm.type !== TMPFS_MAGIC || shm.bavail * shm.bsize < SCRATCH_FREE) return undefined;
  const dir = await mkdtemp('/dev/shm/oe-test-');
  // Open to every user, as /tmp is: the embedded server runs as another user than root.
  await chmod(dir, 0o1777);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

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
 * builds the default set): the test processes load the built class.
 */
async function ensureTapBuilt() {
  // @tapjs/core first, as `import 'tap'` loads it: it and @tapjs/test import each other, and entering that cycle
  // at @tapjs/test (as Promise.all of both imports sometimes did) evaluates core's tap.ts before the Test class it
  // uses ("Cannot access 'Test' before initialization").
  await import('@tapjs/core');
  const { signature } = await import('@tapjs/test');
  const { TapConfig } = await import('@tapjs/config');
  if (signature === (await TapConfig.load()).pluginSignature) return;
  await new Promise<void>((resolve, reject) =>
    spawn('npx', ['tap', 'build'], { stdio: ['ignore', 'inherit', 'inherit'] }).on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tap build exited with ${code}`)),
    ),
  );
}

/** The options of `test/run.ts` (any argument not naming a `.ts` file): `--jobs=N`, `--node-arg=X`. */
function runOptions(args: string[]) {
  const options = { jobs: 2, nodeArgs: [] as string[] };
  for (const arg of args) {
    const [, name, value] = /^--([\w-]+)=(.*)$/.exec(arg) ?? [];
    if (name === 'jobs' && /^[1-9]\d*$/.test(value!)) options.jobs = Number(value);
    else if (name === 'node-arg') options.nodeArgs.push(value!);
    else throw new Error(`unknown option ${arg}: test/run.ts takes test files, --jobs=N and --node-arg=X`);
  }
  return options;
}

/** Runs the test files, echoing their TAP stream, and tallies it. */
async function runFiles(files: string[], options: ReturnType<typeof runOptions>, env: NodeJS.ProcessEnv) {
  const tally = new TapTally();
  const allOk = await runTestFiles(files, {
    ...options,
    timeoutSeconds: 300,
    env,
    write(text) {
      const named = sourceNames(text);
      process.stdout.write(named);
      for (const line of named.split('\n')) tally.line(line);
    },
  });
  // A file that died before reporting its tests still counts as a failure.
  if (!allOk && tally.failed === 0) tally.failed = Math.max(1, tally.filesFailed);
  return { tally, code: allOk ? 0 : 1 };
}

async function main() {
  // The test files named (all when none) run compiled; the other arguments are options.
  const args = process.argv.slice(2);
  const options = runOptions(args.filter((arg) => !arg.endsWith('.ts')));
  const scratch = await scratchDir();
  // os.tmpdir() of this process (the test server's folder) and of every test process.
  if (scratch) process.env.TMPDIR = scratch.dir;
  // A server that is thrown away afterwards need not survive a crash of the machine: no disk flushes, which made
  // every commit and every database copied from the template wait for the disk.
  const server = await startPostgres('oe-test-pg-', TEST_SERVER_SETTINGS).catch(async (err: unknown) => {
    await scratch?.remove();
    throw err;
  });
  const { adminUrl } = server;
  let passed = 0;
  let failed = 1;
  let code = 1;
  try {
    const [, , project] = await Promise.all([prepareTemplate(adminUrl), ensureTapBuilt(), compileProject()]);
    try {
      const files = await project.testFiles(args.filter((arg) => arg.endsWith('.ts')));
      const run = await runFiles(files, options, {
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
    await scratch?.remove();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || code !== 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});

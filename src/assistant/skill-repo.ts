import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { AssistantError } from './identity.js';

const run = promisify(execFile);

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
    const next = this.queue.then(async () => {
      for (const [path, content] of Object.entries(files)) {
        const full = join(this.root, path);
        await mkdir(dirname(full), { recursive: true });
        const partial = `${full}.${process.pid}.partial`;
        await writeFile(partial, content);
        await rename(partial, full);
      }
      await this.git('add', '--', ...Object.keys(files));
      const email = author.replace(/[<>\n\r]/g, '');
      // Saving the text unchanged still records its changelog (and must not fail: git refuses empty commits).
      await this.git('commit', '-q', '--allow-empty', '--author', `${email} <${email}>`, '-m', message || 'Changed skill');
      return (await this.git('rev-parse', 'HEAD')).stdout.trim();
    });
    this.queue = next.catch(() => undefined);
    return next;
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

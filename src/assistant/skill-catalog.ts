import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skills } from '../../db/schema/index.js';
import { record, type SkillRecord, statsOf } from './metrics.js';
import { parseSkillMetadata, type SkillFileMetadata } from './skill-file.js';
import { skillRowOf, type SkillRow } from './skill-lookup.js';
import { checkedName, type SkillRepo } from './skill-repo.js';

const run = promisify(execFile);

/** One public skill file: `models/<model>/<group>/<language>/<name>.txt` and the metadata written in it. */
export interface CatalogEntry {
  model: string;
  group: string;
  language: string;
  /** The file name without `.txt` (the reference's `skill_tag`). */
  name: string;
  path: string;
  meta: SkillFileMetadata;
  /** The languages of the group holding a skill of the same name (the reference's supported_languages). */
  supported_languages: { language: string; name: string }[];
}

/** Whether a skill committed by hand has names this service can address (one checked segment each, at most 100 characters). */
function named(...names: string[]) {
  try {
    for (const name of names) checkedName('name', name);
    return true;
  } catch {
    return false;
  }
}

const keyOf = (s: { model: string; group: string; language: string; name: string }) =>
  `${s.model}\0${s.group}\0${s.language}\0${s.name}`;

/**
 * Every public skill of the repository, read from the files (so skills committed by git directly
 * appear), parsed once per commit: the list is cached by the repository's HEAD and rebuilt when it
 * moves. Rows (status flags, ratings, usage) change without a commit, so they are read per request,
 * in two statements whatever the number of skills. Only `models/` is walked: the private trees
 * (`private/<user>/...`) are never part of it.
 */
export class SkillCatalog {
  private cached?: { head: string; entries: Promise<CatalogEntry[]> };

  constructor(
    private readonly app: FastifyInstance,
    private readonly repo: SkillRepo,
  ) {}

  /**
   * The commit HEAD names, read from `.git` (HEAD, its loose ref, else packed-refs) rather than by
   * starting git for every request; git itself when the layout is anything else. The mirror catches up
   * with the shared repository first.
   */
  private async head(): Promise<string> {
    await this.repo.current();
    const git = join(this.repo.root, '.git');
    const head = (await readFile(join(git, 'HEAD'), 'utf8').catch(() => '')).trim();
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    if (ref && !ref.includes('..')) {
      const loose = (await readFile(join(git, ref), 'utf8').catch(() => '')).trim();
      if (/^[0-9a-f]{40}$/.test(loose)) return loose;
      const packed = await readFile(join(git, 'packed-refs'), 'utf8').catch(() => '');
      const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
      if (line && /^[0-9a-f]{40} /.test(line)) return line.slice(0, 40);
    }
    const { stdout } = await run('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: this.repo.root }).catch(() => ({
      stdout: '',
    }));
    return stdout.trim();
  }

  /** The entries of the repository at its current commit (the cached list while HEAD has not moved). */
  async entries(): Promise<CatalogEntry[]> {
    const head = await this.head();
    if (this.cached?.head !== head || !head) {
      const entries = this.build();
      this.cached = { head, entries };
      // A failed build is not cached.
      entries.catch(() => {
        if (this.cached?.entries === entries) this.cached = undefined;
      });
    }
    return this.cached!.entries;
  }

  private async build(): Promise<CatalogEntry[]> {
    const entries: CatalogEntry[] = [];
    for (const model of await this.repo.list('models')) {
      for (const group of await this.repo.list(join('models', model))) {
        for (const language of await this.repo.list(join('models', model, group))) {
          const folder = join('models', model, group, language);
          for (const file of await this.repo.list(folder, true)) {
            if (!file.endsWith('.txt') || !named(model, group, language, file.slice(0, -4))) continue;
            const path = join(folder, file);
            const meta = parseSkillMetadata(await this.repo.read(path).catch(() => ''));
            entries.push({ model, group, language, name: file.slice(0, -4), path, meta, supported_languages: [] });
          }
        }
      }
    }
    // Same-named skills of one group in several languages are translations of each other.
    const byName = new Map<string, CatalogEntry[]>();
    for (const e of entries) {
      const k = `${e.model}\0${e.group}\0${e.name.toLowerCase()}`;
      byName.set(k, [...(byName.get(k) ?? []), e]);
    }
    for (const same of byName.values()) {
      const languages = same.map((e) => ({ language: e.language, name: e.name }));
      for (const e of same) e.supported_languages = languages;
    }
    await this.ensureRows(entries);
    return entries;
  }

  /** Skills of the repository without a row get one (their status, ratings and usage hang on it). */
  private async ensureRows(entries: CatalogEntry[]) {
    const models = [...new Set(entries.map((e) => e.model))];
    if (models.length === 0) return;
    const rows = await this.app.db
      .select({ model: skills.model, group: skills.group, language: skills.language, name: skills.name })
      .from(skills)
      .where(inArray(skills.model, models));
    const known = new Set(rows.map(keyOf));
    for (const e of entries) {
      if (known.has(keyOf(e))) continue;
      await skillRowOf(this.app, this.repo, {
        where: { model: e.model, group: e.group, language: e.language },
        name: e.name,
        path: e.path,
      });
    }
  }

  /** The entry of one skill (name matched as the reference does: exact, else ignoring case). */
  async entry(
    where: { model: string; group: string; language: string },
    name: string,
  ): Promise<CatalogEntry | undefined> {
    const all = await this.entries();
    const here = all.filter((e) => e.model === where.model && e.group === where.group && e.language === where.language);
    return here.find((e) => e.name === name) ?? here.find((e) => e.name.toLowerCase() === name.toLowerCase());
  }

  /**
   * The records (the reference's getSkillMetadata) of the entries that pass `filter`, usage counted over
   * the last `duration` days (-1: all).
   */
  async records(filter: (e: CatalogEntry) => boolean, duration = -1): Promise<SkillRecord[]> {
    const entries = (await this.entries()).filter(filter);
    if (entries.length === 0) return [];
    const models = [...new Set(entries.map((e) => e.model))];
    const rows = await this.app.db.select().from(skills).where(inArray(skills.model, models));
    const byKey = new Map<string, SkillRow>(rows.map((r) => [keyOf(r), r]));
    const wanted = entries
      .map((e) => [e, byKey.get(keyOf(e))] as const)
      .filter((pair): pair is readonly [CatalogEntry, SkillRow] => pair[1] !== undefined);
    const stats = new Map(
      await statsOf(
        this.app,
        wanted.map(([, r]) => r.id),
        duration,
      ),
    );
    return wanted.map(([e, r]) => record(r, stats.get(r.id)!, e));
  }

  /** The record of one skill, or undefined when there is no such file. */
  async recordOf(
    where: { model: string; group: string; language: string },
    name: string,
    duration = -1,
  ): Promise<SkillRecord | undefined> {
    const entry = await this.entry(where, name);
    if (!entry) return undefined;
    let [row] = await this.app.db
      .select()
      .from(skills)
      .where(
        and(
          eq(skills.model, entry.model),
          eq(skills.group, entry.group),
          eq(skills.language, entry.language),
          eq(skills.name, entry.name),
        ),
      );
    row ??= await skillRowOf(this.app, this.repo, { where, name: entry.name, path: entry.path });
    const [stats] = await statsOf(this.app, [row.id], duration);
    return record(row, stats![1], entry);
  }
}

/** One catalog per repository folder (the routes of one app share it). */
const catalogs = new WeakMap<SkillRepo, SkillCatalog>();
export function catalogOf(app: FastifyInstance, repo: SkillRepo): SkillCatalog {
  let catalog = catalogs.get(repo);
  if (!catalog) catalogs.set(repo, (catalog = new SkillCatalog(app, repo)));
  return catalog;
}

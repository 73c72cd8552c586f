import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skills, users } from '../../db/schema/index.js';
import { AssistantError } from './identity.js';
import type { Params } from './route.js';
import { parseSkillMetadata } from './skill-file.js';
import { checkedName, type SkillPath, type SkillRepo } from './skill-repo.js';

export type SkillRow = typeof skills.$inferSelect;

/** A public skill a request names: model, group and language with the reference's defaults, the file inside the repository. */
export interface SkillRef {
  where: SkillPath;
  name: string;
  /** `models/<model>/<group>/<language>/<name>.txt` */
  path: string;
}

/**
 * Model, group and language as checked names in normal form C: the same values name the folder and the
 * database row (an NFD group would find the file and miss its row).
 */
export const checkedWhere = (where: SkillPath): SkillPath => ({
  model: checkedName('model', where.model),
  group: checkedName('group', where.group),
  language: checkedName('language', where.language),
});

export function skillRefOf(
  repo: SkillRepo,
  p: Params,
  defaults: Partial<SkillPath> & { skill?: string } = {},
): SkillRef {
  const where = checkedWhere({
    model: p.model || defaults.model || 'general',
    group: p.group || defaults.group || 'Knowledge',
    language: p.language || defaults.language || 'en',
  });
  const name = checkedName('skill', p.skill || defaults.skill);
  return { where, name, path: join(repo.folder(where), `${name}.txt`) };
}

/**
 * The file of a skill as the reference finds it (getSkillFileInLanguage): the exact name, else the
 * file whose name matches ignoring case. Undefined when there is none.
 */
export async function skillFileOf(repo: SkillRepo, ref: SkillRef): Promise<SkillRef | undefined> {
  if (await repo.exists(ref.path)) return ref;
  const folder = repo.folder(ref.where);
  const wanted = `${ref.name}.txt`.toLowerCase();
  const file = (await repo.list(folder, true)).find((f) => f.toLowerCase() === wanted);
  return file ? { ...ref, name: file.slice(0, -4), path: join(folder, file) } : undefined;
}

/**
 * The database row of a skill file (ratings, usage, status hang on it), made when the skill was
 * written by a commit this service did not see (a skill already in the repository): its author is the
 * account of `::author_email` when there is one.
 */
export async function skillRowOf(app: FastifyInstance, repo: SkillRepo, ref: SkillRef): Promise<SkillRow> {
  const key = and(
    eq(skills.model, ref.where.model),
    eq(skills.group, ref.where.group),
    eq(skills.language, ref.where.language),
    eq(skills.name, ref.name),
  );
  const [found] = await app.db.select().from(skills).where(key);
  if (found) return found;
  const meta = parseSkillMetadata(await repo.read(ref.path));
  const email = meta.author_email?.slice(0, 254) ?? null;
  const [author] = email ? await app.db.select({ id: users.id }).from(users).where(eq(users.email, email)) : [];
  await app.db
    .insert(skills)
    .values({ ...ref.where, name: ref.name, authorEmail: email, authorId: author?.id ?? null })
    .onConflictDoNothing();
  const [row] = await app.db.select().from(skills).where(key);
  return row!;
}

/** The skill a request names, with its row; the reference's 422 "Skill does not exist." when there is no such file. */
export async function existingSkill(
  app: FastifyInstance,
  repo: SkillRepo,
  p: Params,
): Promise<{ ref: SkillRef; row: SkillRow }> {
  const ref = await skillFileOf(repo, skillRefOf(repo, p));
  if (!ref) throw new AssistantError(422, 'Skill does not exist.');
  return { ref, row: await skillRowOf(app, repo, ref) };
}

import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skills } from '../../db/schema/index.js';
import { AssistantError, rank } from './identity.js';
import { isPrivate, privateParam } from './flags.js';
import { assistantRoute, params, SKILL_PARAMS } from './route.js';
import { parseSkillMetadata } from './skill-file.js';
import { existingSkill, skillFileOf, skillRefOf, skillRowOf } from './skill-lookup.js';
import { checkedName, COMMIT_ID, type CommitInfo, privateFolder, type SkillRepo } from './skill-repo.js';

/** Deleted skills wait this long under `deleted/` before they may be purged (the reference's 30 days). */
export const KEEP_DELETED_DAYS = 30;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** A date as the reference writes a java.util.Date into JSON (`Wed Nov 25 21:07:32 UTC 2026`), in UTC. */
export function javaDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

/**
 * The files under `deleted/` whose deletion is older than KEEP_DELETED_DAYS (the reference's cron
 * purges them; here the next deletion does, with a commit of its own, so the history keeps them).
 */
export async function expiredDeletions(repo: SkillRepo, now: Date): Promise<string[]> {
  const expired: string[] = [];
  for (const path of await repo.files('deleted')) {
    const [last] = await repo.history(path, 1);
    if (last && now.getTime() - new Date(last.date).getTime() > KEEP_DELETED_DAYS * 86_400_000) expired.push(path);
  }
  return expired;
}

/** One commit as HistorySkillService and GetFileAtCommitID answer it. */
const commitJson = (c: CommitInfo) => ({
  commitRev: `commit ${c.hash} ${Math.floor(new Date(c.date).getTime() / 1000)} -----p`,
  commitName: c.hash,
  commitID: c.hash,
  commit_message: c.subject,
  author: c.authorName,
  commitDate: javaDate(c.date),
  author_mail: c.authorEmail,
});

/**
 * The history of skills in the repository (getSkillHistory, getFileAtCommitID: what the editor's
 * SkillHistory and SkillRollBack pages read; a rollback then posts modifySkill with the old text), and
 * deletion: deleteSkill moves the file under `deleted/` with a commit, undoDeleteSkill moves it back,
 * skillsToBeDeleted lists what waits there.
 */
export async function skillHistoryRoutes(app: FastifyInstance, repo: SkillRepo) {
  assistantRoute(
    app,
    {
      url: '/cms/getSkillHistory.json',
      method: 'GET',
      operationId: 'getSkillHistory',
      params: SKILL_PARAMS,
      failures: [400],
      summary: 'The commits of a skill',
      description:
        '`model` (general), `group` (Knowledge), `language` (en), `skill` (wikipedia): `commits`, newest first, each ' +
        '`commitRev`, `commitName`, `commitID`, `commit_message`, `author`, `commitDate`, `author_mail`; renames and ' +
        'moves are followed. `accepted` is false when the skill has no commits.',
      minimal: 'anonymous',
    },
    async ({ params, reply }) => {
      const ref = skillRefOf(repo, params, { skill: 'wikipedia' });
      const file = (await skillFileOf(repo, ref)) ?? ref;
      const commits = (await repo.history(file.path)).map(commitJson);
      reply.header('cache-control', 'no-cache, no-store, must-revalidate');
      return { accepted: commits.length > 0, commits };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getFileAtCommitID.json',
      method: 'GET',
      operationId: 'getFileAtCommitID',
      params: { ...SKILL_PARAMS, ...params({ commitID: 'the commit: 4 to 40 hex digits' }) },
      failures: [400, 404],
      failureDescriptions: { 404: 'No such commit, or it is not a commit of the skill' },
      summary: 'A skill as it was at a commit',
      description:
        '`model`, `group`, `language`, `skill` (wikipedia), `commitID` (a full or abbreviated commit id): `file` (the ' +
        'text at that commit, under the name it had then) and the commit (`commitID`, `commit_message`, `author`, ' +
        '`commitDate`, `author_mail`).',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const ref = skillRefOf(repo, params, { skill: 'wikipedia' });
      if (!params.commitID) throw new AssistantError(400, 'Commit ID is Null');
      if (!COMMIT_ID.test(params.commitID))
        throw new AssistantError(400, 'The commit ID must be 4 to 40 hexadecimal digits');
      const commit = await repo.commitInfo(params.commitID);
      if (!commit) throw new AssistantError(404, 'No commit with this ID');
      const current = (await skillFileOf(repo, ref)) ?? ref;
      // Only a commit of the skill's own history (under the name it had then: it may have been renamed
      // or moved since): another commit would show its message and author (a private bot's, an upload's).
      const then = (await repo.history(current.path)).find((c) => c.hash === commit.hash)?.path;
      if (then === undefined) throw new AssistantError(404, 'This commit did not change the skill');
      const file = await repo.readAt(commit.hash, then);
      if (file === undefined) throw new AssistantError(404, 'Did not find expected file');
      return { accepted: true, file, ...commitJson(commit) };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/deleteSkill.json',
      method: 'GET',
      operationId: 'deleteSkill',
      params: {
        ...SKILL_PARAMS,
        ...privateParam('a bot of the caller (private/<user>/<group>/<language>)'),
      },
      failures: [400, 401, 403, 422],
      failureDescriptions: {
        403: 'A public skill of another author, and the caller is no administrator',
        422: 'No such skill',
      },
      summary: 'Delete a skill or a bot',
      description:
        '`model`, `group`, `language`, `skill`, `private`. The file moves to `deleted/` in the skill repository (one ' +
        `commit) and waits there ${KEEP_DELETED_DAYS} days (undoDeleteSkill restores it; a later deletion purges what waited ` +
        'longer, in a commit of its own). Public skills: administrators ' +
        'and the author; bots (`private=1`): their owner.',
      minimal: 'user',
    },
    async ({ params, caller, identity }) => {
      // What is checked holds until the commit: no other change runs in between.
      return repo.exclusive(async (write) => {
        let path: string;
        let name: string;
        let rowId: number | undefined;
        if (isPrivate(params)) {
          const folder = privateFolder(caller!.id, params.group || 'Knowledge', params.language || 'en');
          name = checkedName('skill', params.skill);
          const wanted = `${name}.txt`.toLowerCase();
          const file = (await repo.list(folder, true)).find((f) => f.toLowerCase() === wanted);
          if (!file) throw new AssistantError(422, 'Skill does not exist.');
          path = join(folder, file);
          name = file.slice(0, -4);
        } else {
          const { ref, row } = await existingSkill(app, repo, params);
          if (rank(identity.role) < rank('admin') && row.authorId !== caller!.id && row.authorEmail !== caller!.email) {
            throw new AssistantError(403, 'Must be admin to delete a skill');
          }
          path = ref.path;
          name = ref.name;
          rowId = row.id;
        }
        await write({ move: [[path, join('deleted', path)]] }, caller!.email, `Deleted ${name}`);
        const expired = await expiredDeletions(repo, new Date());
        if (expired.length > 0)
          await write(
            { remove: expired },
            caller!.email,
            `Purged ${expired.length} skill(s) deleted more than ${KEEP_DELETED_DAYS} days ago`,
          );
        // The lists read the rows: a deleted skill leaves them (undoDeleteSkill makes a new row).
        if (rowId !== undefined) await app.db.delete(skills).where(eq(skills.id, rowId));
        return { accepted: true, message: `Deleted ${name}` };
      });
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/undoDeleteSkill.json',
      method: 'GET',
      operationId: 'undoDeleteSkill',
      params: SKILL_PARAMS,
      failures: [400, 401, 403, 409, 422],
      failureDescriptions: {
        403: 'The caller is neither an administrator nor the author (`::author_email`)',
        409: 'A skill of that name exists again',
        422: 'No such deleted skill',
      },
      summary: 'Restore a deleted skill',
      description:
        '`model`, `group`, `language`, `skill`: moves the skill back from `deleted/` (one commit). Administrators and the author.',
      minimal: 'user',
    },
    async ({ params, caller, identity }) => {
      // What is checked holds until the commit: no other change runs in between.
      return repo.exclusive(async (write) => {
        const ref = skillRefOf(repo, params);
        const folder = join('deleted', repo.folder(ref.where));
        const wanted = `${ref.name}.txt`.toLowerCase();
        const file = (await repo.list(folder, true)).find((f) => f.toLowerCase() === wanted);
        if (!file) throw new AssistantError(422, 'Skill does not exist in the deleted skills.');
        const deleted = join(folder, file);
        if (
          rank(identity.role) < rank('admin') &&
          parseSkillMetadata(await repo.read(deleted)).author_email !== caller!.email
        ) {
          throw new AssistantError(403, 'Must be admin or the author to restore a skill');
        }
        const restored = { ...ref, name: file.slice(0, -4), path: join(repo.folder(ref.where), file) };
        if (await skillFileOf(repo, restored)) throw new AssistantError(409, 'A skill of that name exists again');
        await write({ move: [[deleted, restored.path]] }, caller!.email, `Undo Delete ${restored.name}`);
        await skillRowOf(app, repo, restored);
        return { accepted: true, message: `Restored ${restored.name} successfully!` };
      });
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/skillsToBeDeleted.json',
      method: 'GET',
      operationId: 'skillsToBeDeleted',
      params: params({ model: 'model (general)' }),
      failures: [400, 401],
      summary: 'Deleted skills waiting to be purged',
      description:
        '`model` (general): `skills`, each with `model`, `group`, `language`, `skill_name` (the file), the metadata of the ' +
        `file, \`testgroup\`, \`testlanguage\`, \`testskill\` (as the reference), \`deleted_at\` and \`purge_after\` (${KEEP_DELETED_DAYS} days later).`,
      minimal: 'admin',
    },
    async ({ params }) => {
      const root = join('deleted', 'models', checkedName('model', params.model || 'general'));
      const list = [];
      for (const path of await repo.files(root)) {
        const parts = path.slice(root.length + 1).split('/');
        if (parts.length !== 3 || !parts[2]!.endsWith('.txt')) continue;
        const [group, language, file] = parts as [string, string, string];
        const skill = file.slice(0, -4);
        const meta = parseSkillMetadata(await repo.read(path));
        const [last] = await repo.history(path, 1);
        const deletedAt = last ? new Date(last.date) : new Date();
        list.push({
          model: params.model || 'general',
          group,
          language,
          skill_name: meta.name ?? skill,
          skill_tag: skill,
          author: meta.author,
          author_email: meta.author_email,
          image: meta.image,
          description: meta.description,
          testgroup: group,
          testlanguage: language,
          testskill: skill,
          deleted_at: deletedAt.toISOString(),
          purge_after: new Date(deletedAt.getTime() + KEEP_DELETED_DAYS * 86_400_000).toISOString(),
        });
      }
      return { accepted: true, skills: list, message: 'Success: Fetched skill list' };
    },
  );
}

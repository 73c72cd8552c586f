import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skillRatings, skills, skillUsage, skillVotes } from '../../db/schema/index.js';
import { AssistantError } from './identity.js';
import { strictFlag, strictFlags } from './flags.js';
import { assistantRoute, type Params, params, SKILL_PARAMS } from './route.js';
import { checkedName, type SkillRepo } from './skill-repo.js';
import { type CatalogEntry, catalogOf } from './skill-catalog.js';
import { existingSkill } from './skill-lookup.js';

type Skill = typeof skills.$inferSelect;

/** The skill a request names, with its row; 422 when there is no such file. */
const namedSkill = async (app: FastifyInstance, repo: SkillRepo, p: Params): Promise<Skill> =>
  (await existingSkill(app, repo, p)).row;

/** A status flag of changeSkillStatus: not given leaves the status as it is, a value neither true nor false is a 400. */
const status = (value: string | undefined, what: string) =>
  strictFlag(value, `${what} must be true or false (or 1 or 0)`);

export interface Stats {
  stars: number[];
  feedback: number;
  usage: number;
  /** rateSkill's votes. */
  positive?: number;
  negative?: number;
}

/** The reference's skill_rating member (`positive`/`negative` are strings there). */
export function skillRating(s: Stats) {
  const total = s.stars.reduce((a, b) => a + b, 0);
  const avg = total === 0 ? 0 : s.stars.reduce((sum, n, i) => sum + n * (i + 1), 0) / total;
  return {
    negative: String(s.negative ?? 0),
    positive: String(s.positive ?? 0),
    feedback_count: s.feedback,
    bookmark_count: 0,
    stars: {
      one_star: s.stars[0]!,
      two_star: s.stars[1]!,
      three_star: s.stars[2]!,
      four_star: s.stars[3]!,
      five_star: s.stars[4]!,
      avg_star: Math.round(avg * 100) / 100,
      total_star: total,
    },
  };
}

/**
 * A skill as the reference's getSkillMetadata records it (SusiMind.getSkillMetadata), the members in its
 * order: the text members from the skill file (`::name`, `::image` as written, `::author`, ...), the
 * status flags, ratings and usage from the row. Absent text members are `""`, not null: the Android
 * app's Gson model (SkillData) holds them in non-null strings. Without the file (`file` undefined) the
 * name and image come from the row.
 */
export function record(skill: Skill, s: Stats, file?: CatalogEntry) {
  const meta = file?.meta;
  const created = skill.createdAt.toISOString();
  const modified = skill.modifiedAt.toISOString();
  return {
    model: skill.model,
    group: skill.group,
    language: skill.language,
    developer_privacy_policy: meta?.developer_privacy_policy ?? '',
    descriptions: meta?.description ?? '',
    image: meta?.image ?? (skill.image ? `images/${skill.image}` : ''),
    author: meta?.author ?? '',
    author_url: meta?.author_url ?? '',
    author_email: meta?.author_email ?? '',
    skill_name: meta?.name || file?.name || skill.name,
    protected: meta?.protected ?? false,
    reviewed: skill.reviewed,
    editable: skill.editable,
    staffPick: skill.staffPick,
    systemSkill: skill.systemSkill,
    terms_of_use: meta?.terms_of_use ?? '',
    dynamic_content: meta?.dynamic_content ?? false,
    examples: meta?.examples ?? [],
    skill_rating: skillRating(s),
    usage_count: s.usage,
    skill_tag: file?.name ?? skill.name,
    supported_languages: file?.supported_languages ?? [{ language: skill.language, name: skill.name }],
    creationTime: created,
    lastModifiedTime: modified,
    // No access times are kept (reading a skill is not a change); the last change stands in for it.
    lastAccessTime: modified,
  };
}

export type SkillRecord = ReturnType<typeof record>;

/** The reference's rating order: skills with at least 10 ratings first, then by average stars. */
export const byRating = (a: SkillRecord, b: SkillRecord) =>
  Number(b.skill_rating.stars.total_star >= 10) - Number(a.skill_rating.stars.total_star >= 10) ||
  b.skill_rating.stars.avg_star - a.skill_rating.stars.avg_star;

/** Ratings, feedback, staff picks and the metric lists built from them. */
export async function metricsRoutes(app: FastifyInstance, repo: SkillRepo) {
  assistantRoute(
    app,
    {
      url: '/cms/changeSkillStatus.json',
      method: ['GET', 'POST'],
      operationId: 'changeSkillStatus',
      params: {
        ...SKILL_PARAMS,
        ...strictFlags({
          staffPick: 'whether the skill is a staff pick; not given: unchanged',
          reviewed: 'whether the skill is reviewed; not given: unchanged',
          editable: 'whether users other than administrators may change the skill; not given: unchanged',
          systemSkill: 'whether the skill is a system skill; not given: unchanged',
        }),
      },
      failures: [400, 401, 422],
      summary: 'Set staff pick, reviewed, editable and system skill',
      description:
        'Administrators; each of `staffPick`, `reviewed`, `editable`, `systemSkill` is `true` or `false` (`1` or `0`).',
      minimal: 'admin',
    },
    async ({ params }) => {
      const skill = await namedSkill(app, repo, params);
      const changes = {
        staffPick: status(params.staffPick, 'staffPick'),
        reviewed: status(params.reviewed, 'reviewed'),
        editable: status(params.editable, 'editable'),
        systemSkill: status(params.systemSkill, 'systemSkill'),
      };
      // No flag given is nothing to change (an UPDATE without a column to set is an error).
      if (Object.values(changes).some((v) => v !== undefined))
        await app.db.update(skills).set(changes).where(eq(skills.id, skill.id));
      return { accepted: true, message: 'Skill status changed successfully.' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getSkillMetricsData.json',
      method: 'GET',
      operationId: 'getSkillMetricsData',
      params: params({
        language: 'languages, comma-separated (en)',
        model: 'model (general)',
        group: 'group (All)',
        count: 'records per list (10)',
        duration: 'days of usage counted (all)',
        metrics: 'group names, `;`-separated',
      }),
      failures: [400, 422],
      summary: 'Skills by metric',
      description:
        '`language` (comma list, en), `model` (general), `group` (All), `count` (10), `duration` (days of usage; ' +
        'all by default), `metrics` (`;`-separated group names, default `Games, Trivia and Accessories`). Every public skill ' +
        'file of the repository is listed, its record read from the file (`skill_name` = `::name`, `image` = `::image`, ' +
        '`author` = `::author`, examples, descriptions); lists newest, latest, rating, usage, feedback, staffPicks, ' +
        'systemSkills and one per `metrics` group.',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const count = params.count === undefined ? 10 : Number(params.count);
      if (!Number.isInteger(count) || count < 0)
        throw new AssistantError(422, 'Invalid count value. It should be positive.');
      const days = params.duration === undefined ? -1 : Number(params.duration);
      // What Java's int holds, as the reference parses it; more days than usage was ever counted are all of it.
      if (!Number.isInteger(days) || days < -1 || days > 2 ** 31 - 1)
        throw new AssistantError(422, 'Invalid duration value.');
      const duration = days > 36_500 ? -1 : days;
      const model = checkedName('model', params.model || 'general');
      const group = params.group || 'All';
      const languages = (params.language || 'en').split(',').map((l) => checkedName('language', l.trim()));
      const names = (params.metrics || 'Games, Trivia and Accessories')
        .split(';')
        .map((m) => m.trim())
        .filter(Boolean);
      const wantedGroup = group === 'All' ? undefined : checkedName('group', group);
      // The public skills of the repository's files (never the private trees), with their rows.
      const all = await catalogOf(app, repo).records(
        (e) =>
          e.model === model && languages.includes(e.language) && (wantedGroup === undefined || e.group === wantedGroup),
        duration,
      );
      const top = (list: SkillRecord[], order?: (a: SkillRecord, b: SkillRecord) => number) =>
        (order ? [...list].sort(order) : list).slice(0, count);
      const metrics: Record<string, SkillRecord[]> = {
        newest: top(all, (a, b) => b.creationTime.localeCompare(a.creationTime)),
        latest: top(all, (a, b) => b.lastModifiedTime.localeCompare(a.lastModifiedTime)),
        rating: top(all, byRating),
        usage: top(all, (a, b) => b.usage_count - a.usage_count),
        feedback: top(all, (a, b) => b.skill_rating.feedback_count - a.skill_rating.feedback_count),
        staffPicks: top(
          all.filter((r) => r.staffPick),
          byRating,
        ),
        // The reference lists system skills in the order it found them (not sorted).
        systemSkills: top(all.filter((r) => r.systemSkill)),
      };
      for (const name of names)
        metrics[name] = top(
          all.filter((r) => r.group === name),
          byRating,
        );
      return {
        accepted: true,
        model,
        group,
        language: languages.join(','),
        metrics,
        message: 'Success: Fetched skill data based on metrics',
      };
    },
  );
}

/** Star counts, feedback count, votes and usage (over the last `duration` days, -1 for all) per skill. */
export async function statsOf(app: FastifyInstance, ids: number[], duration: number): Promise<[number, Stats][]> {
  const stats = new Map<number, Stats>(ids.map((id) => [id, { stars: [0, 0, 0, 0, 0], feedback: 0, usage: 0 }]));
  if (ids.length === 0) return [];
  // One parameter for any number of skills (a list of parameters stops at 65,535), counted in SQL.
  const among = (column: typeof skillRatings.skillId | typeof skillUsage.skillId | typeof skillVotes.skillId) =>
    sql`${column} = any(string_to_array(${ids.join(',')}, ',')::int[])`;
  const ratings = await app.db
    .select({
      skillId: skillRatings.skillId,
      stars: sql<number[]>`array[${sql.join(
        [1, 2, 3, 4, 5].map((n) => sql`count(*) filter (where ${skillRatings.stars} = ${sql.raw(String(n))})::int`),
        sql`, `,
      )}]`,
      feedback: sql<number>`count(${skillRatings.feedback})::int`,
    })
    .from(skillRatings)
    .where(among(skillRatings.skillId))
    .groupBy(skillRatings.skillId);
  for (const r of ratings) Object.assign(stats.get(r.skillId)!, { stars: r.stars, feedback: r.feedback });
  const usage = await app.db
    .select({ skillId: skillUsage.skillId, total: sql<number>`sum(${skillUsage.count})::int` })
    .from(skillUsage)
    .where(
      and(
        among(skillUsage.skillId),
        duration < 0 ? undefined : sql`${skillUsage.day} > current_date - ${duration}::int`,
      ),
    )
    .groupBy(skillUsage.skillId);
  for (const u of usage) stats.get(u.skillId)!.usage = u.total;
  const votes = await app.db
    .select({
      skillId: skillVotes.skillId,
      positive: sql<number>`count(*) filter (where ${skillVotes.positive})::int`,
      negative: sql<number>`count(*) filter (where not ${skillVotes.positive})::int`,
    })
    .from(skillVotes)
    .where(among(skillVotes.skillId))
    .groupBy(skillVotes.skillId);
  for (const v of votes) Object.assign(stats.get(v.skillId)!, { positive: v.positive, negative: v.negative });
  return [...stats];
}

import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skillRatings, skills, skillVotes } from '../../db/schema/index.js';
import { AssistantError } from './identity.js';
import { javaTimestamp } from './reference-time.js';
import { assistantRoute, params, SKILL_PARAMS } from './route.js';
import { feedbackRoutes } from './skill-feedback.js';
import { existingSkill } from './skill-lookup.js';
import type { SkillRepo } from './skill-repo.js';
import { usageRoutes } from './skill-usage.js';

const STAR_NAMES = ['one_star', 'two_star', 'three_star', 'four_star', 'five_star'] as const;

/** The star summary of a skill as the reference's `skill_rating.stars`. */
async function starsOf(app: FastifyInstance, skillId: number) {
  const rows = await app.db
    .select({ stars: skillRatings.stars, n: sql<number>`count(*)::int` })
    .from(skillRatings)
    .where(and(eq(skillRatings.skillId, skillId), isNotNull(skillRatings.stars)))
    .groupBy(skillRatings.stars);
  const counts = [0, 0, 0, 0, 0];
  for (const r of rows) counts[r.stars! - 1] = r.n;
  const total = counts.reduce((a, b) => a + b, 0);
  const avg = total === 0 ? 0 : counts.reduce((sum, n, i) => sum + n * (i + 1), 0) / total;
  return {
    ...Object.fromEntries(STAR_NAMES.map((name, i) => [name, counts[i]!])),
    avg_star: Math.round(avg * 100) / 100,
    total_star: total,
  };
}

/**
 * Ratings of skills: five stars per user (with the reads of the skill page, the user's rating and the
 * profile's list), the old positive/negative votes, and (from their own files) feedback, reports and usage.
 */
export async function ratingRoutes(app: FastifyInstance, repo: SkillRepo) {
  assistantRoute(
    app,
    {
      url: '/cms/fiveStarRateSkill.json',
      method: ['GET', 'POST'],
      operationId: 'fiveStarRateSkill',
      params: { ...SKILL_PARAMS, ...params({ stars: '1 to 5' }) },
      failures: [400, 401, 422],
      summary: 'Rate a skill with 1 to 5 stars',
      description:
        'One rating per user and skill; a second call changes it. `model`, `group`, `language`, `skill`, `stars`.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const { row } = await existingSkill(app, repo, params);
      if (params.stars === undefined) throw new AssistantError(422, 'Rating not provided.');
      if (!/^[1-5]$/.test(params.stars)) throw new AssistantError(422, 'Stars must be a whole number from 1 to 5.');
      const stars = Number(params.stars);
      const now = new Date();
      await app.db
        .insert(skillRatings)
        .values({ skillId: row.id, userId: caller!.id, stars, starsAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [skillRatings.skillId, skillRatings.userId],
          set: { stars, starsAt: now, updatedAt: now },
        });
      return { accepted: true, message: 'Skill ratings updated', ratings: await starsOf(app, row.id) };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getRatingByUser.json',
      method: 'GET',
      operationId: 'getRatingByUser',
      params: SKILL_PARAMS,
      failures: [401, 422],
      summary: "The caller's stars for a skill",
      description: '`ratings: {email, stars, timestamp}` when the caller rated the skill; else only the message.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const { row } = await existingSkill(app, repo, params);
      const [rating] = await app.db
        .select({
          stars: skillRatings.stars,
          at: sql<Date>`coalesce(${skillRatings.starsAt}, ${skillRatings.updatedAt})`.mapWith(skillRatings.updatedAt),
        })
        .from(skillRatings)
        .where(
          and(eq(skillRatings.skillId, row.id), eq(skillRatings.userId, caller!.id), isNotNull(skillRatings.stars)),
        );
      if (!rating) return { accepted: true, message: 'Skill not yet rated by the user' };
      return {
        accepted: true,
        message: 'Fetched user rating successfully',
        ratings: { email: caller!.email, stars: rating.stars, timestamp: javaTimestamp(rating.at) },
      };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getRatingsOverTime.json',
      method: 'GET',
      operationId: 'getRatingsOverTime',
      params: SKILL_PARAMS,
      failures: [422],
      summary: 'Average stars per month',
      description:
        '`ratings_over_time: [{rating, count, timestamp}]`, one entry per month, oldest first: the average and number of the ' +
        'ratings last given in that month and the time of the first of them. A changed rating counts once, in the month of its change ' +
        '(the reference counted every call again).',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const { ref, row } = await existingSkill(app, repo, params);
      const at = sql`coalesce(${skillRatings.starsAt}, ${skillRatings.updatedAt})`;
      const months = await app.db
        .select({
          rating: sql<number>`round(avg(${skillRatings.stars}), 2)::float8`,
          count: sql<number>`count(*)::int`,
          first: sql<Date>`min(${at})`.mapWith(skillRatings.updatedAt),
        })
        .from(skillRatings)
        .where(and(eq(skillRatings.skillId, row.id), isNotNull(skillRatings.stars)))
        .groupBy(sql`date_trunc('month', ${at}, 'UTC')`)
        .orderBy(sql`date_trunc('month', ${at}, 'UTC')`);
      if (months.length === 0)
        return { skill_name: ref.name, accepted: false, message: 'Skill has not been rated yet' };
      const ratings_over_time = months.map((m) => ({
        rating: m.rating,
        count: m.count,
        timestamp: javaTimestamp(m.first),
      }));
      return { skill_name: ref.name, ratings_over_time, accepted: true, message: 'Ratings over time fetched' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getProfileDetails.json',
      method: 'GET',
      operationId: 'getProfileDetails',
      failures: [401],
      summary: 'The skills the caller rated',
      description:
        '`rated_skills: [{<skill>: {stars, timestamp, group, language}}]`, latest first; `accepted: false` when there are none.',
      minimal: 'user',
    },
    async ({ caller }) => {
      const rated = await app.db
        .select({
          name: skills.name,
          group: skills.group,
          language: skills.language,
          stars: skillRatings.stars,
          at: sql<Date>`coalesce(${skillRatings.starsAt}, ${skillRatings.updatedAt})`.mapWith(skillRatings.updatedAt),
        })
        .from(skillRatings)
        .innerJoin(skills, eq(skills.id, skillRatings.skillId))
        .where(and(eq(skillRatings.userId, caller!.id), isNotNull(skillRatings.stars)))
        .orderBy(desc(sql`coalesce(${skillRatings.starsAt}, ${skillRatings.updatedAt})`), skills.id);
      if (rated.length === 0) return { accepted: false, message: 'User has not rated any Skills yet.' };
      const rated_skills = rated.map((r) => ({
        [r.name]: { stars: r.stars, timestamp: javaTimestamp(r.at), group: r.group, language: r.language },
      }));
      return { rated_skills, accepted: true, message: 'User ratings fetched.' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/rateSkill.json',
      method: ['GET', 'POST'],
      operationId: 'rateSkill',
      params: { ...SKILL_PARAMS, ...params({ rating: '`positive` or `negative`' }) },
      failures: [422],
      summary: 'Vote a skill up or down',
      description:
        'Anonymous as in the reference, but one vote per caller (a signed-in user, else the address): a second vote replaces ' +
        'the first (the reference counted every call). "Skill ratings added" for a first vote, "Skill ratings updated" after.',
      minimal: 'anonymous',
    },
    async ({ params, caller, request }) => {
      const { row } = await existingSkill(app, repo, params);
      if (params.rating !== 'positive' && params.rating !== 'negative')
        throw new AssistantError(422, 'Rating must be positive or negative.');
      const voter = caller ? `user:${caller.id}` : `ip:${request.ip}`.slice(0, 100);
      const positive = params.rating === 'positive';
      const [earlier] = await app.db
        .select({ positive: skillVotes.positive })
        .from(skillVotes)
        .where(and(eq(skillVotes.skillId, row.id), eq(skillVotes.voter, voter)));
      await app.db
        .insert(skillVotes)
        .values({ skillId: row.id, voter, positive })
        .onConflictDoUpdate({ target: [skillVotes.skillId, skillVotes.voter], set: { positive, votedAt: new Date() } });
      return { accepted: true, message: earlier ? 'Skill ratings updated' : 'Skill ratings added' };
    },
  );

  await feedbackRoutes(app, repo);
  await usageRoutes(app, repo);
}

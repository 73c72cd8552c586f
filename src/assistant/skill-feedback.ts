import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skillRatings, skillReports, skills, users } from '../../db/schema/index.js';
import { AssistantError } from './identity.js';
import { javaTimestamp } from './reference-time.js';
import { assistantRoute, params, SKILL_PARAMS } from './route.js';
import { parseSkillMetadata } from './skill-file.js';
import { existingSkill, skillFileOf, skillRefOf } from './skill-lookup.js';
import { checkedName, type SkillRepo } from './skill-repo.js';

const MAX_TEXT = 5000;

/** A feedback or report text: trimmed, present (the reference's 422 otherwise) and bounded. */
function textOf(value: string | undefined): string {
  const text = value?.trim();
  if (!text) throw new AssistantError(422, 'Feedback not provided.');
  if (text.length > MAX_TEXT) throw new AssistantError(422, `Feedback is longer than ${MAX_TEXT} characters.`);
  return text;
}

/**
 * The address of a feedback's author as an anonymous reader sees it: the reference published whole
 * addresses, but both its clients show only `name@...` of another user's address (susi_skill_cms
 * SkillFeedbackCard.js:256, susi_android Utils.setUsername), so that is all that leaves the server.
 * The caller's own feedback keeps the whole address: the clients find it by comparing it with theirs.
 */
export const maskedEmail = (email: string) => `${email.slice(0, email.indexOf('@') + 1)}...`;

/** Feedback texts (one per user and skill, changeable and removable), and reports of a skill (one per user). */
export async function feedbackRoutes(app: FastifyInstance, repo: SkillRepo) {
  assistantRoute(
    app,
    {
      url: '/cms/feedbackSkill.json',
      method: ['GET', 'POST'],
      operationId: 'feedbackSkill',
      params: { ...SKILL_PARAMS, ...params({ feedback: 'the feedback text' }) },
      failures: [400, 401, 422],
      summary: 'Leave feedback on a skill',
      description: 'One feedback text per user and skill; a second call replaces it.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const { row } = await existingSkill(app, repo, params);
      const feedback = textOf(params.feedback);
      const now = new Date();
      await app.db
        .insert(skillRatings)
        .values({ skillId: row.id, userId: caller!.id, feedback, feedbackAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: [skillRatings.skillId, skillRatings.userId],
          set: { feedback, feedbackAt: now, updatedAt: now },
        });
      return { accepted: true, message: 'Skill feedback updated', feedback };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getSkillFeedback.json',
      method: 'GET',
      operationId: 'getSkillFeedback',
      params: SKILL_PARAMS,
      failures: [422],
      summary: 'The feedback of a skill',
      description:
        "`feedback: [{email, feedback, timestamp, rating, avatar, user_name}]`, oldest first; `rating` is the author's stars (0 for none). " +
        "Another user's `email` is only `name@...` (what the reference's clients show of it); the caller's own is whole.",
      minimal: 'anonymous',
    },
    async ({ params, caller }) => {
      const { ref, row } = await existingSkill(app, repo, params);
      const list = await app.db
        .select({
          userId: skillRatings.userId,
          email: users.email,
          feedback: skillRatings.feedback,
          stars: skillRatings.stars,
          at: sql<Date>`coalesce(${skillRatings.feedbackAt}, ${skillRatings.updatedAt})`.mapWith(
            skillRatings.updatedAt,
          ),
          avatar: users.avatarUrl,
          userName: sql<string | null>`coalesce(${users.publicName}, ${users.name})`,
        })
        .from(skillRatings)
        .innerJoin(users, eq(users.id, skillRatings.userId))
        .where(and(eq(skillRatings.skillId, row.id), isNotNull(skillRatings.feedback), isNull(users.deletedAt)))
        .orderBy(asc(sql`coalesce(${skillRatings.feedbackAt}, ${skillRatings.updatedAt})`), asc(skillRatings.userId));
      const feedback = list.map((f) => ({
        email: f.userId === caller?.id ? f.email : maskedEmail(f.email),
        feedback: f.feedback,
        timestamp: javaTimestamp(f.at),
        rating: f.stars ?? 0,
        avatar: f.avatar ?? '',
        user_name: f.userName ?? '',
      }));
      if (feedback.length === 0)
        return { skill_name: ref.name, feedback, accepted: false, message: "Skill hasn't been given any feedback" };
      return { skill_name: ref.name, feedback, accepted: true, message: 'Skill feedback fetched' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/removeFeedback.json',
      method: ['GET', 'POST'],
      operationId: 'removeFeedback',
      params: SKILL_PARAMS,
      failures: [401, 422],
      summary: "Remove the caller's feedback on a skill",
      description:
        'Only the caller\'s own, as in the reference (their stars stay). "Skill feedback missing" when there was none.',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const { row } = await existingSkill(app, repo, params);
      const mine = and(eq(skillRatings.skillId, row.id), eq(skillRatings.userId, caller!.id));
      const removed = await app.db
        .update(skillRatings)
        .set({ feedback: null, feedbackAt: null, updatedAt: new Date() })
        .where(and(mine, isNotNull(skillRatings.feedback)))
        .returning({ stars: skillRatings.stars });
      // A row left with neither stars nor feedback says nothing.
      await app.db.delete(skillRatings).where(and(mine, isNull(skillRatings.stars), isNull(skillRatings.feedback)));
      return { accepted: true, message: removed.length > 0 ? 'Skill feedback updated' : 'Skill feedback missing' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/reportSkill.json',
      method: ['GET', 'POST'],
      operationId: 'reportSkill',
      params: { ...SKILL_PARAMS, ...params({ feedback: 'what is wrong with the skill' }) },
      failures: [401, 422],
      summary: 'Report a skill to the administrators',
      description: 'One report per user and skill (422 "Skill already reported by the user." for a second).',
      minimal: 'user',
    },
    async ({ params, caller }) => {
      const { row } = await existingSkill(app, repo, params);
      const feedback = textOf(params.feedback);
      const mine = and(eq(skillReports.skillId, row.id), eq(skillReports.userId, caller!.id));
      // Refused without a write (a second report of two at once still finds the conflict below).
      const [reported] = await app.db.select({ at: skillReports.createdAt }).from(skillReports).where(mine).limit(1);
      if (reported) throw new AssistantError(422, 'Skill already reported by the user.');
      const added = await app.db
        .insert(skillReports)
        .values({ skillId: row.id, userId: caller!.id, feedback })
        .onConflictDoNothing()
        .returning({ skillId: skillReports.skillId });
      if (added.length === 0) throw new AssistantError(422, 'Skill already reported by the user.');
      return { accepted: true, message: 'Skill reported successfully', feedback };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getReportSkill.json',
      method: 'GET',
      operationId: 'getReportSkill',
      params: params({ search: 'only the skill of this name' }),
      failures: [401],
      summary: 'Reported skills (operators)',
      description:
        '`list: [{skill_name, group, language, model, editable, reviewed, author, type, reports: [{feedback, email}]}]`.',
      minimal: 'operator',
    },
    async ({ params }) => {
      const search = params.search ? checkedName('skill', params.search) : undefined;
      const rows = await app.db
        .select({ skill: skills, feedback: skillReports.feedback, email: users.email })
        .from(skillReports)
        .innerJoin(skills, eq(skills.id, skillReports.skillId))
        .innerJoin(users, eq(users.id, skillReports.userId))
        .where(search === undefined ? undefined : eq(skills.name, search))
        .orderBy(skills.id, skillReports.createdAt);
      const bySkill = new Map<
        number,
        { skill: typeof skills.$inferSelect; reports: { feedback: string; email: string }[] }
      >();
      for (const r of rows) {
        const entry =
          bySkill.get(r.skill.id) ?? bySkill.set(r.skill.id, { skill: r.skill, reports: [] }).get(r.skill.id)!;
        entry.reports.push({ feedback: r.feedback, email: r.email });
      }
      const list = [];
      for (const { skill, reports } of bySkill.values()) {
        list.push({
          skill_name: skill.name,
          group: skill.group,
          language: skill.language,
          model: skill.model,
          editable: skill.editable,
          reviewed: skill.reviewed,
          author: await authorOf(repo, skill),
          type: 'Public',
          reports,
        });
      }
      return { list, accepted: true, message: 'Success: Fetched all Reported Skills' };
    },
  );
}

/** The `::author` of a skill's file (the reference's metadata `author`; never the e-mail address), null without one. */
async function authorOf(repo: SkillRepo, skill: typeof skills.$inferSelect): Promise<string | null> {
  const file = await skillFileOf(
    repo,
    skillRefOf(repo, { model: skill.model, group: skill.group, language: skill.language, skill: skill.name }),
  );
  return file ? parseSkillMetadata(await repo.read(file.path)).author : null;
}

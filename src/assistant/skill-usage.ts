import { asc, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skillCountryUsage, skillDeviceUsage, skillUsage } from '../../db/schema/index.js';
import { AssistantError } from './identity.js';
import { assistantRoute, params, SKILL_PARAMS } from './route.js';
import { existingSkill } from './skill-lookup.js';
import type { SkillRepo } from './skill-repo.js';
import { countryNameOf } from './usage.js';

const NOT_USED = 'Skill has not been used yet';

/** The usage of a skill per day, per country and per device type, as the skill page's charts read it. */
export async function usageRoutes(app: FastifyInstance, repo: SkillRepo) {
  assistantRoute(
    app,
    {
      url: '/cms/getSkillUsage.json',
      method: 'GET',
      operationId: 'getSkillUsage',
      params: { ...SKILL_PARAMS, ...params({ duration: 'how many of the latest days with uses (7)' }) },
      failures: [422],
      summary: 'Uses of a skill per day',
      description:
        '`skill_usage: [{date, count}]` for the latest `duration` days on which the skill was used, oldest first; ' +
        '`count` is a string as in the reference. `accepted: false` when the skill was never used.',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const { ref, row } = await existingSkill(app, repo, params);
      const raw = params.duration ?? '7';
      if (!/^\d{1,5}$/.test(raw)) throw new AssistantError(422, 'Invalid duration value.');
      const used = eq(skillUsage.skillId, row.id);
      const days = await app.db
        .select({ date: skillUsage.day, count: skillUsage.count })
        .from(skillUsage)
        .where(used)
        .orderBy(desc(skillUsage.day))
        .limit(Number(raw));
      const [ever] =
        days.length > 0 ? days : await app.db.select({ date: skillUsage.day }).from(skillUsage).where(used).limit(1);
      if (!ever) return { skill_name: ref.name, accepted: false, message: NOT_USED };
      const skill_usage = days.reverse().map((d) => ({ date: d.date, count: String(d.count) }));
      return { skill_name: ref.name, skill_usage, accepted: true, message: 'Skill usage fetched' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getCountryWiseSkillUsage.json',
      method: 'GET',
      operationId: 'getCountryWiseSkillUsage',
      params: SKILL_PARAMS,
      failures: [422],
      summary: 'Uses of a skill per country',
      description:
        '`skill_usage: [{country_code, country_name, count}]`, most uses first; only chats that named their country count.',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const { ref, row } = await existingSkill(app, repo, params);
      const countries = await app.db
        .select({ code: skillCountryUsage.countryCode, count: skillCountryUsage.count })
        .from(skillCountryUsage)
        .where(eq(skillCountryUsage.skillId, row.id))
        .orderBy(desc(skillCountryUsage.count), asc(skillCountryUsage.countryCode));
      if (countries.length === 0) return { skill_name: ref.name, accepted: false, message: NOT_USED };
      const skill_usage = countries.map((c) => ({
        country_code: c.code,
        country_name: countryNameOf(c.code),
        count: c.count,
      }));
      return { skill_name: ref.name, skill_usage, accepted: true, message: 'Country wise skill usage fetched' };
    },
  );

  assistantRoute(
    app,
    {
      url: '/cms/getDeviceWiseSkillUsage.json',
      method: 'GET',
      operationId: 'getDeviceWiseSkillUsage',
      params: SKILL_PARAMS,
      failures: [422],
      summary: 'Uses of a skill per device type',
      description:
        '`skill_usage: [{device_type, count}]`, most uses first (`Others` for chats that named no device type).',
      minimal: 'anonymous',
    },
    async ({ params }) => {
      const { ref, row } = await existingSkill(app, repo, params);
      const devices = await app.db
        .select({ device_type: skillDeviceUsage.deviceType, count: skillDeviceUsage.count })
        .from(skillDeviceUsage)
        .where(eq(skillDeviceUsage.skillId, row.id))
        .orderBy(desc(skillDeviceUsage.count), asc(skillDeviceUsage.deviceType));
      if (devices.length === 0) return { skill_name: ref.name, accepted: false, message: NOT_USED };
      return { skill_name: ref.name, skill_usage: devices, accepted: true, message: 'Device wise skill usage fetched' };
    },
  );
}

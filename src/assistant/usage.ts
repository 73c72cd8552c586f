import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { skillUsage } from '../../db/schema/index.js';

/** Where a use of a skill came from (the chat request's client), when known. */
export interface UsageSource {
  deviceType?: string;
  countryCode?: string;
}

/** Counts one use of a skill today (the reference counts each chat answer a skill gave). */
export async function recordUsage(app: FastifyInstance, skillId: number, _source: UsageSource = {}) {
  await app.db
    .insert(skillUsage)
    .values({ skillId, day: sql`current_date`, count: 1 })
    .onConflictDoUpdate({ target: [skillUsage.skillId, skillUsage.day], set: { count: sql`${skillUsage.count} + 1` } });
}

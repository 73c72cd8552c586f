import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../db/schema/index.js';
import { forbidden } from './jsonapi/errors.js';
import { buildModel } from './jsonapi/model.js';
import { userResource } from './resources/users/index.js';
import { isStaff } from './auth/caller.js';

/**
 * Baseline routes for `make bench` (mounted only with BENCH_ROUTES=true): the same authentication
 * and the same SQL as the JSON:API route, through the same driver, answering the raw rows, so the
 * ratio between the two measures what the JSON:API layer costs.
 */
export default async function benchRoutes(app: FastifyInstance) {
  const model = buildModel(userResource);
  app.get('/bench/baseline/users', { schema: { hide: true } }, async (request) => {
    await app.authenticate(request);
    if (!isStaff(request.caller)) throw forbidden('Admin access is required');
    const where = model.live!;
    return app.db
      .select({ ...model.selection, __count: sql<number>`(select count(*) from ${users} where ${where})`.mapWith(Number) })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(20)
      .offset(0);
  });
}

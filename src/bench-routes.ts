import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../db/schema/index.js';
import { requireStaff } from './auth/caller.js';
import { fetchRelated, relatedCondition } from './jsonapi/loader.js';
import { Registry } from './jsonapi/model.js';
import { findRow, pageRows } from './jsonapi/operations.js';
import { listQuerySchema, parseListQuery, type RawQuery } from './jsonapi/query.js';
import type { ToManySpec } from './jsonapi/resource.js';
import { resources } from './resources/index.js';

/**
 * Baseline routes for `make bench` (mounted only with BENCH_ROUTES=true): the same authentication
 * and the same SQL as the JSON:API route, through the same driver, answering the raw rows, so the
 * ratio between the two measures what the JSON:API layer costs.
 */
export default async function benchRoutes(app: FastifyInstance) {
  const registry = new Registry(resources);
  const userModel = registry.get('user');
  app.get('/bench/baseline/users', { schema: { hide: true } }, async (request) => {
    await app.authenticate(request);
    requireStaff(request);
    const where = userModel.live!;
    return app.db
      .select({ ...userModel.selection, __count: sql<number>`(select count(*) from ${users} where ${where})`.mapWith(Number) })
      .from(users)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(20)
      .offset(0);
  });

  // GET /v1/events/{id}/sessions?include=speakers,track: the event, a page of its sessions, their
  // speakers and their tracks, as rows.
  const events = registry.get('event');
  const sessions = registry.get('session');
  const querystring = listQuerySchema(registry);
  app.get('/bench/baseline/events/:id/sessions', { schema: { hide: true, querystring } }, async (request) => {
    await app.authenticate(request);
    const ctx = { caller: request.caller, db: app.db, request };
    const event = await findRow(ctx, events, (request.params as { id: string }).id);
    const query = parseListQuery(registry, sessions, request.query as RawQuery);
    const base = relatedCondition(ctx, sessions, events.relationships.get('sessions') as ToManySpec, event.id);
    const { rows, count } = await pageRows(ctx, registry, sessions, query, base);
    const speakers = await fetchRelated(ctx, registry, sessions.relationships.get('speakers')!, rows);
    const tracks = await fetchRelated(ctx, registry, sessions.relationships.get('track')!, rows);
    return { event, count, rows, speakers, tracks };
  });
}

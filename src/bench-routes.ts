import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { settings } from '../db/schema/index.js';
import { checkLogin, type LoginLimits } from './auth/login.js';
import { notFound } from './jsonapi/errors.js';
import { fetchRelated, relatedCondition } from './jsonapi/loader.js';
import type { Model } from './jsonapi/model.js';
import { Registry } from './jsonapi/model.js';
import { findRow, pageRows } from './jsonapi/operations.js';
import { listQuerySchema, parseDocumentQuery, parseListQuery, type IncludeTree, type RawQuery } from './jsonapi/query.js';
import type { Row, ToManySpec } from './jsonapi/resource.js';
import { resources } from './resources/index.js';

const isLoopback = (address: string | undefined) =>
  !!address && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/**
 * Baseline routes for `make bench` (mounted only with BENCH_ROUTES=true): the same authentication
 * and the same SQL as a JSON:API read, through the same driver, answering the raw rows, so the
 * ratio between the two measures what the JSON:API layer costs (documents, links, serialisation).
 * `/bench/baseline/<path>` mirrors `GET /v1/<path>` for a list, a record, or a record's related list.
 * Raw rows skip every policy that shapes documents (the settings row holds its secrets), so they
 * exist only for callers on this machine, where the bench runs.
 */
export default async function benchRoutes(app: FastifyInstance, { loginLimits, listAllMax }: { loginLimits: LoginLimits; listAllMax: number }) {
  // Both the peer and, behind TRUST_PROXY, the client it speaks for; to others as if there were no route.
  app.addHook('onRequest', async (request) => {
    if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.ip)) {
      throw notFound(`No route for ${request.method} ${request.url.split('?')[0]}`);
    }
  });
  const registry = new Registry(resources);
  const byPath = new Map([...registry.models.values()].map((m) => [m.spec.path, m]));
  const querystring = listQuerySchema(registry, listAllMax);

  const contextOf = async (request: FastifyRequest) => {
    await app.authenticate(request);
    return { caller: request.caller, db: app.db, request };
  };
  type Ctx = Awaited<ReturnType<typeof contextOf>>;
  const modelAt = (path: string): Model => {
    const model = byPath.get(path);
    if (!model) throw Object.assign(new Error(`no resource at ${path}`), { statusCode: 404 });
    return model;
  };
  /** Included relationships as rows, one statement each: what the JSON:API read loads, unserialised. */
  const includes = async (ctx: Ctx, model: Model, rows: Row[], include: IncludeTree) => {
    const found: Record<string, Row[]> = {};
    for (const name of include.keys()) found[name] = await fetchRelated(ctx, registry, model.relationships.get(name)!, rows);
    return found;
  };

  // The settings record (a site route, not a generic resource): the same select, no document.
  app.get('/bench/baseline/settings/:id', { schema: { hide: true } }, async (request) => {
    await contextOf(request);
    return (await app.db.select().from(settings).where(eq(settings.id, 1)))[0];
  });

  // Login without the token: the same limiter, select and password hash, so the ratio shows what else login costs.
  app.post('/bench/baseline/login', { schema: { hide: true } }, async (request) => {
    const { email, password } = request.body as { email: string; password: string };
    return { verified: (await checkLogin(app, loginLimits, { email, password, ip: request.ip })) !== null };
  });

  app.get('/bench/baseline/:path', { schema: { hide: true, querystring } }, async (request) => {
    const ctx = await contextOf(request);
    const model = modelAt((request.params as { path: string }).path);
    model.spec.policy.list(ctx);
    const query = parseListQuery(registry, model, request.query as RawQuery, listAllMax);
    const { rows, count } = await pageRows(ctx, registry, model, query);
    return { count, rows, included: await includes(ctx, model, rows, query.include) };
  });

  app.get('/bench/baseline/:path/:id', { schema: { hide: true } }, async (request) => {
    const ctx = await contextOf(request);
    const { path, id } = request.params as { path: string; id: string };
    const model = modelAt(path);
    const row = await findRow(ctx, model, id);
    await model.spec.policy.read(ctx, row);
    const query = parseDocumentQuery(registry, model, request.query as RawQuery);
    return { row, included: await includes(ctx, model, [row], query.include) };
  });

  app.get('/bench/baseline/:path/:id/:name', { schema: { hide: true, querystring } }, async (request) => {
    const ctx = await contextOf(request);
    const { path, id, name } = request.params as { path: string; id: string; name: string };
    const model = modelAt(path);
    const rel = model.relationships.get(name) as ToManySpec | undefined;
    if (rel?.kind !== 'toMany') throw Object.assign(new Error(`no list ${name}`), { statusCode: 404 });
    const row = await findRow(ctx, model, id);
    await model.spec.policy.read(ctx, row);
    await rel.guard?.(ctx, row);
    const target = registry.get(rel.type);
    target.spec.policy.list(ctx);
    const query = parseListQuery(registry, target, request.query as RawQuery, listAllMax);
    const { rows, count } = await pageRows(ctx, registry, target, query, relatedCondition(ctx, target, rel, row.id));
    return { count, rows, included: await includes(ctx, target, rows, query.include) };
  });
}

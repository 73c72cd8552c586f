import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Db } from '../../plugins/db.js';
import { forbidden, RETRY_AFTER } from './errors.js';
import { selectionFor, type Model, type Registry } from './model.js';
import { pascal } from './names.js';
import {
  attributeValues, checkRelated, foreignKeyValues, linkageIds, listRows, replaceToMany, rethrowDbError,
} from './operations.js';
import { parseListQuery, type RawQuery } from './query.js';
import { dropReadOnly } from './read-only.js';
import { componentIds } from './resource-schemas.js';
import type { Ctx, Row, WriteInput } from './resource.js';
import { jsonapiMember as jsonapi, MEDIA_TYPE } from './schemas.js';
import { API_PREFIX, selfLink, toResource, type Linkage } from './serialize.js';
import { registerDetailRoutes } from './detail-routes.js';
import { registerRelationshipRoutes } from './relationship-routes.js';
import { registerViewRoutes } from './view-routes.js';

export interface QuerySchemas {
  list: TObject;
  document: TObject;
  linkage: TObject;
}

/** What the OpenAPI document says about one JSON:API operation, and the options of its route. */
export interface OperationOptions {
  tag: string;
  operationId: string;
  summary: string;
  description: string;
  errors: number[];
  success: Record<number, unknown>;
  params?: TObject;
  querystring?: TObject;
  body?: unknown;
}

/** Route options of a JSON:API operation: content negotiation and authentication run before it. */
export const operation = (o: OperationOptions): RouteShorthandOptions => ({
  config: { jsonapi: true },
  schema: {
    tags: [o.tag],
    operationId: o.operationId,
    summary: o.summary,
    description: o.description,
    produces: [MEDIA_TYPE],
    ...(o.body ? { consumes: [MEDIA_TYPE], body: o.body } : {}),
    ...(o.params ? { params: o.params } : {}),
    ...(o.querystring ? { querystring: o.querystring } : {}),
    response: {
      ...Object.fromEntries(Object.entries(o.success).map(([c, schema]) => [c, { description: 'Success', ...(schema as object) }])),
      // Any body over Fastify's limit is refused before the handler runs; negotiation refuses a body of
      // another type on every method, GET included (415); a path or query parameter its schema refuses
      // (an over-long id) is 400.
      ...errorResponses([...o.errors, 415, ...(o.body ? [413] : []), ...(o.params || o.querystring ? [400] : [])]),
    },
  },
});

export interface RouteKit {
  app: FastifyInstance;
  registry: Registry;
  model: Model;
  queries: QuerySchemas;
  /** The most records `page[size]=0` returns (LIST_ALL_MAX). */
  listAllMax: number;
  ctx(request: FastifyRequest, db?: Db): Ctx;
  /** Route options of an operation of this resource (`params`: its id, or alternate key, in the path). */
  options(o: Omit<OperationOptions, 'tag' | 'params'> & { params?: boolean }): RouteShorthandOptions;
}

export interface ResourceBody {
  data: { id?: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data: Linkage }> };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The body is not JSON, or a query or path parameter is invalid',
  401: 'The token is missing, invalid or expired, or its account is gone',
  403: 'The caller may not do this',
  404: 'Object not found',
  405: 'The path does not support this method',
  406: 'Accept excludes application/vnd.api+json',
  409: 'The type or id does not match, or the record conflicts with another',
  413: 'The request is too large',
  415: 'Content-Type is not exactly application/vnd.api+json',
  422: 'The document fails validation',
  503: 'The database (or another service the request needs) is down for a moment; nothing was done. `Retry-After` says when to try again',
};

/**
 * Error responses of an operation for the OpenAPI document; all share the ErrorDocument shape and,
 * like every failure the error handler renders, the JSON:API media type even where success is plain JSON.
 * Every operation that uses the database may answer 503 (with Retry-After) while it is down, so that
 * one is always there unless `database` is false.
 */
export const errorResponses = (codes: number[], descriptions: Record<number, string> = {}, { database = true } = {}) =>
  Object.fromEntries(
    [...new Set([...codes, ...(database ? [503] : [])])].map((c) => [
      c,
      {
        description: descriptions[c] ?? ERROR_DESCRIPTIONS[c] ?? 'Error',
        ...(c === 503 || c === 429 ? { headers: RETRY_AFTER } : {}),
        content: { [MEDIA_TYPE]: { schema: Type.Ref('ErrorDocument') } },
      },
    ]),
  );

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'id of the record' }) });
/** Path parameters of a resource whose records may also be named by their alternate key. */
const alternateParams = (model: Model) =>
  Type.Object({
    id: Type.String({ minLength: 1, maxLength: 64, description: `id or ${model.spec.alternateKey} of the ${model.type}` }),
  });

export const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

export function writeInput(data: ResourceBody['data']): WriteInput {
  const relationships: WriteInput['relationships'] = {};
  for (const [name, member] of Object.entries(data.relationships ?? {})) relationships[name] = linkageIds(member.data);
  return { attributes: data.attributes ?? {}, relationships };
}

export function routeKit(app: FastifyInstance, registry: Registry, model: Model, queries: QuerySchemas, listAllMax: number): RouteKit {
  return {
    app,
    registry,
    model,
    queries,
    listAllMax,
    ctx: (request, db = app.db) => ({ caller: request.caller, db, request }),
    options: ({ params, ...o }) =>
      operation({
        ...o,
        tag: model.spec.tag,
        ...(params ? { params: model.spec.alternateKey ? alternateParams(model) : IdParams } : {}),
      }),
  };
}

/**
 * Inserts a record in one transaction: the policy's create check, related records, hooks, join rows.
 * `prepare` turns the request into the write input inside that transaction (it may read and refuse).
 */
export async function createResource(
  kit: RouteKit,
  model: Model,
  request: FastifyRequest,
  prepare: (ctx: Ctx) => WriteInput | Promise<WriteInput>,
): Promise<Row> {
  const { app, registry } = kit;
  const { spec } = model;
  return app.db
    .transaction(async (tx) => {
      const ctx = kit.ctx(request, tx);
      const input = await prepare(ctx);
      await dropReadOnly(ctx, registry, model, input);
      await spec.policy.create(ctx, input);
      await checkRelated(ctx, registry, model, input.relationships);
      const values = await attributeValues(model, input.attributes);
      foreignKeyValues(registry, model, input.relationships, values);
      await spec.hooks?.beforeCreate?.(ctx, values, input);
      const [created] = (await tx.insert(model.table).values(values).returning(selectionFor(ctx, model))) as Row[];
      await replaceToMany(ctx, registry, model, created!.id, input.relationships);
      await spec.hooks?.afterCreate?.(ctx, created!, input);
      return created!;
    })
    .catch(rethrowDbError(model));
}

/** The 201 answer to a create: the new record and its Location. */
export function createdDocument(reply: FastifyReply, model: Model, row: Row) {
  const self = selfLink(model, row.id);
  reply.code(201).header('Location', self);
  return { data: toResource(model, row, new Map()), links: { self }, jsonapi };
}

/** The body's resource object, refusing client-generated ids. */
export function newResourceData(request: FastifyRequest) {
  const { data } = request.body as ResourceBody;
  if (data.id !== undefined) throw forbidden('Client-generated ids are not supported', '/data/id');
  return data;
}

/** List, create, read, update and delete of one resource, generated from its declaration. */
export function registerResourceRoutes(kit: RouteKit) {
  const { app, registry, model } = kit;
  const { spec } = model;
  const ids = componentIds(model);
  const base = `${API_PREFIX}/${spec.path}`;
  const plural = pascal(spec.path);

  app.get(
    base,
    kit.options({
      operationId: `list${plural}`,
      summary: `List ${spec.path}`,
      description: `Pages of ${spec.path} with sort, filter, include and sparse fieldsets. ${spec.description}`,
      querystring: kit.queries.list,
      success: { 200: Type.Ref(ids.list, { description: `A page of ${spec.path}` }) },
      errors: [400, 401, 403, 406],
    }),
    async (request) => {
      const ctx = kit.ctx(request);
      spec.policy.list(ctx);
      const query = parseListQuery(registry, model, request.query as RawQuery, kit.listAllMax);
      return { ...(await listRows(ctx, registry, model, query, base, request.query as RawQuery)), jsonapi };
    },
  );

  app.post(
    base,
    kit.options({
      operationId: `create${spec.name}`,
      summary: `Create a ${spec.type}`,
      description: `Creates a ${spec.type}; answers 201 with its Location. Client-generated ids are refused (403).`,
      body: Type.Ref(ids.create),
      success: { 201: createdResponse(model) },
      errors: [400, 401, 403, 404, 406, 409, 422],
    }),
    async (request, reply) => {
      const input = writeInput(newResourceData(request));
      return createdDocument(reply, model, await createResource(kit, model, request, () => input));
    },
  );

  registerDetailRoutes(kit, spec.path, '');
  (spec.aliases ?? []).forEach((alias, i) => registerDetailRoutes(kit, alias, `Alias${i > 0 ? i + 1 : ''}`));
  registerRelationshipRoutes(kit);
  registerViewRoutes(kit);
}

/** The OpenAPI description of a 201 answer. */
export const createdResponse = (model: Model) => ({
  description: `The created ${model.type}`,
  headers: { Location: Type.String({ description: `path of the new ${model.type}` }) },
  content: { [MEDIA_TYPE]: { schema: Type.Ref(componentIds(model).document) } },
});

/** What every route registration of a resource shares: the app, its model, query schemas, the request's context. */
import type { TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Db } from '../../plugins/db.js';
import { forbidden, JsonApiError, unauthorized } from '../../plugins/http-errors.js';
import { compileFilter } from './filter.js';
import type { Model, Registry } from './model.js';
import { alternateParams, IdParams, operation, type OperationOptions } from './openapi-operations.js';
import { parseListQuery, type RawQuery } from './query.js';
import type { Ctx, WriteInput } from './resource.js';
import { linkageIds, type Linkage } from './values.js';
import type { Writer } from './write.js';

export interface QuerySchemas {
  list: TObject;
  document: TObject;
  /** A to-one related route's: a document's, plus the page parameters list clients send (no effect). */
  toOne: TObject;
  linkage: TObject;
}

export interface RouteKit extends Writer {
  app: FastifyInstance;
  model: Model;
  queries: QuerySchemas;
  /** The most records `page[size]=0` returns (LIST_ALL_MAX). */
  listAllMax: number;
  /** Route options of an operation of this resource (`params`: its id, or alternate key, in the path). */
  options(o: Omit<OperationOptions, 'tag' | 'params'> & { params?: boolean }): RouteShorthandOptions;
}

export interface ResourceBody {
  data: { id?: string; attributes?: Record<string, unknown>; relationships?: Record<string, { data: Linkage }> };
}

export const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

export function writeInput(data: ResourceBody['data']): WriteInput {
  const relationships: WriteInput['relationships'] = {};
  for (const [name, member] of Object.entries(data.relationships ?? {})) relationships[name] = linkageIds(member.data);
  return { attributes: data.attributes ?? {}, relationships };
}

/**
 * Route options renaming the relationships a write body names by their `bodyAliases` before it is validated (none
 * when the resource has no such name); an alias sent beside its relationship stays, and is refused as unknown.
 */
export function bodyAliasOptions(model: Model): Pick<RouteShorthandOptions, 'preValidation'> {
  const aliases = [...model.relationships].flatMap(([name, rel]) => (rel.bodyAliases ?? []).map((a) => [a, name]));
  if (aliases.length === 0) return {};
  return {
    async preValidation(request: FastifyRequest) {
      const relationships = (request.body as { data?: { relationships?: unknown } } | null)?.data?.relationships;
      if (!relationships || typeof relationships !== 'object' || Array.isArray(relationships)) return;
      const named = relationships as Record<string, unknown>;
      for (const [alias, name] of aliases as [string, string][])
        if (alias in named && !(name in named)) {
          named[name] = named[alias];
          delete named[alias];
        }
    },
  };
}

/** The body's resource object, refusing client-generated ids. */
export function newResourceData(request: FastifyRequest) {
  const { data } = request.body as ResourceBody;
  if (data.id !== undefined) throw forbidden('Client-generated ids are not supported', '/data/id');
  return data;
}

/**
 * Whether a read asks for soft-deleted records too (`get_trashed=true`, see `trashedParameter`): only an
 * administrator may (401 without a login, 403 for anyone else). Writes never do: they act on live records.
 */
function asksTrashed(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if ((request.query as RawQuery | undefined)?.get_trashed !== 'true') return false;
  const { caller } = request;
  if (!caller) throw unauthorized('Only administrators read deleted records (get_trashed): log in');
  if (!caller.isAdmin && !caller.isSuperAdmin)
    throw new JsonApiError(403, 'Forbidden', 'Only administrators read deleted records', { parameter: 'get_trashed' });
  return true;
}

export function routeKit(
  app: FastifyInstance,
  registry: Registry,
  model: Model,
  queries: QuerySchemas,
  listAllMax: number,
): RouteKit {
  return {
    app,
    db: app.db,
    registry,
    model,
    queries,
    listAllMax,
    ctx: (request: FastifyRequest, db: Db = app.db): Ctx => ({
      caller: request.caller,
      db,
      request,
      ...(asksTrashed(request) ? { trashed: true } : {}),
    }),
    options: ({ params, ...o }) => {
      const options = operation({
        ...o,
        tag: model.spec.tag,
        ...(params ? { params: model.spec.alternateKey ? alternateParams(model) : IdParams } : {}),
      });
      // The route table names the declaration a generated route comes from.
      return { ...options, config: { ...options.config, resource: model.spec.type } };
    },
  };
}

/**
 * Parses a read's query. When it is bad, the checks of the record the path names come first, so a
 * missing or forbidden record answers as such rather than 400.
 */
export async function parsed<T>(parse: () => T, checksFirst: () => Promise<unknown>): Promise<T> {
  try {
    return parse();
  } catch (err) {
    await checksFirst();
    throw err;
  }
}

/** A list's query and its filter compiled for this caller (400 for a bad one). */
export function listQueryOf(kit: Pick<RouteKit, 'registry' | 'listAllMax'>, ctx: Ctx, model: Model, raw: RawQuery) {
  const query = parseListQuery(kit.registry, model, raw, kit.listAllMax);
  return {
    query,
    filter: query.filter === undefined ? undefined : compileFilter(kit.registry, ctx, model, query.filter),
  };
}

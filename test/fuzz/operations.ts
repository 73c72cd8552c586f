/**
 * What the fuzzer reads from openapi/openapi.json: the operations, the resources (attributes and
 * relationships per JSON:API type, for realistic sort, filter, include and fields values), and a
 * router that tells which operation a URL reaches.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { resolve, type OpenApiDocument, type Schema } from './arbitraries.js';

export const document = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url)), 'utf8'),
) as OpenApiDocument;

const VERBS = ['get', 'put', 'post', 'patch', 'delete'];

export interface Operation {
  method: string;
  /** As the document names it: `/v1/events/{id}`. */
  path: string;
  /** As Fastify declares it: `/v1/events/:id`. */
  route: string;
  spec: Schema;
  /** As sent on the wire: a deepObject parameter (`fields`) is one parameter per key (`fields[event]`). */
  parameters: Schema[];
  /** The JSON:API type the operation answers (its primary data), when it answers resources. */
  primaryType?: string;
}

/** `/v1/events/{id}` as Fastify declares it. */
export const routeOf = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

export interface ResourceInfo {
  attributes: Record<string, Schema>;
  /** Relationship name -> the type it links to. */
  relationships: Record<string, string>;
}

/** The type a relationship's linkage names: its identifier's `type` (one, or a list; null when empty). */
function linkedType(data: Schema | undefined): string | undefined {
  if (!data) return undefined;
  const schema = resolve(document, data);
  const type = resolve(document, schema.properties?.type ?? {}).enum?.[0];
  if (typeof type === 'string') return type;
  for (const branch of [schema.items, ...(schema.anyOf ?? [])]) {
    const found = branch && linkedType(branch);
    if (found) return found;
  }
  return undefined;
}

/** JSON:API type -> its attributes and relationships, from the resource object components (all variants). */
export const resources = new Map<string, ResourceInfo>();
for (const schema of Object.values(document.components.schemas)) {
  const type = schema.properties?.attributes ? schema.properties?.type?.enum?.[0] : undefined;
  if (typeof type !== 'string') continue;
  const attributes = {
    ...resources.get(type)?.attributes,
    ...resolve(document, schema.properties.attributes).properties,
  };
  const relationships: Record<string, string> = { ...resources.get(type)?.relationships };
  for (const [rel, relSchema] of Object.entries(
    (resolve(document, schema.properties.relationships ?? {}).properties ?? {}) as Record<string, Schema>,
  )) {
    const target = linkedType(relSchema.properties?.data);
    if (target) relationships[rel] = target;
  }
  resources.set(type, { attributes, relationships });
}

/**
 * A parameter as the wire has it: a deepObject `base` (whose schema is an object of keys) is the
 * parameters `base[key]`, each with the key's schema and description.
 */
function onTheWire(parameter: Schema): Schema[] {
  if (parameter.style !== 'deepObject') return [parameter];
  const { properties, required = [] } = resolve(document, parameter.schema) as Schema;
  return Object.entries(properties as Record<string, Schema>).map(([key, { description, ...schema }]) => ({
    name: `${parameter.name}[${key}]`,
    in: parameter.in,
    description,
    required: required.includes(key),
    schema,
  }));
}

/** The type of the resources in a JSON:API answer schema (a document or a list of them). */
function primaryTypeOf(spec: Schema): string | undefined {
  const success = spec.responses?.['200'] ?? spec.responses?.['201'];
  const content = (success && resolve(document, success).content) ?? {};
  const schema = content['application/vnd.api+json']?.schema;
  if (!schema) return undefined;
  const data = resolve(document, schema).properties?.data;
  if (!data) return undefined;
  const item = resolve(document, data.items ?? data);
  const type = resolve(document, item.properties?.type ?? {}).enum?.[0];
  return typeof type === 'string' && resources.has(type) && item.properties?.attributes ? type : undefined;
}

export const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  VERBS.filter((verb) => item[verb]).map((verb) => {
    const spec = item[verb]!;
    return {
      method: verb.toUpperCase(),
      path,
      route: routeOf(path),
      spec,
      parameters: ((spec.parameters ?? []) as Schema[]).flatMap((p) => onTheWire(resolve(document, p))),
      primaryType: primaryTypeOf(spec),
    };
  }),
);

export const nameOf = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;

// Find-my-way as the app configures it (routerOptions.maxParamLength); a parameter named `path`
// that ends a URL is a wildcard in the app (stored files and exports: `/static/media/*`).
const router = FindMyWay({ maxParamLength: 500 });
/**
 * Routes whose path parameters the app declares with a pattern, because another route has the same shape
 * (`/v1/tickets/{order_identifier}`, a UUID, beside `/v1/tickets/{id}`): the pattern tells them apart, as in the app.
 */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const patterned = (op: Operation) =>
  operations.some((o) => o !== op && o.method === op.method && shape(o.path) === shape(op.path))
    ? op.parameters
        .filter((p) => p.in === 'path' && p.schema?.pattern)
        .reduce((route, p) => route.replace(`:${p.name}`, `:${p.name}(${p.schema!.pattern})`), op.route)
    : op.route;
for (const op of operations) {
  const url = patterned(op).replace(/:path$/, '*');
  // The same route twice (a path and its HEAD twin) only once; a static path (`/v1/events/upcoming`) is its
  // own route, even where a parametric one (`/v1/events/:id`) matches it too.
  if (!router.hasRoute(op.method as HTTPMethod, url)) router.on(op.method as HTTPMethod, url, () => {}, op);
}

/**
 * The operation a request reaches, or undefined when none does (no route, or a URL the router refuses).
 * The path is resolved as clients and app.inject resolve it: `/v1/settings/..` is `/v1/`.
 */
export function operationAt(method: string, url: string): Operation | undefined {
  try {
    return (
      (router.find(method as HTTPMethod, new URL(url, 'http://localhost').pathname)?.store as Operation | undefined) ??
      undefined
    );
  } catch {
    return undefined;
  }
}

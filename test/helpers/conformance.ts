/**
 * Every answer a test app gives is checked against the committed OpenAPI document: the operation must
 * be in it, the status declared for it, the media type declared for that status, and a JSON body must
 * match the declared schema. So neither the contract nor the behaviour can drift without a test failing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canonicalTimeZone } from '../../src/jsonapi/index.js';

interface MediaType {
  schema?: unknown;
}
interface Response {
  content?: Record<string, MediaType>;
  /** A response declared once under components/responses. */
  $ref?: string;
}
interface Operation {
  responses?: Record<string, Response>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: { responses?: Record<string, Response> };
};

const DOCUMENT_ID = 'openapi.json';
const documentPath = fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url));

/** Routes that are not part of the contract on purpose: Swagger UI itself and the benchmark baselines. */
const OUTSIDE_CONTRACT = [/^\/docs(\/|$)/, /^\/bench\//];

let loaded: { document: Document; ajv: Ajv2020 } | undefined;
function load() {
  if (loaded) return loaded;
  const document = JSON.parse(readFileSync(documentPath, 'utf8')) as Document;
  // strict off: the document carries OpenAPI keywords (example, discriminator) that are not JSON Schema.
  // References compiled once each, not inlined into every operation that uses them (the included resources of every
  // document are one schema).
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, inlineRefs: false });
  addFormats.default(ajv);
  ajv.addFormat('iana-timezone', (name: string) => canonicalTimeZone(name) !== undefined);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  loaded = { document, ajv };
  return loaded;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

/**
 * Fastify's `/v1/events/:id` as the document names it, `/v1/events/{id}` (a parameter's pattern, `:id(^[0-9]+$)`,
 * is the schema's there); a final wildcard has a name there.
 */
export function documentPathOf(routeUrl: string) {
  const path = routeUrl.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
  if (!path.endsWith('*')) return path;
  const prefix = path.slice(0, -1);
  return (
    Object.keys(load().document.paths).find(
      (p) => p.startsWith(prefix) && /^\{[^/}]+\}$/.test(p.slice(prefix.length)),
    ) ?? path
  );
}

export interface Answer {
  method: string;
  /** The route as Fastify declares it (`/v1/events/:id`). */
  route: string;
  status: number;
  contentType?: string;
  /** Undefined when the body is streamed: then only its media type is checked. */
  body?: string;
}

/** What is wrong with an answer in the light of the document; empty when it conforms. */
export function conformanceErrors({ method, route, status, contentType, body }: Answer): string[] {
  if (OUTSIDE_CONTRACT.some((re) => re.test(route))) return [];
  const { document, ajv } = load();
  const path = documentPathOf(route);
  const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
  const operation = document.paths[path]?.[verb];
  const where = `${method} ${path} ${status}`;
  if (!operation) return [`${method} ${path}: the operation is not in openapi/openapi.json`];
  const responses = operation.responses ?? {};
  const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  if (!statusKey) return [`${where}: status not declared (declared: ${Object.keys(responses).join(', ')})`];
  const media = contentType?.split(';')[0]?.trim().toLowerCase();
  // The response itself, or the shared one it references (`#/components/responses/NotFound`).
  let at = ['paths', path, verb, 'responses', statusKey];
  let response = responses[statusKey]!;
  if (response.$ref) {
    at = response.$ref.replace(/^#\//, '').split('/');
    const shared = document.components?.responses?.[at[2]!];
    if (!shared) return [`${where}: no response at ${response.$ref}`];
    response = shared;
  }
  const content = response.content ?? {};
  const declaredTypes = Object.keys(content);
  // The declared type, or the range (`image/*`, `*/*`) that covers it: stored files keep their own types.
  const declared = media && [media, `${media.split('/')[0]}/*`, '*/*'].find((k) => k in content);
  if (method === 'HEAD' || status === 304 || !body) {
    return media && declaredTypes.length > 0 && !declared ? [`${where}: media type ${media} not declared`] : [];
  }
  if (!media) return [`${where}: a body without a media type`];
  if (!declared)
    return [`${where}: media type ${media} not declared (declared: ${declaredTypes.join(', ') || 'none'})`];
  if (!content[declared]!.schema || !/json$/.test(declared)) return [];
  const key = `${DOCUMENT_ID}#/${pointer(...at, 'content', declared, 'schema')}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.getSchema(key);
    if (!validate) return [`${where}: no schema at ${key}`];
    validators.set(key, validate);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [`${where}: the body is not JSON`];
  }
  if (validate(parsed)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${where}: ${e.instancePath || '(document)'} ${e.message} ${JSON.stringify(e.params)} in ${body.slice(0, 300)}`,
  );
}

/** Text of a payload Fastify is about to send, when it is in memory (streams are only checked for their media type). */
const textOf = (payload: unknown) =>
  typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;

/** Checks every answer of `app` that went through a route; `report` receives each failure. */
export function checkConformance(app: FastifyInstance, report: (problem: string) => void) {
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = request.routeOptions.url;
    // Fastify's own 404 (no route) and CORS preflights are not operations of the contract.
    if (route === undefined || request.method === 'OPTIONS') return payload;
    const contentType = reply.getHeader('content-type');
    const problems = conformanceErrors({
      method: request.method,
      route,
      status: reply.statusCode,
      contentType: typeof contentType === 'string' ? contentType : undefined,
      body: textOf(payload),
    });
    for (const problem of problems) report(problem);
    return payload;
  });
}

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import {
  databaseUnavailable,
  JsonApiError,
  methodNotAllowed,
  notFound,
  type ErrorSource,
  jsonapiMember,
  MEDIA_TYPE,
} from './http-errors.js';
import { isConnectionFailure } from './db.js';

interface ErrorObject {
  status: string;
  title: string;
  detail: string;
  source?: ErrorSource;
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const TYPE_PATH = /^\/data(\/\d+)?\/type$|^\/data\/relationships\/[^/]+\/data(\/\d+)?\/type$/;

/** Ajv errors as JSON:API errors: body errors point into the document, others name the parameter. */
function validationErrors(err: FastifyError): { status: number; errors: ErrorObject[] } {
  const part = err.validationContext ?? 'body';
  const list = (err.validation ?? []) as AjvError[];
  if (
    part === 'body' &&
    list.some((v) => TYPE_PATH.test(v.instancePath) && (v.keyword === 'const' || v.keyword === 'enum'))
  ) {
    const at = list.find((v) => TYPE_PATH.test(v.instancePath))!;
    return {
      status: 409,
      errors: [
        {
          status: '409',
          title: 'Incorrect type',
          detail: `Resource type ${at.message ?? 'does not match'}`,
          source: { pointer: at.instancePath },
        },
      ],
    };
  }
  const errors = list.map((v): ErrorObject => {
    const extra = (v.params.additionalProperty ?? v.params.missingProperty) as string | undefined;
    const path = extra === undefined ? v.instancePath : `${v.instancePath}/${extra}`;
    const what = v.keyword === 'additionalProperties' ? 'is not allowed here' : (v.message ?? 'is invalid');
    if (part === 'body') {
      const detail = v.keyword === 'required' ? `${path} is required` : `${path || 'the document'} ${what}`;
      return { status: '422', title: 'Validation error', detail, source: { pointer: path } };
    }
    const parameter = path.replace(/^\//, '').split('/')[0]!;
    return { status: '400', title: 'Bad Request', detail: `${parameter || part} ${what}`, source: { parameter } };
  });
  return { status: part === 'body' ? 422 : 400, errors };
}

const FASTIFY_CODES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported Media Type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Bad Request'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Payload Too Large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Bad Request'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON'],
  FST_ERR_BAD_URL: [400, 'Bad Request'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'URI Too Long'],
};

/**
 * Any thrown value as a status and JSON:API error objects: a database that is down or restarting is a
 * 503 with Retry-After (the client may simply retry); unknown failures become a bare 500.
 */
export function toErrorDocument(err: unknown): {
  status: number;
  errors: ErrorObject[];
  headers?: Record<string, string>;
} {
  if (!(err instanceof JsonApiError) && isConnectionFailure(err)) return toErrorDocument(databaseUnavailable());
  if (err instanceof JsonApiError) {
    const error: ErrorObject = { status: String(err.status), title: err.title, detail: err.detail };
    if (err.source) error.source = err.source;
    return { status: err.status, errors: [error], headers: err.headers };
  }
  const e = err as FastifyError;
  if (e.validation) return validationErrors(e);
  const known = e.code ? FASTIFY_CODES[e.code] : undefined;
  if (known) return { status: known[0], errors: [{ status: String(known[0]), title: known[1], detail: e.message }] };
  if (e instanceof SyntaxError && e.statusCode === 400) {
    return { status: 400, errors: [{ status: '400', title: 'Malformed JSON', detail: e.message }] };
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return {
      status: e.statusCode,
      errors: [{ status: String(e.statusCode), title: e.name || 'Error', detail: e.message }],
    };
  }
  return {
    status: 500,
    errors: [{ status: '500', title: 'Unknown error', detail: 'The server could not complete the request' }],
  };
}

/**
 * Answers any failure as a JSON:API error document (also errors Fastify raises before routing).
 * `errorMember`: the document also carries `error`, the first error's detail (the logins' failures, for
 * clients of the reference server, which answers `{"error": "..."}`).
 */
export function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown, { errorMember = false } = {}) {
  const doc = toErrorDocument(err);
  if (doc.status >= 500) request.log.error({ err }, 'request failed');
  if (doc.headers) reply.headers(doc.headers);
  const body = { errors: doc.errors, jsonapi: jsonapiMember, ...(errorMember ? { error: doc.errors[0]!.detail } : {}) };
  // Bytes: a reply made before routing (frameworkErrors) skips the onSend hook that keeps JSON types
  // free of the charset parameter Fastify adds to text.
  return reply
    .code(doc.status)
    .type(MEDIA_TYPE)
    .send(Buffer.from(JSON.stringify(body)));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route exists only to answer its method 405. */
    refusesMethod?: boolean;
  }
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** One error document shape for every failure, and 405 with Allow for a known path with another method. */
export default fp(
  async (app) => {
    const known = FindMyWay();
    app.addHook('onRoute', (route) => {
      // The CORS preflight route answers OPTIONS anywhere, and routes that only refuse their method
      // (405 in a face's own shape) allow nothing: neither counts in an Allow header.
      if (route.url === '*' || route.config?.refusesMethod) return;
      for (const method of [route.method].flat() as HTTPMethod[]) {
        if (!known.find(method, route.url)) known.on(method, route.url, () => {});
      }
    });

    app.setErrorHandler((err, request, reply) => sendError(request, reply, err));
    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0]!;
      const allow = METHODS.filter((m) => known.find(m, path) !== null);
      return sendError(
        request,
        reply,
        allow.length > 0 ? methodNotAllowed(allow) : notFound(`No route for ${request.method} ${path}`),
      );
    });
  },
  { name: 'error-handler' },
);

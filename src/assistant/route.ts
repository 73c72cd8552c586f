import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { RateLimited } from '../rate-limits/hits.js';
import { isConnectionFailure } from '../../plugins/db.js';
import { databaseUnavailable, JsonApiError, RETRY_AFTER } from '../jsonapi/errors.js';
import { AssistantError, identify, requireRole, sessionOf, type Identity, type Role } from './identity.js';

export const TAG = 'assistant';

export const AssistantAnswer = Type.Object(
  {
    accepted: Type.Boolean(),
    message: Type.Optional(Type.String()),
    session: Type.Optional(
      Type.Object({ identity: Type.Object({ type: Type.String(), name: Type.String(), anonymous: Type.Boolean() }) }),
    ),
  },
  { $id: 'AssistantAnswer', additionalProperties: true, description: 'accepted, message, the session identity and the data of the endpoint' },
);
export const AssistantFailure = Type.Object(
  { accepted: Type.Literal(false), message: Type.String() },
  { $id: 'AssistantFailure', additionalProperties: false },
);

/** Query (or form) parameters: the token, and the endpoint's own, which the description names. */
const Parameters = Type.Object({
  access_token: Type.Optional(Type.String({ description: 'the token of POST /v1/auth/login or /aaa/login.json' })),
});

/** Optional string parameters with their descriptions. */
export const params = (described: Record<string, string>): Record<string, TSchema> =>
  Object.fromEntries(Object.entries(described).map(([name, description]) => [name, Type.Optional(Type.String({ description }))]));

/** The four values that name a skill. */
export const SKILL_PARAMS = params({ model: 'model (general)', group: 'group (Knowledge)', language: 'language (en)', skill: 'skill name' });

const UNAVAILABLE = 'The database is down for a moment; nothing was done. `Retry-After` says when to try again';

/**
 * The failures of assistant endpoints, each `{"accepted": false, "message"}`, and the 503 every one of
 * them may answer while the database is down; a 429 and a 503 carry `Retry-After`.
 */
export const failures = (codes: number[], descriptions: Record<number, string> = {}) =>
  Object.fromEntries(
    [...new Set([...codes, 503])].map((code) => [
      code,
      Type.Ref(AssistantFailure, {
        description: descriptions[code] ?? (code === 503 ? UNAVAILABLE : 'Refused: `{"accepted": false, "message"}`'),
        ...(code === 429 || code === 503 ? { headers: RETRY_AFTER } : {}),
      }),
    ]),
  );

/** A JSONP callback: a plain JavaScript identifier path such as `cb` or `jQuery123.handle`. */
const CALLBACK = /^[A-Za-z_$][\w$]{0,63}(\.[A-Za-z_$][\w$]{0,63}){0,4}$/;

export interface AssistantRouteOptions {
  url: string;
  method: HTTPMethods | HTTPMethods[];
  operationId: string;
  summary: string;
  description: string;
  /** The weakest role that may call it. */
  minimal: Role;
  /** Query and form parameters (both arrive as strings; the token is always accepted): name -> description. */
  params?: Record<string, TSchema>;
  /** Answers JSONP when `callback` is given. */
  jsonp?: boolean;
  /** Statuses of `{"accepted": false}` answers besides the 401 of a bad token (default 400). */
  failures?: number[];
  failureDescriptions?: Record<number, string>;
}

export type Params = Record<string, string | undefined>;

/** Query parameters and form fields in one bag, as the reference reads them. */
export function paramsOf(request: FastifyRequest): Params {
  const body = request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body) ? (request.body as Params) : {};
  return { ...body, ...(request.query as Params) };
}

export function send(reply: FastifyReply, status: number, body: object, callback?: string) {
  reply.code(status).header('access-control-allow-origin', '*');
  const json = JSON.stringify(body);
  if (callback !== undefined) return reply.type('application/javascript; charset=utf-8').send(`${callback}(${json});\n`);
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Any failure of an assistant route as `{"accepted": false, "message"}` with its status (503 and Retry-After while the database is down). */
export function sendFailure(reply: FastifyReply, err: unknown) {
  if (err instanceof AssistantError) return send(reply, err.status, { accepted: false, message: err.message });
  if (isConnectionFailure(err)) {
    reply.log.error({ err }, 'assistant request failed');
    const unavailable = databaseUnavailable();
    reply.headers(unavailable.headers!);
    return send(reply, 503, { accepted: false, message: unavailable.detail });
  }
  if (err instanceof RateLimited) return send(reply.headers(err.headers!), 429, { accepted: false, message: err.detail });
  if (err instanceof JsonApiError && err.status < 500) return send(reply, err.status, { accepted: false, message: err.detail });
  const status = (err as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500) return send(reply, status, { accepted: false, message: (err as Error).message });
  reply.log.error({ err }, 'assistant request failed');
  return send(reply, 500, { accepted: false, message: 'The server could not complete the request' });
}

/**
 * One assistant endpoint: resolves the caller (access_token parameter or header), checks the role,
 * runs the handler and answers its object with `session.identity`, CORS and, when asked, JSONP.
 */
export function assistantRoute(
  app: FastifyInstance,
  o: AssistantRouteOptions,
  handler: (ctx: { request: FastifyRequest; identity: Identity; params: Params; caller: ReturnType<typeof requireRole> | null }) => Promise<object>,
) {
  const methods = [o.method].flat();
  for (const method of methods) app.route({
    method,
    url: o.url,
    schema: {
      tags: [TAG],
      // GET and POST do the same; each has its own operation id (`x`, `xPost`).
      operationId: method === methods[0] ? o.operationId : `${o.operationId}${method[0]}${method.slice(1).toLowerCase()}`,
      summary: o.summary,
      description: o.description,
      querystring: Type.Object({ ...Parameters.properties, ...(o.params ?? {}) }),
      response: {
        200: o.jsonp
          ? {
              description: 'The answer; with `callback`, the same object as a JSONP script `callback({...});`',
              content: { 'application/json': { schema: Type.Ref(AssistantAnswer) }, 'application/javascript': { schema: { type: 'string' } } },
            }
          : Type.Ref(AssistantAnswer, { description: 'The answer' }),
        // Every route reads the caller first: a bad, expired or orphaned token is a 401 even where no role is needed.
        // Parameters are validated on every route (one given twice is 400).
        ...failures([400, ...(o.failures ?? []), 401], o.failureDescriptions),
        ...(method === 'POST'
          ? failures([413, 415], { 413: 'The body is larger than 1 MiB', 415: 'The body is not a form (urlencoded or multipart) or JSON' })
          : {}),
      },
    },
    handler: async (request, reply) => {
      const params = paramsOf(request);
      const callback = o.jsonp ? params.callback : undefined;
      if (callback !== undefined && !CALLBACK.test(callback)) {
        return send(reply, 400, { accepted: false, message: 'The callback must be a JavaScript identifier path' });
      }
      try {
        const identity = await identify(app, request, params);
        const caller = o.minimal === 'anonymous' ? identity.caller : requireRole(identity, o.minimal);
        const body = await handler({ request, identity, params, caller });
        return send(reply, 200, { ...body, session: sessionOf(identity, request) }, callback);
      } catch (err) {
        return sendFailure(reply, err);
      }
    },
  });
}

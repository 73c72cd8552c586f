import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { RateLimited } from '../rate-limits/hits.js';
import { isConnectionFailure } from '../../plugins/db.js';
import { JsonApiError, RETRY_AFTER, databaseUnavailable } from '../jsonapi/index.js';
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
  {
    $id: 'AssistantAnswer',
    additionalProperties: true,
    description: 'accepted, message, the session identity and the data of the endpoint',
  },
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
  Object.fromEntries(
    Object.entries(described).map(([name, description]) => [name, Type.Optional(Type.String({ description }))]),
  );

/** The four values that name a skill. */
export const SKILL_PARAMS = params({
  model: 'model (general)',
  group: 'group (Knowledge)',
  language: 'language (en)',
  skill: 'skill name',
});

const UNAVAILABLE = 'The database is down for a moment; nothing was done. `Retry-After` says when to try again';

/**
 * The failures of assistant endpoints, each `{"accepted": false, "message"}`, and the 503 every one of
 * them may answer while the database is down; a 429 and a 503 carry `Retry-After`.
 */
export const failures = (codes: number[], descriptions: Record<number, string> = {}) =>
  Object.fromEntries(
    [...new Set([...codes, 503])].map((code) => [
      code,
      {
        description: descriptions[code] ?? (code === 503 ? UNAVAILABLE : 'Refused: `{"accepted": false, "message"}`'),
        // With `callback`, a refusal is the same object as a JSONP script (accounts.susi.ai reads only scripts).
        content: {
          'application/json': { schema: Type.Ref(AssistantFailure) },
          'application/javascript': { schema: { type: 'string' } },
        },
        ...(code === 429 || code === 503 ? { headers: RETRY_AFTER } : {}),
      },
    ]),
  );

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
  /** File parts of a multipart form the endpoint reads (others are skipped), each at most `maxFileBytes`. */
  files?: string[];
  maxFileBytes?: number;
  /** Statuses of `{"accepted": false}` answers besides the 401 of a role too low (default 400). */
  failures?: number[];
  failureDescriptions?: Record<number, string>;
}

export type Params = Record<string, string | undefined>;

/** A file part of a multipart form, read whole (the endpoints that take one read images, which are bounded). */
export interface FormFile {
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** Limits of the forms of the face: any number of fields, at most a few files. */
const FORM_LIMITS = { parts: 64, fields: 48, files: 4, fieldSize: 1024 * 1024 };

/**
 * Query parameters and form fields in one bag, as the reference reads them (`Query.get`: the query
 * wins), from urlencoded, JSON and multipart bodies alike, and the file parts named in `accept`.
 */
export async function requestParams(
  request: FastifyRequest,
  accept: string[] = [],
  maxFileBytes = 1,
): Promise<{ params: Params; files: Record<string, FormFile> }> {
  const files: Record<string, FormFile> = {};
  let body: Params = {};
  if (request.isMultipart()) {
    try {
      for await (const part of request.parts({ limits: { ...FORM_LIMITS, fileSize: maxFileBytes } })) {
        if (part.type === 'file') {
          if (accept.includes(part.fieldname) && !files[part.fieldname]) {
            files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() };
          } else part.file.resume();
        } else body[part.fieldname] = String(part.value);
      }
    } catch (err) {
      // busboy reports a broken form (wrong boundary, cut short) as a plain Error; the limits carry a status.
      if (err instanceof Error && !('code' in err) && !('statusCode' in err))
        throw new AssistantError(400, `Malformed multipart body: ${err.message}`);
      throw err;
    }
  } else if (request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body)) {
    // Parameters are the members of an object; an array, or a member nested too deeply to write back as text, is no form.
    if (Array.isArray(request.body)) throw new AssistantError(400, 'The JSON body must be an object of parameters');
    try {
      body = Object.fromEntries(
        Object.entries(request.body as Record<string, unknown>).map(([k, v]) => [
          k,
          v === null || v === undefined ? undefined : typeof v === 'object' ? JSON.stringify(v) : String(v),
        ]),
      );
    } catch (err) {
      if (err instanceof RangeError) throw new AssistantError(400, 'A member of the JSON body is nested too deeply');
      throw err;
    }
  }
  return { params: { ...body, ...(request.query as Params) }, files };
}

/** The query parameters alone (routes that answer files read no body). */
export const paramsOf = (request: FastifyRequest): Params => ({ ...(request.query as Params) });

/** A JSONP callback: a plain JavaScript identifier path such as `cb` or `jQuery123.handle`. */
const CALLBACK = /^[A-Za-z_$][\w$]{0,63}(\.[A-Za-z_$][\w$]{0,63}){0,4}$/;

/** The `callback` of a request when it is a usable one; a bad one is the client's 400 (JSON). */
export function callbackOf(params: Params): string | undefined {
  const callback = params.callback;
  if (callback === undefined || callback === '') return undefined;
  if (!CALLBACK.test(callback)) throw new AssistantError(400, 'The callback must be a JavaScript identifier path');
  return callback;
}

export function send(reply: FastifyReply, status: number, body: object, callback?: string) {
  reply.code(status).header('access-control-allow-origin', '*');
  const json = JSON.stringify(body);
  if (callback !== undefined)
    return reply.type('application/javascript; charset=utf-8').send(`${callback}(${json});\n`);
  return reply.type('application/json; charset=utf-8').send(json);
}

/**
 * Any failure of an assistant route as `{"accepted": false, "message"}` with its status (503 and
 * Retry-After while the database is down), wrapped in the JSONP callback when the request named one.
 */
export function sendFailure(reply: FastifyReply, err: unknown, callback?: string) {
  if (err instanceof AssistantError)
    return send(reply, err.status, { accepted: false, message: err.message }, callback);
  if (isConnectionFailure(err)) {
    reply.log.error({ err }, 'assistant request failed');
    const unavailable = databaseUnavailable();
    reply.headers(unavailable.headers!);
    return send(reply, 503, { accepted: false, message: unavailable.detail }, callback);
  }
  if (err instanceof RateLimited)
    return send(reply.headers(err.headers!), 429, { accepted: false, message: err.detail }, callback);
  if (err instanceof JsonApiError && err.status < 500)
    return send(reply, err.status, { accepted: false, message: err.detail }, callback);
  const status = (err as { statusCode?: number }).statusCode;
  if (status && status >= 400 && status < 500)
    return send(reply, status, { accepted: false, message: (err as Error).message }, callback);
  reply.log.error({ err }, 'assistant request failed');
  return send(reply, 500, { accepted: false, message: 'The server could not complete the request' }, callback);
}

/**
 * A query parameter repeated with one value is that value: the Android app's token interceptor appends
 * `access_token` to requests whose query map already carries it. Differing values stay a 400.
 */
function collapseRepeats(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && value.every((v) => v === value[0])) query[name] = value[0];
  }
}

const JSONP_PARAM = params({
  callback: 'JSONP: the answer becomes the script `callback({...});` (a JavaScript identifier path)',
});

/**
 * One assistant endpoint: reads the parameters (query, urlencoded, JSON or multipart), resolves the
 * caller (access_token parameter or header; a bad token is anonymous), checks the role, runs the
 * handler and answers its object with `session.identity`, CORS and, with `callback`, JSONP.
 */
export function assistantRoute(
  app: FastifyInstance,
  o: AssistantRouteOptions,
  handler: (ctx: {
    request: FastifyRequest;
    reply: FastifyReply;
    identity: Identity;
    params: Params;
    files: Record<string, FormFile>;
    caller: ReturnType<typeof requireRole> | null;
  }) => Promise<object>,
) {
  const methods = [o.method].flat();
  for (const method of methods)
    app.route({
      method,
      url: o.url,
      schema: {
        tags: [TAG],
        // GET and POST do the same; each has its own operation id (`x`, `xPost`).
        operationId:
          method === methods[0] ? o.operationId : `${o.operationId}${method[0]}${method.slice(1).toLowerCase()}`,
        summary: o.summary,
        description: o.description,
        querystring: Type.Object({ ...Parameters.properties, ...JSONP_PARAM, ...(o.params ?? {}) }),
        ...(method === 'POST'
          ? { consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'] }
          : {}),
        response: {
          200: {
            description: 'The answer; with `callback`, the same object as a JSONP script `callback({...});`',
            content: {
              'application/json': { schema: Type.Ref(AssistantAnswer) },
              'application/javascript': { schema: { type: 'string' } },
            },
          },
          // A role too low is a 401 with the reference's text; parameters are validated on every route (one given twice is 400).
          ...failures([400, ...(o.failures ?? []), ...(o.minimal === 'anonymous' ? [] : [401])], o.failureDescriptions),
          ...(method === 'POST'
            ? failures([413, 415], {
                413: 'The body is larger than its limit',
                415: 'The body is not a form (urlencoded or multipart) or JSON',
              })
            : {}),
        },
      },
      preValidation: async (request) => collapseRepeats(request),
      handler: async (request, reply) => {
        let callback: string | undefined;
        try {
          const { params, files } = await requestParams(request, o.files, o.maxFileBytes);
          callback = callbackOf(params);
          const identity = await identify(app, request, params);
          const caller = o.minimal === 'anonymous' ? identity.caller : requireRole(identity, o.minimal);
          const body = await handler({ request, reply, identity, params, files, caller });
          return send(reply, 200, { ...body, session: sessionOf(identity, request) }, callback);
        } catch (err) {
          // A body refused before the parameters were read: the query's callback still names the script.
          if (callback === undefined) {
            try {
              callback = callbackOf(paramsOf(request));
            } catch {
              // A bad callback: the failure stays JSON.
            }
          }
          return sendFailure(reply, err, callback);
        }
      },
    });
}

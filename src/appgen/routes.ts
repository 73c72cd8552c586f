import { randomBytes } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';
import { tasks } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { toErrorDocument } from '../../plugins/error-handler.js';
import { API_PREFIX } from '../jsonapi/serialize.js';
import { RETRY_AFTER } from '../jsonapi/errors.js';
import { RateLimited, take } from '../rate-limits/hits.js';
import { clientOf, mailboxOf } from '../rate-limits/keys.js';
import { APP_GROUP, APP_QUEUE, type AppTaskOptions } from './job.js';

export const TAG = 'App generator';
export const appgenTag = {
  name: TAG,
  description:
    'Builds an installable web app (PWA) of an event from its JSON:API endpoint and e-mails the zip. Answers are ' +
    '`{"status": ...}` objects; the build is a task polled at its `task_url`.',
};

const URL_PATH = '/api/api.php';
/** Control characters never belong in a name that lands in HTML, JSON, file names and mail subjects: */
/** C0 and C1 controls, line and paragraph separators, and the bidirectional overrides and isolates. */
const CONTROL = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
const PRINTABLE_NAME = `^[^${CONTROL}]*[^\\s${CONTROL}][^${CONTROL}]*$`;

const AppRequest = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254, description: 'where the app (or the build log) is mailed' }),
    app_name: Type.String({ minLength: 1, maxLength: 100, pattern: PRINTABLE_NAME, description: 'the name of the app, 1 to 100 characters' }),
    endpoint: Type.String({
      format: 'uri',
      maxLength: 2048,
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+([/?#]\\S*)?$',
      description: "the event's JSON:API URL, e.g. `https://api.example.org/v1/events/42`",
    }),
  },
  { $id: 'AppRequest', additionalProperties: false },
);
const AppStarted = Type.Object(
  {
    status: Type.Literal('ok'),
    identifier: Type.String({ description: 'names this build' }),
    task_url: Type.String({ description: 'poll it for the state and, once built, the download URL' }),
  },
  { $id: 'AppStarted', additionalProperties: false },
);
const AppgenFailure = Type.Object(
  { status: Type.Literal('error'), code: Type.Integer({ description: 'the HTTP status' }), message: Type.String() },
  { $id: 'AppgenFailure', additionalProperties: false },
);

/** A refusal answered `{"status": "error", "code", "message"}` with that HTTP status. */
export class AppgenError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const FIELD_MESSAGES: Record<string, string> = {
  email: 'email must be a valid e-mail address',
  app_name: 'app_name must be 1 to 100 characters, not only spaces, without control characters',
  endpoint: 'endpoint must be an http(s) URL without credentials',
};

/** The first validation error as the message that names the field; a missing field or body is the reference's 422. */
function validationMessage(list: { instancePath: string; keyword: string; params: Record<string, unknown> }[]): string {
  const first = list[0]!;
  if (first.keyword === 'additionalProperties') return `${String(first.params.additionalProperty)} is not a known field`;
  const field = first.instancePath.replace(/^\//, '');
  return FIELD_MESSAGES[field] ?? 'Unprocessable entity';
}

function sendFailure(reply: FastifyReply, err: unknown) {
  let status: number;
  let message: string;
  if (err instanceof AppgenError) {
    reply.headers(err.headers);
    [status, message] = [err.status, err.message];
  } else if (err instanceof RateLimited) {
    reply.headers(err.headers!);
    [status, message] = [429, err.detail];
  } else if ((err as FastifyError).validation) {
    [status, message] = [422, validationMessage((err as FastifyError).validation as never)];
  } else if ((err as FastifyError).code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    // No body at all: every field is missing, as the reference answers.
    [status, message] = [422, 'Unprocessable entity'];
  } else {
    // Framework refusals (malformed JSON, media type, size) keep their status and say what they are.
    // A database that is down is a 503 with Retry-After, which says so.
    const doc = toErrorDocument(err);
    status = doc.status;
    if (doc.headers) reply.headers(doc.headers);
    const [first] = doc.errors;
    message = status === 503 ? first!.detail : status >= 500 ? 'Internal Server Error' : `${first!.title}: ${first!.detail}`;
    if (status >= 500) reply.log.error({ err }, 'app generator request failed');
  }
  return reply.code(status).type('application/json; charset=utf-8').send({ status: 'error', code: status, message });
}

export interface AppgenRateLimits {
  perEmail: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Counts a build against the limits of its mailbox and client address, in the transaction that records
 * it (the keys stay locked until it commits, so requests racing for the last place are counted one
 * after the other); throws RateLimited when either is used up.
 */
const takeBuild = (tx: Db, limits: AppgenRateLimits, { mailbox, client }: AppTaskOptions) =>
  take(
    tx,
    [
      { bucket: 'app-mailbox', key: mailbox, max: limits.perEmail, windowSeconds: limits.windowSeconds },
      { bucket: 'app-client', key: client, max: limits.perIp, windowSeconds: limits.windowSeconds },
    ],
    (seconds) => `Too many app builds; try again in ${seconds} seconds`,
  );

/** Hosts a browser and a CSP can take as they are: DNS names (IDNs arrive in punycode) or IP literals. */
const PLAIN_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

const OTHER_METHODS: HTTPMethods[] = ['GET', 'PUT', 'PATCH', 'DELETE'];

/** The app generator: `POST /api/api.php` starts a build; any other method is the reference's 405 body. */
export async function appgenRoutes(app: FastifyInstance, { rateLimits }: { rateLimits: AppgenRateLimits }) {
  app.setErrorHandler((err, _request, reply) => sendFailure(reply, err));
  for (const schema of [AppRequest, AppStarted, AppgenFailure]) app.addSchema(schema);
  const failure = (description: string) => Type.Ref(AppgenFailure, { description });

  app.post(
    URL_PATH,
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: [TAG],
        operationId: 'generateApp',
        summary: 'Build an event app',
        description:
          'Starts building an installable web app of the event `endpoint` names and answers at once; the zip is ' +
          'mailed to `email` (or, when the build fails, the build log), and the task shows the state and the ' +
          'download URL. Builds per e-mail address and per client address are limited.',
        body: Type.Ref(AppRequest),
        response: {
          202: Type.Ref(AppStarted, { description: 'The build is queued' }),
          400: failure('Malformed JSON'),
          413: failure('The body is too large'),
          415: failure('The body is not JSON'),
          422: failure('A field is missing (`Unprocessable entity`) or invalid (the message names it)'),
          429: { ...failure('Too many builds for this e-mail or client address; `Retry-After` says when to ask again'), headers: RETRY_AFTER },
          503: Type.Ref(AppgenFailure, {
            description: 'The database is down for a moment; no build was started. `Retry-After` says when to ask again',
            headers: RETRY_AFTER,
          }),
        },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof AppRequest>;
      // The format check leaves URLs no fetch can use (a port above 65535) or whose host a browser's
      // CSP would misread (punctuation the URL standard allows in hosts).
      if (!PLAIN_HOST.test(URL.parse(body.endpoint)?.hostname ?? '')) throw new AppgenError(422, FIELD_MESSAGES.endpoint!);
      const email = body.email.toLowerCase();
      const options: AppTaskOptions = {
        email,
        app_name: body.app_name,
        endpoint: body.endpoint,
        identifier: randomBytes(8).toString('hex'),
        mailbox: mailboxOf(email),
        client: clientOf(request.ip),
      };
      const id = await app.db.transaction(async (tx) => {
        await takeBuild(tx, rateLimits, options);
        const [task] = await tx.insert(tasks).values({ kind: 'app', options }).returning({ id: tasks.id });
        await app.sendJob(tx, APP_QUEUE, { taskId: task!.id }, { group: APP_GROUP });
        return task!.id;
      });
      return reply.code(202).send({ status: 'ok', identifier: options.identifier, task_url: `${API_PREFIX}/tasks/${id}` });
    },
  );

  for (const method of OTHER_METHODS) {
    const name = method.charAt(0) + method.slice(1).toLowerCase();
    app.route({
      method,
      url: URL_PATH,
      config: { refusesMethod: true },
      schema: {
        tags: [TAG],
        operationId: `generateApp${name}`,
        summary: `${method} is not allowed`,
        description:
          'Only POST builds an app: any other method is answered 405 with `Allow: POST` (OPTIONS is the CORS ' +
          'preflight, answered 204 like everywhere in the service).',
        response: { 405: failure('`Method Not Allowed`') },
      },
      // Refused before any body is read: the method alone decides.
      onRequest: async () => {
        throw new AppgenError(405, 'Method Not Allowed', { allow: 'POST' });
      },
      handler: async () => undefined,
    });
  }
}

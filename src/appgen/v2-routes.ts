import { Type } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tasks } from '../../db/schema/index.js';
import { API_PREFIX, RETRY_AFTER } from '../jsonapi/index.js';
import { CONSUMES, readBody } from './body.js';
import { AppgenError, AppgenFailure, TAG } from './failure.js';
import { FIELDS, isValid, unknownMembers, Warnings } from './fields.js';
import { startBuild, type AppgenRateLimits } from './start.js';

/**
 * The entry points of the reference's v2 generator (open-event-droidgen apk-generator/v2, Flask and
 * Celery): `POST /api/v2/generate` (views/api.py), the web form's `POST /` and its polling of
 * `GET /api/v2/app/{id}/status` (static/js/main.js). They start the same build as api.php, with the same
 * checks and limits, and answer in the reference's v2 shapes. Without an app name, the app is named
 * after the event, as the reference names it.
 */

const Generate = Type.Object(
  { email: FIELDS.email, endpoint: FIELDS.endpoint },
  {
    $id: 'AppV2Generate',
    description:
      'JSON whatever the declared media type (the reference forces JSON). Other members are ignored and named in `warnings`.',
    'x-streamed': true,
  },
);

const DATA_SOURCES = ['api_endpoint', 'json_upload'];
const Form = Type.Object(
  {
    email: FIELDS.email,
    'data-source': Type.String({
      enum: DATA_SOURCES,
      description: '`api_endpoint` (`json_upload`, an uploaded zip of the event, is not supported: 422)',
    }),
    'api-endpoint': Type.Optional({
      ...FIELDS.endpoint,
      description: "the event's JSON:API URL, required with `api_endpoint`",
    }),
    'build-type': Type.Optional(
      Type.String({
        maxLength: 100,
        description: '`googleplay` or `fdroid`: accepted and ignored (the app is a web app)',
      }),
    ),
    'is-auth-enabled': Type.Optional(
      Type.String({
        maxLength: 100,
        description: '`true` or `false`: accepted and ignored (the app reads public data)',
      }),
    ),
    colors: Type.Optional(
      Type.String({
        maxLength: 1000,
        description: 'JSON `{primary, primary_dark, accent}`: accepted and ignored (the app has its own theme)',
      }),
    ),
    'json-upload': Type.Optional(Type.String({ format: 'binary', description: 'a zip of the event: not supported' })),
  },
  {
    $id: 'AppV2Form',
    description:
      'The form of the v2 web page (multipart, as its main.js sends it, or urlencoded). Other fields are ignored and named in `warnings`.',
    'x-streamed': true,
  },
);
const FORM_FIELDS = Object.keys(Form.properties);

const Started = Type.Object(
  {
    status: Type.Literal('ok'),
    identifier: Type.String({ description: 'names this build' }),
    started_at: Type.String({ format: 'date-time', description: 'when the build was queued' }),
    task_id: Type.String({ description: 'the build; poll `/api/v2/app/{task_id}/status`' }),
    task_url: Type.String({ description: 'the same task in the event service (`/v1/tasks/{id}`)' }),
    warnings: Type.Optional(Warnings),
  },
  { $id: 'AppV2Started', additionalProperties: false },
);

const Status = Type.Object(
  {
    state: Type.String({
      enum: ['PENDING', 'PROGRESS', 'SUCCESS', 'FAILURE'],
      description:
        "Celery's states: PENDING (queued), PROGRESS (building; `status` says what it does), SUCCESS, FAILURE",
    }),
    status: Type.Optional(Type.String({ description: 'what the build is doing (PROGRESS)' })),
    result: Type.Optional(
      Type.Object(
        {
          message: Type.String({
            description: 'SUCCESS: the download URL (what the v2 page reads); FAILURE: why the build failed',
          }),
          download_url: Type.Optional(Type.String({ description: "SUCCESS: the zip's URL" })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'AppV2Status', additionalProperties: false },
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the v1 status of a build task is in Celery's words, with the result the v2 page reads. */
function statusOf(task: { state: string; status: string | null; result: unknown }) {
  const result = (task.result ?? {}) as { download_url?: string; message?: string };
  if (task.state === 'SUCCESS')
    return {
      state: 'SUCCESS',
      result: { message: result.download_url ?? '', download_url: result.download_url ?? '' },
    };
  if (task.state !== 'WAITING') return { state: 'FAILURE', result: { message: result.message ?? 'The build failed' } };
  return task.status ? { state: 'PROGRESS', status: task.status } : { state: 'PENDING' };
}

export async function v2Routes(app: FastifyInstance, { rateLimits }: { rateLimits: AppgenRateLimits }) {
  for (const schema of [Generate, Form, Started, Status]) app.addSchema(schema);
  const failure = (description: string) => Type.Ref(AppgenFailure, { description });
  const refusals = {
    413: failure('The body is too large'),
    429: {
      ...failure('Too many builds for this e-mail or client address; `Retry-After` says when to ask again'),
      headers: RETRY_AFTER,
    },
    503: { ...failure('The database is down for a moment; no build was started'), headers: RETRY_AFTER },
  };

  const started = async (request: FastifyRequest, fields: { email: string; endpoint: string }, warnings: string[]) => {
    const { id, identifier } = await startBuild(app, request, rateLimits, { ...fields, app_name: null });
    const answer = {
      status: 'ok',
      identifier,
      started_at: new Date().toISOString(),
      task_id: id,
      task_url: `${API_PREFIX}/tasks/${id}`,
    };
    return warnings.length > 0 ? { ...answer, warnings } : answer;
  };

  app.post(
    '/api/v2/generate',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: [TAG],
        operationId: 'generateAppV2',
        summary: 'Build an event app (v2 API)',
        description:
          'The reference\'s v2 API: `{"email", "endpoint"}` starts the same build as `/api/api.php`, the app named ' +
          "after the event. Refusals are 400 with the reference's messages (`invalid data`, `Valid Email is required`, " +
          '`Valid endpoint URL is required`).',
        consumes: CONSUMES,
        body: Type.Ref(Generate),
        response: {
          200: Type.Ref(Started, { description: 'The build is queued' }),
          400: failure('Not a JSON object, or a missing or invalid `email` or `endpoint`'),
          ...refusals,
        },
      },
    },
    async (request) => {
      const body = await readBody(request);
      if (!isObject(body) || Object.keys(body).length === 0) throw new AppgenError(400, 'invalid data');
      if (!isValid('email', body.email)) throw new AppgenError(400, 'Valid Email is required');
      if (!isValid('endpoint', body.endpoint)) throw new AppgenError(400, 'Valid endpoint URL is required');
      return started(
        request,
        { email: body.email, endpoint: body.endpoint },
        unknownMembers(body, ['email', 'endpoint']),
      );
    },
  );

  app.post(
    '/',
    {
      bodyLimit: 1024 * 1024,
      schema: {
        tags: [TAG],
        operationId: 'generateAppFromForm',
        summary: 'Build an event app (v2 web form)',
        description:
          "The form of the reference's v2 page: with `data-source` `api_endpoint` and `api-endpoint`, starts the same " +
          'build as `/api/api.php`, the app named after the event; poll `/api/v2/app/{task_id}/status`. An uploaded ' +
          "zip (`json_upload`) is refused with 422: builds read an event API. Refusals are 400 with the reference's " +
          'messages (`invalid data`, `invalid endpoint url`).',
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
        body: Type.Ref(Form),
        response: {
          200: Type.Ref(Started, { description: 'The build is queued' }),
          400: failure(
            'A missing or invalid `email` or `data-source` (`invalid data`), or `api-endpoint` (`invalid endpoint url`)',
          ),
          422: failure('`json_upload`: only `api_endpoint` is supported'),
          ...refusals,
        },
      },
    },
    async (request) => {
      const body = await readBody(request);
      if (!isObject(body) || !isValid('email', body.email) || !DATA_SOURCES.includes(body['data-source'] as string)) {
        throw new AppgenError(400, 'invalid data');
      }
      if (body['data-source'] === 'json_upload') {
        throw new AppgenError(
          422,
          'Only the api_endpoint data source is supported: apps are built from an event API endpoint, not from an uploaded zip (json_upload)',
        );
      }
      if (!isValid('endpoint', body['api-endpoint'])) throw new AppgenError(400, 'invalid endpoint url');
      return started(request, { email: body.email, endpoint: body['api-endpoint'] }, unknownMembers(body, FORM_FIELDS));
    },
  );

  app.get(
    '/api/v2/app/:task_id/status',
    {
      schema: {
        tags: [TAG],
        operationId: 'getAppStatusV2',
        summary: 'Poll a build (v2)',
        description:
          "A build's state as the v2 page polls it: PENDING, PROGRESS (with `status`), SUCCESS (`result.message` is the " +
          "download URL) or FAILURE (`result.message` says why). Any build's `task_id` works, whichever entry point started it.",
        params: Type.Object({
          task_id: Type.String({ maxLength: 64, description: 'the `task_id` of the answer that started the build' }),
        }),
        response: {
          200: Type.Ref(Status, { description: 'The state of the build' }),
          400: failure('A task_id longer than 64 characters'),
          404: failure('No build has this task_id'),
        },
      },
    },
    async (request) => {
      const id = (request.params as { task_id: string }).task_id;
      const [task] = UUID.test(id)
        ? await app.db
            .select()
            .from(tasks)
            .where(and(eq(tasks.id, id), eq(tasks.kind, 'app')))
        : [];
      if (!task) throw new AppgenError(404, 'No build has this task_id');
      return statusOf(task);
    },
  );
}

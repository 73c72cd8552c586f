import { Type } from '@sinclair/typebox';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import type { Face } from '../face.js';
import { API_PREFIX, RETRY_AFTER } from '../jsonapi/index.js';
import { AppgenError, AppgenFailure, sendFailure, TAG } from './failure.js';
import { acceptAnyBody, CONSUMES, readBody } from './body.js';
import { FIELD_MESSAGES, FIELDS, isValid, unknownMembers, Warnings, type Field } from './fields.js';
import { startBuild, type AppgenRateLimits } from './start.js';
import { v2Routes } from './v2-routes.js';

/** The app generator face: the reference's entry points (`/api/api.php`, v2), answering `{"status": ...}` objects. */
export const appgenFace: Face = {
  tags: [
    {
      name: TAG,
      description:
        'Builds an installable web app (PWA) of an event from its JSON:API endpoint and e-mails the zip. Answers are ' +
        '`{"status": ...}` objects; the build is a task polled at its `task_url`.',
    },
  ],
  routes: (app, { config }) =>
    appgenRoutes(app, {
      rateLimits: {
        perEmail: config.APPGEN_RATE_PER_EMAIL,
        perIp: config.APPGEN_RATE_PER_IP,
        windowSeconds: config.APPGEN_RATE_WINDOW_SECONDS,
      },
    }),
};

const URL_PATH = '/api/api.php';
const KNOWN = Object.keys(FIELDS) as Field[];

const AppRequest = Type.Object(FIELDS, {
  $id: 'AppRequest',
  description:
    'JSON (whatever the declared media type, as the reference reads it), or a urlencoded or multipart form with ' +
    'the same names. Members it does not know are ignored and named in `warnings`.',
  'x-streamed': true,
});
const AppStarted = Type.Object(
  {
    status: Type.Literal('ok'),
    identifier: Type.String({ description: 'names this build' }),
    task_url: Type.String({ description: 'poll it for the state and, once built, the download URL' }),
    warnings: Type.Optional(Warnings),
  },
  { $id: 'AppStarted', additionalProperties: false },
);
const OTHER_METHODS: HTTPMethods[] = ['GET', 'PUT', 'PATCH', 'DELETE'];

/**
 * The fields of an api.php body: a missing field or a body that is not an object is the reference's 422
 * `Unprocessable entity`, an invalid one 422 naming it; members it does not know become warnings.
 */
function appFields(body: unknown): { fields: Record<Field, string>; warnings: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !KNOWN.every((f) => Object.hasOwn(body, f))) {
    throw new AppgenError(422, 'Unprocessable entity');
  }
  const members = body as Record<string, unknown>;
  for (const field of KNOWN) if (!isValid(field, members[field])) throw new AppgenError(422, FIELD_MESSAGES[field]);
  return { fields: members as Record<Field, string>, warnings: unknownMembers(members, KNOWN) };
}

/**
 * The app generator: `POST /api/api.php` starts a build (any other method is the reference's 405 body),
 * and the reference's v2 entry points start the same build.
 */
async function appgenRoutes(app: FastifyInstance, { rateLimits }: { rateLimits: AppgenRateLimits }) {
  acceptAnyBody(app);
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
          'download URL. The body is read as JSON whatever its media type (as the reference reads it), or as a ' +
          'urlencoded or multipart form; members other than the three are ignored and named in `warnings`. ' +
          'Builds per e-mail address and per client address are limited.',
        consumes: CONSUMES,
        body: Type.Ref(AppRequest),
        response: {
          202: Type.Ref(AppStarted, { description: 'The build is queued' }),
          400: failure('Malformed JSON or multipart body'),
          413: failure('The body is larger than 16 KiB'),
          422: failure(
            'A field is missing or the body is not an object (`Unprocessable entity`), or a field is invalid (the message names it)',
          ),
          429: {
            ...failure('Too many builds for this e-mail or client address; `Retry-After` says when to ask again'),
            headers: RETRY_AFTER,
          },
          503: Type.Ref(AppgenFailure, {
            description:
              'The database is down for a moment; no build was started. `Retry-After` says when to ask again',
            headers: RETRY_AFTER,
          }),
        },
      },
    },
    async (request, reply) => {
      const { fields, warnings } = appFields(await readBody(request));
      const { id, identifier } = await startBuild(app, request, rateLimits, fields);
      return reply.code(202).send({
        status: 'ok',
        identifier,
        task_url: `${API_PREFIX}/tasks/${id}`,
        ...(warnings.length > 0 ? { warnings } : {}),
      });
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
  await v2Routes(app, { rateLimits });
}

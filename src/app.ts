import cors from '@fastify/cors';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { publicUrlOf, type Config } from './config.js';
import authPlugin from './auth/plugin.js';
import bossPlugin from '../plugins/boss.js';
import conditional from '../plugins/conditional.js';
import readCache from '../plugins/read-cache.js';
import dbPlugin from '../plugins/db.js';
import errorHandler, { sendError } from '../plugins/error-handler.js';
import mailerPlugin from '../plugins/mailer.js';
import openapi from '../plugins/openapi.js';
import storagePlugin from '../plugins/storage.js';
import { accountMailPlugin } from './auth/account-mail.js';
import { authFace } from './auth/index.js';
import { loginLimitsOf } from './auth/login.js';
import benchRoutes from './bench-routes.js';
import type { Face } from './face.js';
import { filesFace } from './files/index.js';
import { transferFace } from './transfer/routes.js';
import { assistantFace } from './assistant/index.js';
import { appgenFace } from './appgen/routes.js';
import { jsonapi } from './jsonapi/index.js';
import type { ResourceSpec } from './jsonapi/index.js';
import { jobs } from './jobs/index.js';
import { mailLimitsOf } from './rate-limits/mail.js';
import { signupLimitsOf } from './rate-limits/signup.js';
import { operations, operationsTag } from './operations.js';
import { loggerOptions } from './request-log.js';
import { resourceRoutesFace, resources } from './resources/index.js';
import { scheduleFace } from './schedule/index.js';
import { PUBLIC_URL_SETTING } from './schedule/urls.js';
import { siteFace } from './site/index.js';
import { buildValidator } from './validation.js';

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /** Sees the text of every SQL statement (tests and benchmarks count them). */
  onQuery?: (query: string) => void;
  /** Sees every route as it is declared (the permission matrix checks that each one has an entry). */
  onRoute?: (route: RouteOptions) => void;
  /** The JSON:API resources to serve (the engine's own tests pass fixtures). */
  resources?: ResourceSpec[];
  /** False: build the routes without connecting the job queue (the OpenAPI document needs no database). */
  connect?: boolean;
}

/** The faces after the JSON:API engine, each a Face (src/face.ts): tags and routes from the configuration. */
const FACES: Face[] = [
  authFace,
  siteFace,
  resourceRoutesFace,
  scheduleFace,
  filesFace,
  transferFace,
  assistantFace,
  appgenFace,
];

/** The whole service as a Fastify instance: infrastructure plugins first, then the faces. */
export async function buildApp(config: Config & { DATABASE_URL: string }, options: AppOptions = {}) {
  const app = Fastify({
    logger: loggerOptions(options.logger, config.LOG_LEVEL),
    routerOptions: { maxParamLength: 500 },
    trustProxy: config.TRUST_PROXY ?? false,
    // Fastify's default, written down because the README promises it: a larger body is 413 unread.
    bodyLimit: 1024 * 1024,
    // A URL Fastify cannot route (bad percent-encoding, an over-long parameter) gets the same error document.
    frameworkErrors: (err, request, reply) => sendError(request, reply, err),
    schemaController: {
      compilersFactory: {
        // The factory signature fastify declares is narrower than what it calls it with.
        buildValidator: buildValidator as never,
        // Handlers build every document member by member, so response schemas serve the OpenAPI
        // document only. Compiled serializers (fast-json-stringify) were measured slower here: JSON:API
        // documents are unions (included resources of any type, validated per item to pick a branch),
        // 15% more CPU on the sessions list, and a compile of about a second on a route's first use.
        buildSerializer: () => () => JSON.stringify,
      },
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // No route takes text: a text body is 415 like any other unsupported type, not a string to validate.
  app.removeContentTypeParser('text/plain');
  await app.register(errorHandler);
  await app.register(dbPlugin, {
    url: config.DATABASE_URL,
    poolMax: config.DB_POOL_MAX,
    connectTimeoutSeconds: config.DB_CONNECT_TIMEOUT_SECONDS,
    randomPageCost: config.DB_RANDOM_PAGE_COST,
    // The event's schedule URLs (ical-url, ...) are absolute: statements read the address here.
    settings: { [PUBLIC_URL_SETTING]: publicUrlOf(config) },
    onQuery: options.onQuery,
  });
  // Before the conditional requests: an answer is kept before If-None-Match may turn it into a 304.
  await app.register(readCache, {
    maxBytes: config.READ_CACHE_MB * 2 ** 20,
    listen: options.connect !== false && config.ROLE !== 'worker',
  });
  await app.register(conditional);
  // Browsers on any origin may call the API (apps built by the generator read their event live, the Open
  // Event front end runs on its own host); tokens travel in the Authorization header, never in cookies, so no
  // origin gains anything from another's session. CORS_ORIGINS narrows the origins for operators who want to.
  await app.register(cors, {
    origin: corsOrigins(config.CORS_ORIGINS),
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    strictPreflight: false,
    exposedHeaders: ['Location', 'Retry-After', 'ETag'],
    maxAge: 600,
  });
  const served = options.resources ?? resources;
  await app.register(openapi, {
    tags: [
      // Logging in first: the other operations take its token.
      ...authFace.tags,
      ...served.map((r) => ({ name: r.tag, description: r.description })),
      ...FACES.filter((face) => face !== authFace).flatMap((face) => face.tags),
      operationsTag,
    ],
  });
  await app.register(bossPlugin, {
    url: config.DATABASE_URL,
    jobs: jobs(config),
    work: config.ROLE !== 'api',
    connect: options.connect,
    connectTimeoutSeconds: config.DB_CONNECT_TIMEOUT_SECONDS,
    heartbeatSeconds: config.JOB_HEARTBEAT_SECONDS,
    monitorSeconds: config.JOB_MONITOR_SECONDS,
    pollSeconds: config.JOB_POLL_SECONDS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
  });
  await app.register(storagePlugin, {
    dir: config.STORAGE_DIR,
    publicUrl: publicUrlOf(config),
    s3Urls: config.S3_URLS,
  });
  await app.register(mailerPlugin, {
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    outboxDir: config.MAIL_OUTBOX_DIR === 'none' ? '' : config.MAIL_OUTBOX_DIR,
    retrySeconds: config.MAIL_RETRY_SECONDS,
    retryLimit: config.MAIL_RETRY_LIMIT,
  });
  await app.register(operations, { config });
  await app.register(authPlugin, { secret: config.JWT_SECRET, expiresIn: config.JWT_EXPIRES_IN });
  await app.register(accountMailPlugin, { limits: mailLimitsOf(config), signups: signupLimitsOf(config) });
  await app.register(jsonapi, { resources: served, listAllMax: config.LIST_ALL_MAX });
  // Each face in a scope of its own; the engine above is not one (its shared schemas are everyone's).
  for (const face of FACES) await app.register(face.routes, { config, connect: options.connect !== false });
  if (config.BENCH_ROUTES)
    await app.register(benchRoutes, { loginLimits: loginLimitsOf(config), listAllMax: config.LIST_ALL_MAX });
  return app;
}

/** `*`, or the list of origins CORS_ORIGINS names (a request from any other gets no CORS headers). */
export const corsOrigins = (setting: string): '*' | string[] =>
  setting.trim() === '*' ? '*' : setting.split(',').map((origin) => origin.trim());

import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FetchLimits } from './net/safe-fetch.js';

/** Every environment variable the service reads, with its default. The README lists the same table. */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  DATA_DIR: Type.String({ default: './data' }),
  METRICS_TOKEN: Type.Optional(
    Type.String({ minLength: 16, description: 'when set, GET /metrics answers only requests with `Authorization: Bearer <METRICS_TOKEN>`' }),
  ),
  EMBEDDED_PG_PORT: Type.Integer({
    minimum: 1,
    maximum: 65535,
    default: 54320,
    description: 'port of the embedded PostgreSQL on 127.0.0.1, when DATABASE_URL is unset',
  }),
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DB_CONNECT_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 60,
    default: 5,
    description: 'time to open a database connection; when it fails or the database is down, requests answer 503 with Retry-After at once',
  }),
  DB_RANDOM_PAGE_COST: Type.Number({
    exclusiveMinimum: 0,
    maximum: 100,
    default: 1.1,
    description: "the planner's random_page_cost on the service's connections (PostgreSQL's default 4 models spinning disks)",
  }),
  READ_CACHE_MB: Type.Number({
    minimum: 0,
    default: 64,
    description: 'memory of each API process for answers to JSON:API reads, kept until the data changes (0: no cache)',
  }),
  LIST_ALL_MAX: Type.Integer({
    minimum: 20,
    default: 10000,
    description: 'the most records a list answers to page[size]=0 ("all"; 400 when more match), and the largest page[size]',
  }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  JWT_EXPIRES_IN: Type.Integer({ minimum: 60, default: 86400, description: 'access token lifetime in seconds' }),
  JWT_REFRESH_EXPIRES_IN: Type.Integer({
    minimum: 60,
    default: 2592000,
    description: 'refresh token lifetime in seconds (each token from its issue; a login ends when its last one does)',
  }),
  EMAIL_VERIFICATION_EXPIRES_IN: Type.Integer({ minimum: 60, default: 604800, description: 'lifetime of the link of a verification mail, in seconds' }),
  PASSWORD_RESET_EXPIRES_IN: Type.Integer({ minimum: 60, default: 3600, description: 'lifetime of the link of a password reset mail, in seconds' }),
  SUPER_ADMIN_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' })),
  SUPER_ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], {
    default: 'all',
    description: 'api serves HTTP, worker runs the background jobs, all does both (also `npm start -- --role <role>`)',
  }),
  API_PROCESSES: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 1,
    description: 'HTTP processes sharing the port (Node cluster); each has its own pool of DB_POOL_MAX connections',
  }),
  SHUTDOWN_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    default: 30,
    description: 'on SIGTERM, time for requests in flight and running jobs to finish before the process exits anyway (exit code 1)',
  }),
  JOB_HEARTBEAT_SECONDS: Type.Integer({
    minimum: 10,
    default: 30,
    description: 'a worker confirms each running job alive twice in this time; a job of a worker that stopped confirming (it died) is retried',
  }),
  JOB_MONITOR_SECONDS: Type.Integer({ minimum: 1, default: 10, description: 'how often the workers look for such jobs (and expired ones)' }),
  TASK_RETRY_SECONDS: Type.Integer({
    minimum: 0,
    default: 30,
    description: 'delay before an export, import or app build whose attempt failed or whose worker died runs again',
  }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://', description: 'SMTP server when the settings name none' })),
  MAIL_FROM: Type.String({ default: 'Open Event <no-reply@localhost>', description: 'sender when the settings name none' }),
  MAIL_OUTBOX_DIR: Type.String({ default: './data/outbox', description: 'where messages are also written as .eml files without SMTP (one machine; `none`: the mails table only)' }),
  MAIL_RETRY_SECONDS: Type.Integer({ minimum: 1, default: 60, description: 'first retry of a failed delivery; doubles each time' }),
  MAIL_RETRY_LIMIT: Type.Integer({ minimum: 0, default: 10, description: 'retries before a mail is marked failed' }),
  PUBLIC_URL: Type.Optional(
    Type.String({ pattern: '^https?://[^/?#]+$', description: 'origin the service is reached at, for URLs of stored files (default http://localhost:<PORT>)' }),
  ),
  STORAGE_DIR: Type.String({ default: './data/storage', description: 'local storage folder, served at /static/media/' }),
  LOCAL_STORAGE_SHARED: Type.Boolean({
    default: false,
    description:
      'STORAGE_DIR is one folder for every process of the deployment (one machine, or a shared volume): lets ROLE=api and ROLE=worker processes keep files in local storage',
  }),
  S3_URLS: Type.Union([Type.Literal('public'), Type.Literal('presigned')], {
    default: 'public',
    description: 'URLs of S3 objects: plain (the bucket is readable) or presigned for 7 days',
  }),
  UPLOAD_TMP_DIR: Type.Optional(Type.String({ description: 'where uploads are streamed before they are stored (default: the system temp folder)' })),
  UPLOAD_MAX_FILE_BYTES: Type.Integer({ minimum: 1, default: 134217728, description: 'largest uploaded file (413 above)' }),
  UPLOAD_MAX_FILES: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'files per upload request (400 above)' }),
  IMAGE_MAX_BYTES: Type.Integer({ minimum: 1, default: 10485760, description: 'largest decoded image of POST /v1/upload/image' }),
  IMAGE_MAX_PIXELS: Type.Integer({ minimum: 1, default: 40000000, description: 'largest image (width x height) decoded' }),
  IMPORT_MAX_ENTRIES: Type.Integer({ minimum: 1, default: 20000, description: 'files an import archive may hold' }),
  IMPORT_MAX_INFLATED_BYTES: Type.Integer({ minimum: 1, default: 1073741824, description: 'inflated size of an import archive' }),
  IMPORT_MAX_RATIO: Type.Integer({ minimum: 1, default: 200, description: 'compression ratio of any entry of an import archive' }),
  IMPORT_MAX_JSON_BYTES: Type.Integer({ minimum: 1, default: 67108864, description: 'inflated size of any one JSON file of an import archive (each is parsed in memory)' }),
  FETCH_ALLOW_PRIVATE: Type.Boolean({ default: false, description: 'let remote fetches reach private and loopback addresses' }),
  FETCH_MAX_BYTES: Type.Integer({ minimum: 1, default: 20971520, description: 'largest remote file fetched (images, media)' }),
  FETCH_TIMEOUT_SECONDS: Type.Integer({ minimum: 1, default: 20, description: 'time limit of one remote fetch' }),
  ASSISTANT_SETTINGS_DIR: Type.String({ default: './data/settings', description: "the assistant's settings files (accounting, authorization, groups)" }),
  SKILL_REPO_DIR: Type.String({ default: './data/skills', description: 'the git repository of the assistant skills' }),
  APPGEN_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2, description: 'app builds running at once, over all workers' }),
  APPGEN_TIMEOUT_SECONDS: Type.Integer({ minimum: 10, default: 300, description: 'time limit of one app build (reading the event included)' }),
  APPGEN_MAX_DATA_BYTES: Type.Integer({ minimum: 1, default: 67108864, description: 'bytes one app build may read from the endpoint' }),
  APPGEN_RATE_PER_EMAIL: Type.Integer({ minimum: 1, default: 5, description: 'app builds one e-mail address may ask for per window' }),
  APPGEN_RATE_PER_IP: Type.Integer({ minimum: 1, default: 20, description: 'app builds one client address may ask for per window' }),
  APPGEN_RATE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 3600, description: 'the window of the app build rate limits' }),
  LOGIN_MAX_FAILURES: Type.Integer({ minimum: 1, default: 10, description: 'failed logins of one e-mail address per window before logins of it answer 429' }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({ minimum: 1, default: 100, description: 'failed logins from one client address per window before its logins answer 429' }),
  LOGIN_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 900, description: 'the window of the login limits' }),
  MAIL_RATE_PER_RECIPIENT: Type.Integer({ minimum: 1, default: 5, description: 'mails clients may have sent to one mailbox per window (receipts, account mails)' }),
  MAIL_RATE_PER_IP: Type.Integer({ minimum: 1, default: 1000, description: 'mails one client address may have sent per window (receipts, account mails)' }),
  MAIL_RATE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 3600, description: 'the window of the mail limits' }),
  CHECK_EMAIL_RATE_PER_IP: Type.Integer({ minimum: 1, default: 30, description: 'POST /v1/users/check_email lookups one client address may make per window' }),
  CHECK_EMAIL_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 3600, description: 'the window of the check_email limit' }),
  TRUST_PROXY: Type.Optional(
    Type.String({ minLength: 1, description: 'comma-separated addresses or CIDRs of the load balancers whose X-Forwarded-For gives the client address' }),
  ),
  EXPORT_LINK_SECONDS: Type.Integer({
    minimum: 60,
    default: 604800,
    description: 'how long the signed download_url of an export works (the archive is downloaded with it, without a token)',
  }),
  CORS_ORIGINS: Type.String({
    pattern: '^\\s*(\\*|https?://[^\\s,/]+(\\s*,\\s*https?://[^\\s,/]+)*)\\s*$',
    default: '*',
    description: 'origins browsers may call the API from: `*` (any) or comma-separated origins such as https://eventyay.example.org',
  }),
  BENCH_ROUTES: Type.Boolean({ default: false, description: 'mount the /bench baseline routes used by make bench (loopback callers only; never in production)' }),
});
export type Config = Static<typeof ConfigSchema> & { JWT_SECRET: string };
/** How remote files (images, media) may be fetched. */
export const fetchLimits = (config: Config): FetchLimits => ({
  allowPrivate: config.FETCH_ALLOW_PRIVATE,
  maxBytes: config.FETCH_MAX_BYTES,
  timeoutMs: config.FETCH_TIMEOUT_SECONDS * 1000,
});

/** The origin URLs of stored files start with. */
export const publicUrlOf = (config: Config) => config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;

export type ConfigInput = Partial<Record<keyof Static<typeof ConfigSchema>, string>>;

/** Reads the configuration once; unknown or invalid values stop the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv | ConfigInput = process.env): Static<typeof ConfigSchema> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const raw = env[key as keyof typeof env];
    if (raw !== undefined && raw !== '') picked[key] = raw;
  }
  const value = Value.Default(ConfigSchema, Value.Convert(ConfigSchema, picked));
  const errors = [...Value.Errors(ConfigSchema, value)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.path.slice(1) || '(root)'}: ${e.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return value as Static<typeof ConfigSchema>;
}

import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FetchLimits } from './net/safe-fetch.js';

/**
 * Every environment variable the service reads, with its default. Each `description` is the variable's
 * row of the README's configuration table (markdown; `make config-table` writes the table from here, and
 * test/server/config-table.test.ts fails when the README is stale). `defaultText` is what the table shows
 * as the default when that is no literal of the schema (otherwise the default, or `unset` without one).
 */
export const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'HTTP port' }),
  HOST: Type.String({ default: '0.0.0.0', description: 'interface to listen on' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'PostgreSQL URL; unset runs the embedded server under `DATA_DIR` (on `EMBEDDED_PG_PORT`)',
      defaultText: 'unset (embedded PostgreSQL)',
    }),
  ),
  DATA_DIR: Type.String({
    default: './data',
    description:
      'embedded database (when `DATABASE_URL` is unset) and the generated JWT secret (when `JWT_SECRET` is unset)',
  }),
  METRICS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'when set (16 characters or more), `GET /metrics` answers only requests with `Authorization: Bearer <METRICS_TOKEN>`',
    }),
  ),
  EMBEDDED_PG_PORT: Type.Integer({
    minimum: 1,
    maximum: 65535,
    default: 54320,
    description:
      'port of the embedded PostgreSQL on 127.0.0.1, used when `DATABASE_URL` is unset (set another when two checkouts run at once)',
  }),
  DB_POOL_MAX: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: 10,
    description: 'connections in the pool (per process)',
  }),
  DB_CONNECT_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 60,
    default: 5,
    description:
      "time to open a database connection (also pg-boss's); while the database is down or restarting, requests answer 503 with " +
      '`Retry-After` within this time instead of hanging, and the same process serves again once it is back',
  }),
  DB_RANDOM_PAGE_COST: Type.Number({
    exclusiveMinimum: 0,
    maximum: 100,
    default: 1.1,
    description:
      "the planner's `random_page_cost` on the service's connections (PostgreSQL's default 4 models spinning disks; use what suits your storage)",
  }),
  READ_CACHE_MB: Type.Number({
    minimum: 0,
    default: 64,
    description:
      'memory of each API process for answers to JSON:API reads, kept until a table they read changes (`0`: no cache; see Production)',
  }),
  LIST_ALL_MAX: Type.Integer({
    minimum: 20,
    default: 10000,
    description:
      'the most records a list answers to `page[size]=0` ("all", 400 when more match), and the largest `page[size]` (at least 20)',
  }),
  JWT_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'HS256 signing secret, at least 32 characters; set it when several instances share a database',
      defaultText: 'generated into `DATA_DIR/jwt-secret`',
    }),
  ),
  JWT_EXPIRES_IN: Type.Integer({ minimum: 60, default: 86400, description: 'access token lifetime in seconds' }),
  JWT_REFRESH_EXPIRES_IN: Type.Integer({
    minimum: 60,
    default: 2592000,
    description:
      "refresh token lifetime in seconds (the default is 30 days), counted from each token's issue; a login ends when its last token has " +
      'expired (see [Logins and account flows](#logins-and-account-flows))',
  }),
  EMAIL_VERIFICATION_EXPIRES_IN: Type.Integer({
    minimum: 60,
    default: 604800,
    description: 'lifetime in seconds of the link of a verification mail',
  }),
  PASSWORD_RESET_EXPIRES_IN: Type.Integer({
    minimum: 60,
    default: 3600,
    description: 'lifetime in seconds of the link of a password reset mail',
  }),
  INVITE_EXPIRES_IN: Type.Integer({
    minimum: 60,
    default: 86400,
    description:
      'lifetime in seconds of the link of a role invite mail (the reference: a day); each mail of an invite, a resend too, ' +
      'carries a new link and ends the earlier ones',
  }),
  SUPER_ADMIN_EMAIL: Type.Optional(
    Type.String({
      pattern: '^[^@\\s]+@[^@\\s]+$',
      description:
        'with `SUPER_ADMIN_PASSWORD`: create or promote the super admin of this e-mail address at start-up (idempotent)',
    }),
  ),
  SUPER_ADMIN_PASSWORD: Type.Optional(
    Type.String({
      minLength: 8,
      description:
        'with `SUPER_ADMIN_EMAIL`: the password of that super admin when start-up creates it (idempotent; an existing account is only ' +
        'promoted and keeps its password); at least 8 characters',
    }),
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace`, or `silent`' },
  ),
  ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], {
    default: 'all',
    description:
      '`api` serves HTTP only, `worker` runs the background jobs only, `all` does both (also `npm start -- --role worker`; separate ' +
      'workers need a shared `DATABASE_URL`)',
  }),
  API_PROCESSES: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 1,
    description:
      'HTTP processes of this start sharing its port (Node cluster, connections handed round robin; one that dies is replaced); each has ' +
      'its own pool of `DB_POOL_MAX` connections',
  }),
  SHUTDOWN_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    default: 30,
    description:
      'on SIGTERM (or SIGINT) a process stops accepting connections at once, lets the requests in flight and the jobs it runs end, then ' +
      'closes the job queue and the pool and exits 0; jobs still running 3 seconds before this are handed back to the queue for a retry ' +
      '(logged), and a request still running at this time makes the process exit 1 anyway (logged). With `API_PROCESSES` > 1 the primary ' +
      'passes the signal on and waits 5 seconds longer (a replacement process still starting, with nothing in flight, simply stops)',
  }),
  JOB_HEARTBEAT_SECONDS: Type.Integer({
    minimum: 10,
    default: 30,
    description:
      'a worker confirms each job it runs alive twice per `JOB_HEARTBEAT_SECONDS` (at least 10); a job not confirmed for this long (its ' +
      'worker died) is retried, found by the workers within `JOB_MONITOR_SECONDS` more',
  }),
  JOB_POLL_SECONDS: Type.Number({
    minimum: 0.5,
    maximum: 60,
    default: 2,
    description:
      'how often a worker asks the queue for jobs that became due (a retry after its delay, a job sent for later); a job sent for ' +
      'now wakes the workers at once (NOTIFY) whatever this is',
  }),
  JOB_MONITOR_SECONDS: Type.Integer({
    minimum: 1,
    default: 10,
    description:
      'every `JOB_MONITOR_SECONDS` the workers look for jobs of a worker that stopped confirming them alive (it died; see ' +
      '`JOB_HEARTBEAT_SECONDS`) or past their expiry, and fail them so they are retried',
  }),
  TASK_RETRY_SECONDS: Type.Integer({
    minimum: 0,
    default: 30,
    description:
      'delay before an export, import or app build runs again after its attempt failed or its worker died (two retries, then the task ' +
      'ends FAILED and its requester is mailed)',
  }),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      description:
        'SMTP server, e.g. `smtp://user:pass@mail.example.com:587` (or `smtps://`); used when the admin settings name no SMTP server',
    }),
  ),
  MAIL_FROM: Type.String({
    default: 'Open Event <no-reply@localhost>',
    description: 'sender when the admin settings name none',
  }),
  MAIL_OUTBOX_DIR: Type.String({
    default: './data/outbox',
    description:
      'with no SMTP server at all, every message stays in the `mails` table (the outbox every process shares) and is also written here ' +
      'as an `.eml` file; `none`: the table only (several machines)',
  }),
  MAIL_RETRY_SECONDS: Type.Integer({
    minimum: 1,
    default: 60,
    description:
      'a failed delivery is retried after this delay in seconds, doubling each time, up to `MAIL_RETRY_LIMIT` times, then marked failed',
  }),
  MAIL_RETRY_LIMIT: Type.Integer({
    minimum: 0,
    default: 10,
    description:
      'how many times a failed delivery is retried (first after `MAIL_RETRY_SECONDS`, doubling each time) before the mail is marked failed',
  }),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/?#]+$',
      description: 'origin clients reach the service at; URLs of locally stored files start with it',
      defaultText: '`http://localhost:<PORT>`',
    }),
  ),
  STORAGE_DIR: Type.String({
    default: './data/storage',
    description: 'local file storage, served at `/static/media/`',
  }),
  LOCAL_STORAGE_SHARED: Type.Boolean({
    default: false,
    description:
      '`true`: `STORAGE_DIR` is one folder for every process (one machine, or a shared volume), so `ROLE=api` and `ROLE=worker` processes ' +
      'may keep files there; without it they refuse to start on local storage',
  }),
  S3_URLS: Type.Union([Type.Literal('public'), Type.Literal('presigned')], {
    default: 'public',
    description: 'URLs of files stored in S3: `public` (the bucket must be readable) or `presigned` (valid 7 days)',
  }),
  UPLOAD_TMP_DIR: Type.Optional(
    Type.String({
      description: 'uploads stream into a temp folder here and are removed after every request',
      defaultText: 'the system temp folder',
    }),
  ),
  UPLOAD_MAX_FILE_BYTES: Type.Integer({
    minimum: 1,
    default: 134217728,
    description: 'largest uploaded file, in bytes (413 above)',
  }),
  UPLOAD_MAX_FILES: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 10,
    description: 'files per upload request (400 above)',
  }),
  IMAGE_MAX_BYTES: Type.Integer({
    minimum: 1,
    default: 10485760,
    description: 'largest image of `POST /v1/upload/image`, in bytes (413 above)',
  }),
  IMAGE_MAX_PIXELS: Type.Integer({
    minimum: 1,
    default: 40000000,
    description: 'images with more pixels (width x height) than this are never decoded',
  }),
  IMPORT_MAX_ENTRIES: Type.Integer({
    minimum: 1,
    default: 20000,
    description: 'limit of an import archive: the entries (files) it may hold',
  }),
  IMPORT_MAX_INFLATED_BYTES: Type.Integer({
    minimum: 1,
    default: 1073741824,
    description: 'limit of an import archive: its inflated size, in bytes',
  }),
  IMPORT_MAX_RATIO: Type.Integer({
    minimum: 1,
    default: 200,
    description: 'limit of an import archive: the compression ratio of any one entry',
  }),
  IMPORT_MAX_JSON_BYTES: Type.Integer({
    minimum: 1,
    default: 67108864,
    description:
      'inflated size of any one JSON file of an import archive (each is parsed in memory; the import fails above it)',
  }),
  FETCH_ALLOW_PRIVATE: Type.Boolean({
    default: false,
    description: 'let fetches of user-given URLs (remote images) reach private and loopback addresses',
  }),
  FETCH_MAX_BYTES: Type.Integer({
    minimum: 1,
    default: 20971520,
    description: 'size limit of one remote fetch (images, media), in bytes',
  }),
  FETCH_TIMEOUT_SECONDS: Type.Integer({
    minimum: 1,
    default: 20,
    description: 'time limit of one remote fetch, in seconds',
  }),
  ASSISTANT_SETTINGS_DIR: Type.String({
    default: './data/settings',
    description:
      "the assistant's settings files (accounting, authorization, groups); `userRole` edited in authorization.json is applied at start-up",
  }),
  SKILL_REPO_DIR: Type.String({
    default: './data/skills',
    description:
      "this process's git mirror of the assistant's skill repository, which PostgreSQL holds (created when missing; needs `git` on the " +
      'PATH); an existing repository here becomes the shared one when the database has none yet',
  }),
  APPGEN_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 64,
    default: 2,
    description: 'app builds running at once, counted over all worker processes',
  }),
  APPGEN_TIMEOUT_SECONDS: Type.Integer({
    minimum: 10,
    default: 300,
    description: 'time limit of one app build, in seconds (reading the event included)',
  }),
  APPGEN_MAX_DATA_BYTES: Type.Integer({
    minimum: 1,
    default: 67108864,
    description: 'the bytes one app build may read from the endpoint',
  }),
  APPGEN_RATE_PER_EMAIL: Type.Integer({
    minimum: 1,
    default: 5,
    description:
      'app builds one mailbox (`+tags` count as the mailbox) may ask for per `APPGEN_RATE_WINDOW_SECONDS` (429 with `Retry-After` above)',
  }),
  APPGEN_RATE_PER_IP: Type.Integer({
    minimum: 1,
    default: 20,
    description:
      'app builds one client address (IPv6: its /64) may ask for per `APPGEN_RATE_WINDOW_SECONDS` (429 with `Retry-After` above)',
  }),
  APPGEN_RATE_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    default: 3600,
    description: 'the window of the app build limits `APPGEN_RATE_PER_EMAIL` and `APPGEN_RATE_PER_IP`, in seconds',
  }),
  LOGIN_MAX_FAILURES: Type.Integer({
    minimum: 1,
    default: 10,
    description:
      'failed logins of one e-mail address (any letter case) per `LOGIN_WINDOW_SECONDS`; past it, every login of that address answers ' +
      '429 with `Retry-After` without checking the password (`/v1/auth/login`, `/auth/session`, `/aaa/login.json`; a wrong current ' +
      'password at `/v1/auth/change-password` counts as a failed login of the account); an attempt counts as a failure until it ' +
      "succeeds (so parallel guesses count), and a success forgives its e-mail's failures",
  }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({
    minimum: 1,
    default: 100,
    description:
      'failed logins from one client address (IPv6: its /64) per `LOGIN_WINDOW_SECONDS`, whatever the e-mail addresses; past it, every ' +
      'login from that address answers 429 with `Retry-After` without checking the password (`/v1/auth/login`, `/auth/session`, ' +
      '`/aaa/login.json`; a wrong current password at `/v1/auth/change-password` counts as a failed login); an attempt counts as a ' +
      "failure until it succeeds (so parallel guesses count), and a success never forgives the client's other failures. Tokens presented " +
      'by a client (refresh tokens, the tokens of mailed links) that fail count the same way per client address, in a count of their own',
  }),
  LOGIN_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    default: 900,
    description:
      'the window of the login limits `LOGIN_MAX_FAILURES` and `LOGIN_MAX_FAILURES_PER_IP` (and of failed tokens per client address), in seconds',
  }),
  MAIL_RATE_PER_RECIPIENT: Type.Integer({
    minimum: 1,
    default: 5,
    description:
      'mails a client may have sent to one mailbox (`+tags` count as the mailbox) per `MAIL_RATE_WINDOW_SECONDS` (receipts, verification ' +
      'and password reset mails, counted for a reset whether or not an account has the address); past it, 429 with `Retry-After` and ' +
      'nothing is sent (a registration past it creates the account without its verification mail, which can be asked for again)',
  }),
  MAIL_RATE_PER_IP: Type.Integer({
    minimum: 1,
    default: 1000,
    description:
      'mails one client address (IPv6: its /64) may have sent per `MAIL_RATE_WINDOW_SECONDS`, to any addresses (receipts, verification ' +
      'and password reset mails, counted for a reset whether or not an account has the address); past it, 429 with `Retry-After` and ' +
      'nothing is sent (a registration past it creates the account without its verification mail, which can be asked for again)',
  }),
  MAIL_RATE_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    default: 3600,
    description: 'the window of the mail limits `MAIL_RATE_PER_RECIPIENT` and `MAIL_RATE_PER_IP`, in seconds',
  }),
  CHECK_EMAIL_RATE_PER_IP: Type.Integer({
    minimum: 1,
    default: 30,
    description:
      '`POST /v1/users/check_email` lookups one client address (IPv6: its /64) may make per `CHECK_EMAIL_WINDOW_SECONDS` (429 with ' +
      '`Retry-After` above): it tells whether an address is registered',
  }),
  CHECK_EMAIL_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    default: 3600,
    description: 'the window of the `POST /v1/users/check_email` limit `CHECK_EMAIL_RATE_PER_IP`, in seconds',
  }),
  SIGNUP_RATE_PER_IP: Type.Integer({
    minimum: 1,
    default: 10,
    description:
      'accounts one client address (IPv6: its /64) may register per `SIGNUP_WINDOW_SECONDS` (`POST /v1/users` and ' +
      "`/aaa/signup.json`; administrators' creations do not count); past it, 429 with `Retry-After` and no account",
  }),
  SIGNUP_RATE_PER_DOMAIN: Type.Integer({
    minimum: 1,
    default: 200,
    description:
      'accounts all clients together may register per `SIGNUP_WINDOW_SECONDS` for addresses of one domain (the part after `@`), ' +
      'so that no domain gets a flood of verification mails from many client addresses; past it, 429 with `Retry-After`. Raise it ' +
      'where many people sign up at once with one large mail provider',
  }),
  SIGNUP_WINDOW_SECONDS: Type.Integer({
    minimum: 1,
    default: 3600,
    description: 'the window of the sign-up limits `SIGNUP_RATE_PER_IP` and `SIGNUP_RATE_PER_DOMAIN`, in seconds',
  }),
  TRUST_PROXY: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'comma-separated addresses or CIDRs of the load balancers whose `X-Forwarded-For` gives the client address (rate limits)',
    }),
  ),
  EXPORT_LINK_SECONDS: Type.Integer({
    minimum: 60,
    default: 604800,
    description:
      'how long the signed `download_url` of an export works: anyone holding it downloads the archive without a token (as the Open ' +
      'Event front end does) until then; afterwards organizers download it signed in',
  }),
  CORS_ORIGINS: Type.String({
    pattern: '^\\s*(\\*|https?://[^\\s,/]+(\\s*,\\s*https?://[^\\s,/]+)*)\\s*$',
    default: '*',
    description:
      'origins browsers may call the API from: `*`, or comma-separated origins (`https://eventyay.example.org,https://admin.example.org`); ' +
      'others get no CORS headers. Methods GET, HEAD, POST, PATCH, DELETE and OPTIONS; no credentials ever (tokens travel in the ' +
      '`Authorization` header)',
  }),
  BENCH_ROUTES: Type.Boolean({
    default: false,
    description:
      'mount the `/bench/baseline/*` routes `make bench` compares against; they answer raw rows (the settings with their secrets) to ' +
      'loopback callers only, 404 to anyone else. Never on in production',
  }),
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

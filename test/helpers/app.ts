import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import postgres from 'postgres';
import type { Test } from 'tap';
import type { ResourceSpec } from '../../src/jsonapi/index.js';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { checkConformance } from './conformance.js';
import { createTestDatabase } from './database.js';

export const JSONAPI = 'application/vnd.api+json';
/** Workers of a test find a job that became due (a retry, a job sent for later) within half a second, not two. */
export const TEST_JOBS = { JOB_POLL_SECONDS: '0.5' };

export const TEST_SECRET = 'test-secret-that-is-at-least-32-characters-long';

export interface TestApp {
  app: FastifyInstance;
  url: string;
  /** SQL statements sent since the last `resetQueries()`. */
  queries: string[];
  resetQueries(): void;
}

/** The real app on a database of its own, closed and dropped when the test ends. */
export async function buildTestApp(
  t: Test,
  env: Record<string, string> = {},
  options: { resources?: ResourceSpec[]; setupSql?: string; onRoute?: AppOptions['onRoute']; contract?: boolean } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  if (options.setupSql) {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    await sql.unsafe(options.setupSql);
    await sql.end();
  }
  const queries: string[] = [];
  const outbox = await mkdtemp(join(tmpdir(), 'oe-outbox-'));
  const storage = await mkdtemp(join(tmpdir(), 'oe-storage-'));
  const settingsDir = await mkdtemp(join(tmpdir(), 'oe-settings-'));
  // Workers only where a test asks for them (ROLE=all): the others need not poll the job queues. No read
  // cache unless asked (READ_CACHE_MB): tests that write with SQL read back at once, before a notification.
  // One machine: the storage folder is every process's (LOCAL_STORAGE_SHARED), as for the services of test/helpers/service.ts.
  const config = loadConfig({
    ...TEST_JOBS,
    LOG_LEVEL: 'silent',
    ROLE: 'api',
    LOCAL_STORAGE_SHARED: 'true',
    READ_CACHE_MB: '0',
    MAIL_OUTBOX_DIR: outbox,
    STORAGE_DIR: storage,
    ASSISTANT_SETTINGS_DIR: join(settingsDir, 'settings'),
    SKILL_REPO_DIR: join(settingsDir, 'skills'),
    ...env,
  });
  const app = await buildApp(
    { ...config, DATABASE_URL: db.url, JWT_SECRET: env.JWT_SECRET ?? TEST_SECRET },
    { onQuery: (q) => queries.push(q), resources: options.resources, onRoute: options.onRoute },
  );
  // The engine's own tests serve fixture resources that the committed document does not describe.
  // `contract: false` for a test that provokes what the contract rightly leaves out (a 500 is a bug).
  if (!options.resources && options.contract !== false)
    checkConformance(app, (problem) => t.fail(`answer outside the OpenAPI contract: ${problem}`));
  t.teardown(async () => {
    await app.close();
    await db.drop();
    await rm(outbox, { recursive: true, force: true });
    await rm(storage, { recursive: true, force: true });
    await rm(settingsDir, { recursive: true, force: true });
  });
  await app.ready();
  return { app, url: db.url, queries, resetQueries: () => void queries.splice(0) };
}

/**
 * Another process's app on the test database `url` (not listening; no contract check), with folders of
 * its own in a temporary directory; closed and removed at the end of `t`.
 */
export async function buildOtherApp(t: Test, url: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const dir = await mkdtemp(join(tmpdir(), 'oe-other-'));
  const folders = {
    STORAGE_DIR: join(dir, 'storage'),
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
    ASSISTANT_SETTINGS_DIR: join(dir, 'settings'),
    SKILL_REPO_DIR: join(dir, 'skills'),
  };
  const app = await buildApp({
    ...loadConfig({ ...TEST_JOBS, LOG_LEVEL: 'silent', ROLE: 'api', ...folders, ...env }),
    DATABASE_URL: url,
    JWT_SECRET: TEST_SECRET,
  });
  t.teardown(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });
  await app.ready();
  return app;
}

export interface Call {
  method?: InjectOptions['method'];
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A JSON:API request as a client sends it; answers status, headers and the parsed body. */
export async function call(app: FastifyInstance, { method = 'GET', url, token, body, headers = {} }: Call) {
  const res = await app.inject({
    method,
    url,
    headers: {
      accept: JSONAPI,
      ...(body !== undefined ? { 'content-type': JSONAPI } : {}),
      ...(token ? { authorization: `JWT ${token}` } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const json = res.body ? (JSON.parse(res.body) as any) : undefined;
  return { status: res.statusCode, headers: res.headers, body: json };
}

type Response = Awaited<ReturnType<typeof call>>;

/** The parts every JSON:API answer shares: status, exact media type, and the jsonapi member. */
export function assertDocument(t: Test, res: Response, status: number) {
  t.equal(res.status, status, `status ${status}`);
  t.equal(res.headers['content-type'], JSONAPI, 'content-type is exactly the JSON:API media type');
  t.same(res.body?.jsonapi, { version: '1.0' }, 'jsonapi member');
}

/**
 * An error document with that status, made only of `errors` and `jsonapi`, whose error objects
 * hold status/title/detail/source and no stack trace, and whose first error has exactly that
 * `source` (none when undefined) and, when given, that detail.
 */
export function assertError(
  t: Test,
  res: Response,
  status: number,
  source?: { pointer?: string; parameter?: string },
  detail?: string | RegExp,
) {
  assertDocument(t, res, status);
  t.same(Object.keys(res.body ?? {}).sort(), ['errors', 'jsonapi'], 'an error document has only errors and jsonapi');
  const errors: Record<string, unknown>[] = res.body?.errors ?? [];
  t.ok(errors.length >= 1, 'at least one error');
  for (const e of errors) {
    t.equal(e.status, String(status), 'error status is the HTTP status as a string');
    t.type(e.title, 'string');
    t.type(e.detail, 'string');
    t.ok(
      Object.keys(e).every((k) => ['status', 'title', 'detail', 'source'].includes(k)),
      'no other error members',
    );
    t.notOk(JSON.stringify(e).includes('    at '), 'no stack trace');
  }
  const [error] = errors;
  t.strictSame(error?.source, source, 'error source (of the first error)');
  if (detail !== undefined) t.match(error?.detail, detail, 'error detail');
  return error;
}

/** Polls `probe` every 100 ms until it answers a value; fails naming `what` when `ms` pass first (a minute: machines are slow and noisy). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

import type { FastifyInstance, InjectOptions } from 'fastify';
import postgres from 'postgres';
import type { Test } from 'tap';
import type { ResourceSpec } from '../../src/jsonapi/resource.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createTestDatabase } from './database.js';

export const JSONAPI = 'application/vnd.api+json';
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
  options: { resources?: ResourceSpec[]; setupSql?: string } = {},
): Promise<TestApp> {
  const db = await createTestDatabase();
  if (options.setupSql) {
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    await sql.unsafe(options.setupSql);
    await sql.end();
  }
  const queries: string[] = [];
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env });
  const app = await buildApp(
    { ...config, DATABASE_URL: db.url, JWT_SECRET: env.JWT_SECRET ?? TEST_SECRET },
    { onQuery: (q) => queries.push(q), resources: options.resources },
  );
  t.teardown(async () => {
    await app.close();
    await db.drop();
  });
  await app.ready();
  return { app, url: db.url, queries, resetQueries: () => void queries.splice(0) };
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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = res.body ? (JSON.parse(res.body) as any) : undefined;
  return { status: res.statusCode, headers: res.headers, body: json };
}

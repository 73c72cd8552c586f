/**
 * What the permission matrix tests share: the routes of the real app (collected by an `onRoute` hook
 * while buildApp declares them), the rules for the routes the matrix leaves out, the face each route
 * belongs to, the coverage check, and the runner that sends one request per route and caller.
 */
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import type { Test } from 'tap';
import { buildTestApp, JSONAPI, type TestApp } from '../helpers/app.js';
import { CALLERS, MATRIX, type Caller, type Outcome } from './permission-matrix.js';

/**
 * `GET /v1/events/{id}`: the method and the route as the matrix names it (`:id` -> `{id}`, `*` -> `{*}`; a
 * parameter's pattern, `:id(^[0-9]+$)`, is left out as the OpenAPI document leaves it out).
 */
export const routeKey = (method: string, url: string) =>
  `${method} ${url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}').replace(/\*$/, '{*}')}`;

/** An entry's route: the key without its `[...]` suffix. */
export const baseOf = (key: string) => key.replace(/ \[.*\]$/, '');

/**
 * Routes the matrix leaves out, each for a stated reason. Everything else the app serves needs an
 * entry in MATRIX.
 */
export const IGNORED: { rule: RegExp; reason: string }[] = [
  {
    rule: /^OPTIONS \{\*\}$/,
    reason:
      'the CORS preflight (@fastify/cors): answers 204 with the CORS headers to every caller before any route runs, and carries no data',
  },
  {
    rule: /^(GET|HEAD) \/docs(\/|$)/,
    reason:
      'Swagger UI and the OpenAPI document: public by design, static, built from the route schemas without any record',
  },
  {
    rule: /^(GET|HEAD) \/(healthz|readyz|metrics)$/,
    reason:
      'the probes and metrics (src/operations.ts): public by design, no record in them; /metrics behind METRICS_TOKEN when set (test/server/operations.test.ts)',
  },
];

/**
 * A HEAD route Fastify adds next to a GET route runs the GET route's hooks and handler, so the GET
 * entry decides it; a HEAD route without its GET twin would need an entry of its own.
 */
const isHeadTwin = (key: string, all: Set<string>) => key.startsWith('HEAD ') && all.has(`GET ${key.slice(5)}`);

export type Face = 'v1-read' | 'v1-records' | 'v1-write' | 'assistant' | 'appgen';

/** The records of an event, whose writes have a test file of their own. */
const EVENT_RECORDS =
  /^\/v1\/(event-copyrights?|social-links|microlocations|sponsors|tracks|session-types|sessions|speakers|custom-forms|tickets|tax|taxes|speakers-calls?|ticket-tags|tags)\//;

/** The test file that owns a route; undefined for a route no face claims (which fails every file). */
export function faceOf(key: string): Face | undefined {
  const [method, path] = baseOf(key).split(' ') as [string, string];
  // The generator's own paths and the v2 web form's POST / (nothing else is served at /).
  if (/^\/api\//.test(path) || path === '/') return 'appgen';
  if (/^\/(cms|aaa|data|susi)\//.test(path)) return 'assistant';
  if (!/^\/(v1|auth|static)\//.test(path)) return undefined;
  if (method === 'GET' || method === 'HEAD') return 'v1-read';
  return EVENT_RECORDS.test(`${path}/`) ? 'v1-records' : 'v1-write';
}

/** The real app (buildTestApp) and the key of every route it declared. */
export async function appWithRoutes(
  t: Test,
  env: Record<string, string> = {},
): Promise<TestApp & { routes: string[] }> {
  const routes: string[] = [];
  const collect = (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push(routeKey(method, route.url));
  };
  return { ...(await buildTestApp(t, env, { onRoute: collect })), routes };
}

/**
 * What is wrong with the matrix of `face` for these routes: a route that is neither ignored by a rule,
 * nor a HEAD twin, nor of any face; a route of `face` without an entry; an entry of `face` whose route
 * the app does not serve. Each problem names the route.
 */
export function coverageProblems(routes: string[], face: Face): string[] {
  const all = new Set(routes);
  const matrixed = routes.filter((k) => !isHeadTwin(k, all) && !IGNORED.some(({ rule }) => rule.test(k)));
  const entries = new Set(Object.keys(MATRIX).map(baseOf));
  return [
    ...matrixed
      .filter((k) => faceOf(k) === undefined)
      .map((k) => `${k}: a route of no face (add it to faceOf and MATRIX)`),
    ...matrixed
      .filter((k) => faceOf(k) === face && !entries.has(k))
      .map((k) => `${k}: the app serves it, MATRIX has no entry`),
    ...Object.keys(MATRIX)
      .filter((k) => faceOf(k) === face && !all.has(baseOf(k)))
      .map((k) => `${k}: an entry in MATRIX, but the app serves no such route`),
  ];
}

export function checkCoverage(t: Test, routes: string[], face: Face) {
  for (const problem of coverageProblems(routes, face)) t.fail(problem);
  t.ok(
    routes.some((k) => faceOf(k) === face),
    `the app serves routes of ${face}`,
  );
  // A rule that leaves out nothing any more is stale.
  for (const { rule, reason } of IGNORED)
    t.ok(
      routes.some((k) => rule.test(k)),
      `left out: ${reason}`,
    );
}

/** One request of a cell. `path` replaces the route's own path (whose `{params}` the world's ids fill). */
export interface Send {
  path?: string;
  query?: Record<string, string>;
  token?: string;
  /** A JSON:API document, a JSON body, a form, or a prepared payload with its headers. */
  document?: unknown;
  json?: unknown;
  form?: Record<string, string>;
  payload?: Buffer;
  headers?: Record<string, string>;
  /** For `shown` / `hidden` rows: whether the answer holds the protected members. */
  sees?: (body: any) => boolean;
}

/** How to call a route as one caller (fresh targets are made here, per cell). */
export type Recipe = (caller: Caller) => Send | Promise<Send>;

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

export async function inject(app: FastifyInstance, method: string, url: string, s: Send): Promise<Answer> {
  const headers: Record<string, string> = { ...(s.token ? { authorization: `JWT ${s.token}` } : {}) };
  let payload: InjectOptions['payload'];
  if (s.document !== undefined) [headers['content-type'], payload] = [JSONAPI, JSON.stringify(s.document)];
  else if (s.json !== undefined) [headers['content-type'], payload] = ['application/json', JSON.stringify(s.json)];
  else if (s.form !== undefined)
    [headers['content-type'], payload] = ['application/x-www-form-urlencoded', new URLSearchParams(s.form).toString()];
  else payload = s.payload;
  if (url.startsWith('/v1/')) headers.accept = JSONAPI;
  const query = s.query ? `?${new URLSearchParams(s.query).toString()}` : '';
  const res = await app.inject({
    method: method as InjectOptions['method'],
    url: `${url}${query}`,
    headers: { ...headers, ...s.headers },
    payload,
  });
  const json = res.body && /json/.test(String(res.headers['content-type'])) ? JSON.parse(res.body) : undefined;
  return { status: res.statusCode, headers: res.headers, body: json };
}

/** Fills each `{param}` of a path from `ids`, keyed by the path segment before it (`/v1/sessions/{id}` -> ids.sessions). */
export function fill(path: string, ids: Record<string, string>): string {
  const parts = path.split('/');
  return parts
    .map((part, i) => {
      if (!/^\{.+\}$/.test(part)) return part;
      const value = ids[parts[i - 1]!];
      if (value === undefined) throw new Error(`${path}: no id for the segment after "${parts[i - 1]}"`);
      return value;
    })
    .join('/');
}

/** Whether an answer is the refusal of its face: a JSON:API error document, `accepted: false`, or `status: error`. */
function refusalProblem(path: string, res: Answer): string | undefined {
  const b = res.body;
  if (path.startsWith('/api/'))
    return b?.status === 'error' && b.code === res.status ? undefined : 'not {"status": "error", "code"}';
  if (/^\/(cms|aaa|data|susi)\//.test(path))
    return b?.accepted === false && typeof b.message === 'string' ? undefined : 'not {"accepted": false, "message"}';
  return b?.errors?.[0]?.status === String(res.status) && b.jsonapi?.version === '1.0'
    ? undefined
    : 'not a JSON:API error document';
}

/** Checks one cell: the status, the refusal's shape, an assistant success that is accepted, or what a caller sees. */
export function judge(t: Test, label: string, path: string, res: Answer, expected: Outcome, send: Send) {
  if (typeof expected !== 'number') {
    t.equal(res.status, 200, `${label} -> 200`);
    if (!send.sees) throw new Error(`${label}: a shown/hidden row needs a recipe with sees()`);
    t.equal(
      res.status === 200 && send.sees(res.body) ? 'shown' : 'hidden',
      expected,
      `${label}: protected members ${expected}`,
    );
    return;
  }
  t.equal(res.status, expected, `${label} -> ${expected}`);
  if (res.status !== expected) t.comment(`${label}: ${JSON.stringify(res.body)?.slice(0, 300)}`);
  if (expected >= 400) {
    const problem = refusalProblem(path, res);
    if (problem) t.fail(`${label}: the refusal is ${problem}: ${JSON.stringify(res.body)?.slice(0, 300)}`);
  } else if (/^\/(cms|aaa|susi)\/.*(?<!\.png)$/.test(path) && res.body?.accepted !== true)
    t.fail(`${label}: not accepted: ${JSON.stringify(res.body)}`);
}

/** Runs every entry of `face` for every caller: one request per cell, built by its recipe (or just the filled path). */
export async function runMatrix(
  t: Test,
  app: FastifyInstance,
  face: Face,
  ids: Record<string, string>,
  tokens: Record<Caller, string | undefined>,
  recipes: Record<string, Recipe>,
) {
  let cells = 0;
  for (const [key, expected] of Object.entries(MATRIX).filter(([k]) => faceOf(k) === face)) {
    const [method, path] = baseOf(key).split(' ') as [string, string];
    const recipe = recipes[key] ?? (method === 'GET' && key === baseOf(key) ? () => ({}) : undefined);
    if (!recipe) {
      t.fail(`${key}: no recipe says how to call it`);
      continue;
    }
    for (const caller of CALLERS) {
      const send = { token: tokens[caller], ...(await recipe(caller)) };
      const url = fill(send.path ?? path, ids);
      const res = await inject(app, method, url, send);
      judge(t, `${key} as ${caller}`, path, res, expected[caller], send);
      cells++;
      // The HEAD twin is left out of the matrix because it shares the GET route's checks: a refusal proves it.
      const refused = expected[caller];
      if (method === 'GET' && typeof refused === 'number' && refused >= 400) {
        t.equal(
          (await inject(app, 'HEAD', url, send)).status,
          refused,
          `HEAD twin of ${key} as ${caller} -> ${refused}`,
        );
      }
    }
  }
  for (const key of Object.keys(recipes).filter((k) => !(k in MATRIX)))
    t.fail(`${key}: a recipe without a MATRIX entry`);
  t.pass(`${face}: ${cells} cells`);
}

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { call, JSONAPI, TEST_JOBS, TEST_SECRET, until } from './app.js';
import { createTestDatabase } from './database.js';
import { startServerProcess } from './server-process.js';

export type ServerProcess = ReturnType<typeof startServerProcess>;

/**
 * Jobs whose remote reads a held peer (startHeldPeer) answers when the test says so, on loopback: no
 * fetch gives up first; a dead worker's job is noticed within seconds and retried at once.
 */
export const HELD_JOBS = {
  FETCH_ALLOW_PRIVATE: 'true',
  FETCH_TIMEOUT_SECONDS: '300',
  JOB_HEARTBEAT_SECONDS: '10',
  JOB_MONITOR_SECONDS: '1',
  TASK_RETRY_SECONDS: '0',
};

/**
 * The service as real processes (`npm start -- --role api|worker`) on a database and folders of its
 * own, every process with the same environment (`env`, overridable per process). Processes still
 * running when the test ends are killed; `sql` reads the database directly.
 */
export async function startService(t: Test, env: Record<string, string> = {}) {
  const db = await createTestDatabase();
  const dir = await mkdtemp(join(tmpdir(), 'oe-service-'));
  const folders = { storage: join(dir, 'storage'), uploads: join(dir, 'uploads'), outbox: join(dir, 'outbox') };
  await mkdir(folders.uploads);
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  const started: ServerProcess[] = [];
  t.teardown(async () => {
    for (const p of started) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    await Promise.all(started.map((p) => p.exited));
    await sql.end();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });
  const base = {
    ...TEST_JOBS,
    DATABASE_URL: db.url,
    JWT_SECRET: TEST_SECRET,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATA_DIR: dir,
    STORAGE_DIR: folders.storage,
    // One machine: every process shares the folder.
    LOCAL_STORAGE_SHARED: 'true',
    UPLOAD_TMP_DIR: folders.uploads,
    MAIL_OUTBOX_DIR: folders.outbox,
    ASSISTANT_SETTINGS_DIR: join(dir, 'settings'),
    SKILL_REPO_DIR: join(dir, 'skills'),
    ...env,
  };
  const start = (role: 'api' | 'worker', more: Record<string, string>) => {
    const p = startServerProcess({ ...base, ...more }, ['--role', role]);
    started.push(p);
    return p;
  };
  return {
    sql,
    url: db.url,
    ...folders,
    /** An API process, once it listens; `origin` is where it does. */
    async api(more: Record<string, string> = {}) {
      const p = start('api', more);
      return { ...p, origin: new URL((await p.urls).API!).origin };
    },
    /** A worker process, once its job handlers run. */
    async worker(more: Record<string, string> = {}) {
      const p = start('worker', more);
      // A worker never listens: its banner's last line says it runs.
      p.urls.catch(() => {});
      await until(
        'the worker running',
        async () => {
          if (p.child.exitCode !== null) throw new Error(`the worker exited with ${p.child.exitCode}:\n${p.output()}`);
          return /^Worker:/m.test(p.output()) ? true : undefined;
        },
        90_000,
      );
      return p;
    },
  };
}

export interface Sent {
  status: number;
  headers: Headers;
  body: any;
}

/** A request as a client sends it over HTTP: a JSON body, of the JSON:API media type unless `type` says otherwise. */
export async function send(
  origin: string,
  path: string,
  {
    method = 'GET',
    token,
    body,
    type = JSONAPI,
  }: { method?: string; token?: string; body?: unknown; type?: string } = {},
): Promise<Sent> {
  const res = await fetch(origin + path, {
    method,
    headers: {
      accept: `${JSONAPI}, application/json`,
      ...(token ? { authorization: `JWT ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': type } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** A new account registered and logged in through the API: its id and token. */
export async function account(origin: string, email: string) {
  const password = 'correct horse battery';
  const created = await send(origin, '/v1/users', {
    method: 'POST',
    body: { data: { type: 'user', attributes: { email, password } } },
  });
  if (created.status !== 201) throw new Error(`register: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await send(origin, '/v1/auth/login', {
    method: 'POST',
    body: { email, password },
    type: 'application/json',
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  return { id: created.body.data.id as string, token: login.body.access_token as string };
}

type TaskAnswer = Awaited<ReturnType<typeof call>> | Sent;

/**
 * Polls a task URL (`/v1/tasks/...`), as `token` if given, until its state is no longer WAITING and
 * `pick` of the answer is defined; answers that. `via` is the app (requests through `app.inject`) or the
 * origin of a real process (over HTTP); waits up to `ms`, by default a minute in process and 90 s over HTTP.
 */
function pollTask<T>(
  via: FastifyInstance | string,
  taskUrl: string,
  token: string | undefined,
  ms: number | undefined,
  pick: (res: TaskAnswer) => T,
) {
  return until(
    `${taskUrl} to end`,
    async () => {
      const res =
        typeof via === 'string' ? await send(via, taskUrl, { token }) : await call(via, { url: taskUrl, token });
      return res.body?.state === 'WAITING' ? undefined : pick(res);
    },
    ms ?? (typeof via === 'string' ? 90_000 : 60_000),
  );
}

/** The task document once it no longer waits (an answer without a body is polled again). */
export const taskEnded = (via: FastifyInstance | string, taskUrl: string, token?: string, ms?: number): Promise<any> =>
  pollTask(via, taskUrl, token, ms, (res) => res.body);

/** The whole answer (status, headers, body) once the task no longer waits: for tests that check the status too. */
export const taskAnswer = (via: FastifyInstance | string, taskUrl: string, token?: string, ms?: number) =>
  pollTask(via, taskUrl, token, ms, (res) => res);

/**
 * A loopback HTTP peer (a remote image host, an event endpoint) whose answers wait while it is held,
 * so that a job reading from it can be caught in the middle; `release()` lets every answer through.
 */
export async function startHeldPeer(
  t: Test,
  answer: (request: IncomingMessage, response: ServerResponse) => Promise<void> | void,
) {
  const waiting: (() => void)[] = [];
  const peer = {
    held: true,
    /** Every request path, in the order it arrived. */
    requests: [] as string[],
    release() {
      peer.held = false;
      waiting.splice(0).forEach((go) => go());
    },
  };
  const server = createServer((request, response) => {
    peer.requests.push(request.url!);
    const go = () => void Promise.resolve(answer(request, response)).catch(() => response.destroy());
    if (peer.held) waiting.push(go);
    else go();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return Object.assign(peer, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

/** Answers a peer's request with what `origin` answers to the same path (an event endpoint seen through the peer). */
export const proxyTo = (origin: string) => async (request: IncomingMessage, response: ServerResponse) => {
  const upstream = await fetch(origin + request.url, { headers: { accept: request.headers.accept ?? '*/*' } });
  const body = Buffer.from(await upstream.arrayBuffer());
  response
    .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' })
    .end(body);
};

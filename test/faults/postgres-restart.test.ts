/**
 * Fault: PostgreSQL restarted under load. `npm start` (API and workers in one process) runs on a
 * PostgreSQL server of its own while clients keep reading and writing; the server is stopped (a fast
 * shutdown: every session ends with 57P01) and started again. While it is down every request needs
 * the database (`Cache-Control: no-cache`) and must be answered at once with 503, Retry-After and the
 * face's error document, never a 500, a hang or a reset connection; afterwards the same process serves
 * again (pool, read cache notifications, pg-boss workers) and no write is left half done.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import t from 'tap';
import { JSONAPI, TEST_SECRET, until } from '../helpers/app.js';
import { conformanceErrors } from '../helpers/conformance.js';
import { eventAttributes } from '../helpers/events.js';
import { startOwnPostgres } from '../helpers/postgres.js';
import { startServerProcess } from '../helpers/server-process.js';
import { account, taskEnded } from '../helpers/service.js';

const ADMIN = { email: 'root@example.com', password: 'a long bootstrap password' };
const CONNECT_TIMEOUT_SECONDS = 2;
/** A request still unanswered after this has hung: the client gives up and the test fails. */
const CLIENT_TIMEOUT_MS = 15_000;
const UNAVAILABLE = {
  errors: [
    {
      status: '503',
      title: 'Service Unavailable',
      detail: 'The database is not available at the moment; try again later',
    },
  ],
  jsonapi: { version: '1.0' },
};

interface Answer {
  what: string;
  method: string;
  /** The route as Fastify declares it, for the conformance check. */
  route: string;
  started: number;
  ended: number;
  /** 0: no HTTP answer at all (`error` says why). */
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
  error?: string;
}

interface Request {
  what: string;
  method?: string;
  path: string;
  route: string;
  token?: string;
  body?: unknown;
  type?: string;
  fresh?: boolean;
}

/** One request over HTTP, timed; a reset connection or a client timeout is an answer with status 0. */
async function hit(origin: string, r: Request): Promise<Answer> {
  const method = r.method ?? 'GET';
  const started = Date.now();
  const headers: Record<string, string> = { accept: `${JSONAPI}, application/json` };
  if (r.token) headers.authorization = `JWT ${r.token}`;
  if (r.body !== undefined) headers['content-type'] = r.type ?? JSONAPI;
  if (r.fresh) headers['cache-control'] = 'no-cache';
  try {
    const res = await fetch(origin + r.path, {
      method,
      headers,
      body: r.body === undefined ? undefined : JSON.stringify(r.body),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const body = await res.text();
    const answer = {
      status: res.status,
      contentType: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      body,
    };
    return { what: r.what, method, route: r.route, started, ended: Date.now(), ...answer };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const error = e.cause?.code ?? e.name;
    return {
      what: r.what,
      method,
      route: r.route,
      started,
      ended: Date.now(),
      status: 0,
      contentType: null,
      retryAfter: null,
      body: '',
      error,
    };
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Clients that each repeat: list events, create an event (with an organizer role row, in the same
 * transaction), read an event; every read asks the database (no-cache). `names` holds each create's
 * name with the status it got.
 */
function startLoad(origin: string, token: string, clients: number, event: string, organizer: string) {
  const answers: Answer[] = [];
  const names = new Map<string, number>();
  let running = true;
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let n = 0; running; n++) {
      let answer: Answer;
      if (n % 3 === 0) {
        answer = await hit(origin, {
          what: 'list',
          path: '/v1/events?page[size]=5',
          route: '/v1/events',
          token,
          fresh: true,
        });
      } else if (n % 3 === 1) {
        const name = `load ${client}-${n}`;
        const body = {
          data: {
            type: 'event',
            attributes: eventAttributes(name),
            relationships: { organizers: { data: [{ type: 'user', id: organizer }] } },
          },
        };
        answer = await hit(origin, {
          what: 'create',
          method: 'POST',
          path: '/v1/events',
          route: '/v1/events',
          token,
          body,
        });
        names.set(name, answer.status);
      } else {
        answer = await hit(origin, {
          what: 'read',
          path: `/v1/events/${event}`,
          route: '/v1/events/:id',
          token,
          fresh: true,
        });
      }
      answers.push(answer);
      await pause(25);
    }
  });
  return {
    answers,
    names,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

const brief = (a: Answer) =>
  `${a.method} ${a.route} ${a.status || a.error} after ${a.ended - a.started} ms: ${a.body.slice(0, 200)}`;

/**
 * What is wrong with a 503 of the event service: its document, media type, Retry-After and the OpenAPI contract.
 * `expected`: the document (a login's failures also carry `error`).
 */
function unavailableProblems(a: Answer, expected: object = UNAVAILABLE): string[] {
  const problems = conformanceErrors({
    method: a.method,
    route: a.route,
    status: a.status,
    contentType: a.contentType ?? undefined,
    body: a.body,
  });
  if (a.contentType !== JSONAPI) problems.push(`content-type ${a.contentType}`);
  if (!/^[1-9]\d*$/.test(a.retryAfter ?? '')) problems.push(`Retry-After ${a.retryAfter}`);
  if (a.body !== JSON.stringify(expected)) problems.push(`body ${a.body}`);
  return problems.map((p) => `${brief(a)}: ${p}`);
}

t.test(
  'PostgreSQL restarted under load: fast 503s while it is down, the same process serves again, no half writes',
  async (t) => {
    const pg = await startOwnPostgres('oe-fault-pg-');
    const dir = await mkdtemp(join(tmpdir(), 'oe-fault-pg-data-'));
    const server = startServerProcess({
      DATABASE_URL: pg.adminUrl,
      DB_CONNECT_TIMEOUT_SECONDS: String(CONNECT_TIMEOUT_SECONDS),
      JWT_SECRET: TEST_SECRET,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      ROLE: 'all',
      DATA_DIR: dir,
      STORAGE_DIR: join(dir, 'storage'),
      MAIL_OUTBOX_DIR: join(dir, 'outbox'),
      ASSISTANT_SETTINGS_DIR: join(dir, 'settings'),
      SKILL_REPO_DIR: join(dir, 'skills'),
      SUPER_ADMIN_EMAIL: ADMIN.email,
      SUPER_ADMIN_PASSWORD: ADMIN.password,
    });
    t.teardown(async () => {
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
      const killer = setTimeout(() => server.child.kill('SIGKILL'), 30_000);
      await server.exited;
      clearTimeout(killer);
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const origin = new URL((await server.urls).API!).origin.replace('localhost', '127.0.0.1');
    const login = () =>
      hit(origin, {
        what: 'login',
        method: 'POST',
        path: '/v1/auth/login',
        route: '/v1/auth/login',
        body: ADMIN,
        type: 'application/json',
      });
    const token = JSON.parse((await login()).body).access_token as string;
    const organizer = await account(origin, 'organizer@example.com');
    const reference = await hit(origin, {
      what: 'create',
      method: 'POST',
      path: '/v1/events',
      route: '/v1/events',
      token,
      body: {
        data: {
          type: 'event',
          attributes: eventAttributes('reference'),
          relationships: { organizers: { data: [{ type: 'user', id: organizer.id }] } },
        },
      },
    });
    t.equal(reference.status, 201, 'an event is created before the fault');
    const event = JSON.parse(reference.body).data.id as string;

    const load = startLoad(origin, token, 3, event, organizer.id);
    await until('the load running', async () => (load.answers.length >= 9 ? true : undefined));

    const haltStarted = Date.now();
    await pg.halt();
    const halted = Date.now();
    // Every client gets answers while the database is down.
    await until('answers while the database is down', async () =>
      load.answers.filter((a) => a.started >= halted).length >= 9 ? true : undefined,
    );

    // The other doors while it is down: login, and the faces with formats of their own.
    const loginDown = await login();
    // An assistant read that always asks the database (the metrics of a repository without skills need none).
    const metricsDown = await hit(origin, {
      what: 'assistant',
      path: '/aaa/checkRegistration.json?check_email=someone%40example.org',
      route: '/aaa/checkRegistration.json',
    });
    const appDown = await hit(origin, {
      what: 'appgen',
      method: 'POST',
      path: '/api/api.php',
      route: '/api/api.php',
      body: { email: 'ada@example.org', app_name: 'Down', endpoint: `${origin}/v1/events/${event}` },
      type: 'application/json',
    });

    const resumeStarted = Date.now();
    await pg.resume();
    const resumed = Date.now();
    const recovered = await until(
      'a request served after the restart',
      async () => load.answers.find((a) => a.started >= resumed && a.status < 300)?.ended,
    );
    await until('a few rounds after the recovery', async () =>
      load.answers.filter((a) => a.started >= recovered).length >= 18 ? true : undefined,
    );
    await load.stop();
    const { answers } = load;

    await t.test(
      'no answer is a reset, a hang, a 500: each is a 2xx or a fast 503 in the event service format',
      async (t) => {
        t.strictSame(
          answers.filter((a) => a.status === 0).map(brief),
          [],
          'every request was answered (no reset connection, no client timeout)',
        );
        t.strictSame(
          answers.filter((a) => ![200, 201, 503].includes(a.status)).map(brief),
          [],
          'no other status (no 500)',
        );
        t.strictSame(
          answers.filter((a) => a.status === 503).flatMap((a) => unavailableProblems(a)),
          [],
          'every 503 is the declared error document with Retry-After',
        );
        const slowest = Math.max(...answers.map((a) => a.ended - a.started));
        // The connect timeout is 2 s and reconnections wait at most 1 s: nothing waits for a 30 s timeout.
        t.ok(slowest < 5 * CONNECT_TIMEOUT_SECONDS * 1000, `the slowest answer took ${slowest} ms`);
      },
    );

    await t.test('before, during and after the outage', async (t) => {
      const before = answers.filter((a) => a.ended <= haltStarted);
      const down = answers.filter((a) => a.started >= halted && a.ended <= resumeStarted);
      const after = answers.filter((a) => a.started >= recovered);
      t.ok(
        before.length >= 9 && before.every((a) => a.status < 300),
        `${before.length} answers before the stop, all served`,
      );
      t.ok(down.length >= 9, `${down.length} answers while the database was down`);
      t.strictSame(down.filter((a) => a.status !== 503).map(brief), [], 'while it is down every request is a 503');
      t.ok(after.length >= 18, `${after.length} answers after the recovery`);
      t.strictSame(
        after.filter((a) => a.status >= 300).map(brief),
        [],
        'after the recovery every request is served again',
      );
      for (const what of ['list', 'create', 'read'])
        t.ok(
          after.some((a) => a.what === what),
          `${what} served again`,
        );
    });

    await t.test('login and the other faces answer 503 in their own formats while it is down', async (t) => {
      t.equal(loginDown.status, 503, 'login: 503');
      const loginUnavailable = { ...UNAVAILABLE, error: UNAVAILABLE.errors[0]!.detail };
      t.strictSame(
        unavailableProblems(loginDown, loginUnavailable),
        [],
        'login: the error document (with `error`) and Retry-After',
      );
      t.equal(metricsDown.status, 503, 'assistant: 503');
      t.equal(metricsDown.retryAfter, '5', 'assistant: Retry-After');
      t.strictSame(JSON.parse(metricsDown.body), {
        accepted: false,
        message: 'The database is not available at the moment; try again later',
      });
      t.strictSame(
        conformanceErrors({ ...metricsDown, contentType: metricsDown.contentType ?? undefined }),
        [],
        'assistant: declared in the OpenAPI document',
      );
      t.equal(appDown.status, 503, 'app generator: 503');
      t.equal(appDown.retryAfter, '5', 'app generator: Retry-After');
      t.strictSame(JSON.parse(appDown.body), {
        status: 'error',
        code: 503,
        message: 'The database is not available at the moment; try again later',
      });
      t.strictSame(
        conformanceErrors({ ...appDown, contentType: appDown.contentType ?? undefined }),
        [],
        'app generator: declared in the OpenAPI document',
      );
    });

    const sql = postgres(pg.adminUrl, { max: 1, onnotice: () => {} });
    t.teardown(() => sql.end());

    await t.test('every write is all there or not at all', async (t) => {
      const rows = await sql<{ name: string; organizers: number }[]>`
      select e.name, (select count(*)::int from event_roles r where r.event_id = e.id and r.role = 'organizer' and r.user_id = ${organizer.id}) as organizers
        from events e where e.name like 'load %'`;
      const found = new Map<string, number[]>();
      for (const row of rows) found.set(row.name, [...(found.get(row.name) ?? []), row.organizers]);
      const problems: string[] = [];
      for (const [name, status] of load.names) {
        const copies = found.get(name) ?? [];
        if (copies.length > 1) problems.push(`${name}: ${copies.length} events`);
        if (status === 201 && copies.length !== 1) problems.push(`${name}: answered 201 but not stored`);
        if (copies.some((organizers) => organizers !== 1)) problems.push(`${name}: stored without its organizer role`);
      }
      for (const name of found.keys()) if (!load.names.has(name)) problems.push(`${name}: stored but never sent`);
      t.strictSame(problems, [], 'each create is stored once with its role row, or not at all');
      const refused = [...load.names.values()].filter((s) => s === 503).length;
      t.ok(refused >= 1, `${refused} creates were refused with 503 (each of them is checked above)`);
    });

    await t.test(
      'the same process serves again: login, the read cache follows changes, the workers run jobs',
      async (t) => {
        t.equal(server.child.exitCode, null, 'the process did not exit');
        t.equal(server.child.signalCode, null, 'the process was not killed');
        t.notMatch(server.output(), /uncaught|unhandled/i, 'no uncaught exception or unhandled rejection');
        const again = await login();
        t.equal(again.status, 200, 'login answers 200 again');

        // A change committed by another process reaches this process's cache only through its notification
        // connection (LISTEN), which had to reconnect after the restart.
        const cached = () => hit(origin, { what: 'read', path: `/v1/events/${event}`, route: '/v1/events/:id', token });
        t.equal((await cached()).status, 200, 'the event is read (and kept in the cache)');
        await sql`update events set name = 'renamed after the restart' where id = ${event}`;
        const renamed = await until('the rename seen through the cache', async () => {
          const a = await cached();
          return JSON.parse(a.body).data?.attributes?.name === 'renamed after the restart' ? a : undefined;
        });
        t.equal(renamed.status, 200, 'a change made by another process is seen: the cache heard its notification');

        const exported = await hit(origin, {
          what: 'export',
          method: 'POST',
          path: `/v1/events/${event}/export/json`,
          route: '/v1/events/:event_id/export/json',
          token,
          body: {},
        });
        t.equal(exported.status, 200, 'an export starts');
        const task = await taskEnded(origin, JSON.parse(exported.body).task_url as string, token);
        t.equal(task.state, 'SUCCESS', 'the worker ran the export job after the restart');
      },
    );
  },
);

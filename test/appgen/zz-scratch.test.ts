/**
 * The app build job (workers on, a real SMTP peer, the service listening on a port):
 * - a build whose endpoint cannot be reached, is not an event, or answers 404 ends FAILED with a
 *   message naming the cause, mails the requester that message with the build log attached, and
 *   stores no zip;
 * - without FETCH_ALLOW_PRIVATE, endpoints on loopback (IPv4, IPv6, a name resolving to loopback)
 *   are refused before any request leaves the service;
 * - app names made of shell and HTML syntax land as text: escaped in the page, exact in the JSON
 *   files and the mail subject, and never in the zip's file name;
 * - an event logo that is not an image leaves the default icons and no logo;
 * - APPGEN_CONCURRENCY bounds the builds running at once (measured at a slow fake JSON:API server),
 *   and the same measurement sees builds overlap when more are allowed.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, call, TEST_SECRET, until } from '../helpers/app.js';
import { buildWorld, createEvent } from '../helpers/events.js';
import { freePort } from '../helpers/postgres.js';
import { startSmtp, type SmtpPeer } from '../helpers/smtp.js';

interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request path (with its query) in the order it arrived. */
  requests: string[];
  /** The most requests that were being answered at one time. */
  maxInFlight: number;
  reset(): void;
}

/** A local HTTP server (IPv4 and IPv6 loopback) answering with `answer`, after `delayMs`, counting what it receives. */
async function startFake(t: Test, answer: (request: IncomingMessage, response: ServerResponse) => void, delayMs = 0): Promise<FakeServer> {
  let inFlight = 0;
  const fake = {
    requests: [] as string[],
    maxInFlight: 0,
    reset() {
      fake.requests.splice(0);
      fake.maxInFlight = 0;
    },
  };
  const server = createServer((request, response) => {
    fake.requests.push(request.url!);
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    response.on('close', () => inFlight--);
    setTimeout(() => answer(request, response), delayMs);
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
  const { port } = server.address() as AddressInfo;
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return Object.assign(fake, { url: `http://127.0.0.1:${port}`, port });
}

const json = (response: ServerResponse, body: unknown) =>
  response.writeHead(200, { 'content-type': 'application/vnd.api+json' }).end(JSON.stringify(body));

/** POST /api/api.php as a client sends it. */
const startBuild = (app: FastifyInstance, body: { email: string; app_name: string; endpoint: string }) =>
  call(app, { method: 'POST', url: '/api/api.php', body, headers: { 'content-type': 'application/json' } });

/** The task once it no longer waits. */
const ended = (app: FastifyInstance, taskUrl: string) =>
  until(
    `the build ${taskUrl} to end`,
    async () => {
      const res = await call(app, { url: taskUrl });
      return res.body?.state === 'WAITING' ? undefined : res.body;
    },
    60_000,
  );

/** The mail with that subject, once it arrived. */
const mailWith = (smtp: SmtpPeer, subject: string) =>
  until(`a mail "${subject}"`, async () => smtp.received.find((m) => m.parsed.subject === subject), 30_000);

/** A build that must be refused while it runs: the task, its mail, and the build log lines without their times. */
async function failedBuild(t: Test, app: FastifyInstance, smtp: SmtpPeer, appName: string, endpoint: string) {
  const email = `${appName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.org`;
  const started = await startBuild(app, { email, app_name: appName, endpoint });
  t.equal(started.status, 202, JSON.stringify(started.body));
  const task = await ended(app, started.body.task_url);
  t.equal(task.state, 'FAILED', JSON.stringify(task));
  t.equal(task.status, null, 'no progress text left');
  t.strictSame(Object.keys(task.result).sort(), ['__error', 'message'], 'the result is the error and its message');
  t.equal(task.result.__error, true);
  const message: string = task.result.message;
  const mail = await mailWith(smtp, `Your app "${appName}" could not be built`);
  t.strictSame(mail.envelope.to, [email], 'mailed to the requester');
  t.match(mail.parsed.text, `Your app "${appName}" could not be built: ${message}`, 'the mail says why');
  t.equal(mail.parsed.attachments.length, 1, 'one attachment');
  const [log] = mail.parsed.attachments;
  t.match(log, { filename: 'build.log', contentType: 'text/plain' });
  const lines = log!.content.toString('utf8').trimEnd().split('\n');
  for (const line of lines) t.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \S/, 'each log line starts with its time');
  const steps = lines.map((line) => line.replace(/^\S+ /, ''));
  t.equal(steps[0], `Building the app "${appName}" (${started.body.identifier}) from ${endpoint}`, 'the log names the build');
  t.equal(steps.at(-1), `The build failed: ${message}`, 'the log ends with the failure');
  const taskId = (started.body.task_url as string).split('/').pop()!;
  return { task, message, steps, taskId };
}

const exists = (path: string) => stat(path).then(
  () => true,
  () => false,
);

// The service itself, with workers, listening: its own API is an endpoint.
const port = await freePort();
const PUBLIC_URL = `http://127.0.0.1:${port}`;
const storage = await mkdtemp(join(tmpdir(), 'oe-build-storage-'));
t.teardown(() => rm(storage, { recursive: true, force: true }));
const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  SMTP_URL: smtp.url,
  PUBLIC_URL,
  FETCH_ALLOW_PRIVATE: 'true',
  STORAGE_DIR: storage,
  APPGEN_RATE_PER_EMAIL: '50',
});
await app.listen({ port, host: '127.0.0.1' });
const world = await buildWorld(app);
const eventEndpoint = `${PUBLIC_URL}/v1/events/${world.published.event}`;

t.test('APPGEN_CONCURRENCY bounds the builds running at once', async (t) => {
  const event = { data: { type: 'event', id: '1', attributes: { name: 'Slow', 'starts-at': '2030-01-01T10:00:00Z', 'ends-at': '2030-01-01T18:00:00Z', timezone: 'UTC' } } };
  const fake = await startFake(
    t,
    (request, response) => {
      const path = new URL(request.url!, 'http://x').pathname;
      if (path === '/v1/events/1') json(response, event);
      else if (/^\/v1\/events\/1\/(sessions|speakers|tracks|microlocations|sponsors)$/.test(path)) json(response, { data: [] });
      else response.writeHead(404).end();
    },
    300,
  );
  const endpoint = `${fake.url}/v1/events/1`;

  /**
   * Three builds at once on a fresh app with that concurrency (and, with `workers: 2`, a second
   * service with workers on the same database): the most requests in flight at the fake server.
   */
  const threeBuilds = async (t: Test, concurrency: string, workers = 1) => {
    const smtpN = await startSmtp(t);
    const env = { ROLE: 'all', SMTP_URL: smtpN.url, FETCH_ALLOW_PRIVATE: 'true', APPGEN_CONCURRENCY: concurrency };
    const { app: worker, url } = await buildTestApp(t, workers === 2 ? { ...env, ROLE: process.env.FIRST_ROLE ?? "all" } : env);
    let second: FastifyInstance | undefined;
    if (workers === 2) {
      const dir = await mkdtemp(join(tmpdir(), 'oe-build-second-'));
      t.teardown(() => rm(dir, { recursive: true, force: true }));
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        MAIL_OUTBOX_DIR: join(dir, 'outbox'),
        STORAGE_DIR: join(dir, 'storage'),
        ASSISTANT_SETTINGS_DIR: join(dir, 'settings'),
        SKILL_REPO_DIR: join(dir, 'skills'),
        ...env,
        // The download URLs say which service built each app.
        PUBLIC_URL: 'http://second.example',
      });
      second = await buildApp({ ...config, DATABASE_URL: url, JWT_SECRET: TEST_SECRET });
      await second.ready();
    }
    try {
      fake.reset();
      const started = [];
      for (const n of [1, 2, 3]) started.push(await startBuild(worker, { email: `slow-${n}@example.org`, app_name: `Slow ${n}`, endpoint }));
      t.strictSame(started.map((s) => s.status), [202, 202, 202]);
      const tasks = [];
      for (const s of started) tasks.push(await ended(worker, s.body.task_url));
      t.strictSame(tasks.map((task) => task.state), ['SUCCESS', 'SUCCESS', 'SUCCESS'], JSON.stringify(tasks.map((task) => task.result)));
      t.equal(fake.requests.length, 18, 'each build read the event and its five lists');
      await smtpN.waitFor(3, 30_000);
      t.strictSame(smtpN.received.map((m) => m.parsed.subject).sort(), [1, 2, 3].map((n) => `Your app "Slow ${n}" is ready`));
      return fake.maxInFlight;
    } finally {
      // Closed before the database of the first service is dropped (its teardown).
      await second?.close();
    }
  };

  t.test('at 1, one build at a time', async (t) => {
    t.equal(await threeBuilds(t, '1'), 1, 'never two requests in flight');
  });
  t.test('at 1 with two services working on one database, still one build at a time', async (t) => {
    t.equal(await threeBuilds(t, '1', 2), 1, 'never two requests in flight');
  });
  t.test('at 3, the same measurement sees builds overlap', async (t) => {
    t.ok((await threeBuilds(t, '3')) > 1, 'more than one request in flight');
  });
});

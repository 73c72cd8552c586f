/**
 * Limits of the app build job:
 * - without FETCH_ALLOW_PRIVATE, endpoints on loopback (IPv4, IPv6, a name resolving to loopback)
 *   are refused before any request leaves the service;
 * - APPGEN_CONCURRENCY bounds the builds running at once (measured at a slow fake JSON:API server),
 *   also with two services working on one database, and the same measurement sees builds overlap
 *   when more are allowed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { buildOtherApp, buildTestApp } from '../helpers/app.js';
import { exists, failedBuild, json, startBuild, startFake } from '../helpers/appgen.js';
import { taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';

const storage = await mkdtemp(join(tmpdir(), 'oe-build-storage-'));
t.teardown(() => rm(storage, { recursive: true, force: true }));

t.test('without FETCH_ALLOW_PRIVATE, loopback endpoints are refused before any request', async (t) => {
  const fake = await startFake(t, (_request, response) => json(response, { data: [] }));
  const smtp2 = await startSmtp(t);
  const closedStorage = join(storage, 'closed');
  const { app: closed } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp2.url, STORAGE_DIR: closedStorage });
  const cases: [name: string, endpoint: string, message: RegExp][] = [
    ['IPv4 loopback', `http://127.0.0.1:${fake.port}/v1/events/1`, /127\.0\.0\.1 is not a public address$/],
    ['IPv6 loopback', `http://[::1]:${fake.port}/v1/events/1`, /::1 is not a public address$/],
    ['localhost', `http://localhost:${fake.port}/v1/events/1`, /localhost resolves to a non-public address$/],
  ];
  for (const [name, endpoint, expected] of cases) {
    const { message, taskId } = await failedBuild(t, closed, smtp2, name, endpoint);
    t.match(message, expected, `${name}: ${message}`);
    t.ok(message.startsWith(endpoint), `${name}: the message names the URL`);
    t.notOk(await exists(join(closedStorage, 'apps', taskId)), 'no zip stored');
  }
  t.strictSame(fake.requests, [], 'the server behind the endpoints received no request');
});

t.test('APPGEN_CONCURRENCY bounds the builds running at once', async (t) => {
  const event = {
    data: {
      type: 'event',
      id: '1',
      attributes: {
        name: 'Slow',
        'starts-at': '2030-01-01T10:00:00Z',
        'ends-at': '2030-01-01T18:00:00Z',
        timezone: 'UTC',
      },
    },
  };
  const fake = await startFake(
    t,
    (request, response) => {
      const path = new URL(request.url!, 'http://x').pathname;
      if (path === '/v1/events/1') json(response, event);
      else if (/^\/v1\/events\/1\/(sessions|speakers|tracks|microlocations|sponsors)$/.test(path))
        json(response, { data: [] });
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
    const { app: worker, url } = await buildTestApp(t, env);
    // The download URLs say which service built each app.
    if (workers === 2) await buildOtherApp(t, url, { ...env, PUBLIC_URL: 'http://second.example' });
    fake.reset();
    const started = [];
    for (const n of [1, 2, 3])
      started.push(await startBuild(worker, { email: `slow-${n}@example.org`, app_name: `Slow ${n}`, endpoint }));
    t.strictSame(
      started.map((s) => s.status),
      [202, 202, 202],
    );
    const tasks = [];
    for (const s of started) tasks.push(await taskEnded(worker, s.body.task_url));
    t.strictSame(
      tasks.map((task) => task.state),
      ['SUCCESS', 'SUCCESS', 'SUCCESS'],
      JSON.stringify(tasks.map((task) => task.result)),
    );
    t.equal(fake.requests.length, 18, 'each build read the event and its five lists');
    await smtpN.waitFor(3, 30_000);
    t.strictSame(
      smtpN.received.map((m) => m.parsed.subject).sort(),
      [1, 2, 3].map((n) => `Your app "Slow ${n}" is ready`),
    );
    return fake.maxInFlight;
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

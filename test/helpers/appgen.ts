import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { call, until } from './app.js';
import { taskEnded } from './service.js';
import type { SmtpPeer } from './smtp.js';

export interface FakeServer {
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
export async function startFake(
  t: Test,
  answer: (request: IncomingMessage, response: ServerResponse) => void,
  delayMs = 0,
): Promise<FakeServer> {
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

export const json = (response: ServerResponse, body: unknown) =>
  response.writeHead(200, { 'content-type': 'application/vnd.api+json' }).end(JSON.stringify(body));

/** POST /api/api.php as a client sends it. */
export const startBuild = (app: FastifyInstance, body: { email: string; app_name: string; endpoint: string }) =>
  call(app, { method: 'POST', url: '/api/api.php', body, headers: { 'content-type': 'application/json' } });

/** The mail with that subject, once it arrived. */
export const mailWith = (smtp: SmtpPeer, subject: string) =>
  until(`a mail "${subject}"`, async () => smtp.received.find((m) => m.parsed.subject === subject));

/** A build that must be refused while it runs: the task, its mail, and the build log's lines (`lines`; `steps` without their times). */
export async function failedBuild(t: Test, app: FastifyInstance, smtp: SmtpPeer, appName: string, endpoint: string) {
  const email = `${appName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.org`;
  const started = await startBuild(app, { email, app_name: appName, endpoint });
  t.equal(started.status, 202, JSON.stringify(started.body));
  const task = await taskEnded(app, started.body.task_url);
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
  for (const line of lines)
    t.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \S/, 'each log line starts with its time');
  const steps = lines.map((line) => line.replace(/^\S+ /, ''));
  t.equal(
    steps[0],
    `Building the app "${appName}" (${started.body.identifier}) from ${endpoint}`,
    'the log names the build',
  );
  t.equal(steps.at(-1), `The build failed: ${message}`, 'the log ends with the failure');
  const taskId = (started.body.task_url as string).split('/').pop()!;
  return { task, message, steps, lines, taskId };
}

export const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

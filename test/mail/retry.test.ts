import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import t from 'tap';
import { MAIL_QUEUE, type OutgoingMail } from '../../plugins/mailer.js';
import { buildOtherApp, buildTestApp } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';

const MAIL_FROM = 'Open Event <no-reply@open-event.test>';

const letter = (address: string, subject: string): OutgoingMail => ({
  to: { name: 'Recipient', address },
  subject,
  action: 'test-mail',
  text: `Body of ${subject}`,
});

interface MailRow {
  status: string;
  attempts: number;
  last_error: string | null;
  has_raw: boolean;
  stamped: boolean;
}

const rowOf = async (app: FastifyInstance, id: number) =>
  (
    await app.sql<MailRow[]>`
      select status, attempts, last_error, raw is not null as has_raw, sent_at is not null as stamped from mails where id = ${id}`
  )[0]!;

/** Polls the mail's row until `done` holds (or the time is up); answers the last row read. */
async function pollRow(app: FastifyInstance, id: number, done: (row: MailRow) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let row = await rowOf(app, id);
  while (!done(row) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    row = await rowOf(app, id);
  }
  return row;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the state of the mail's delivery job until it is finished (completed or failed). */
async function jobState(app: FastifyInstance, mailId: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let state: string | undefined;
  while (Date.now() < deadline) {
    const jobs = await app.boss.findJobs(MAIL_QUEUE, { data: { mailId } });
    if (jobs.length !== 1) return `${jobs.length} jobs`;
    state = jobs[0]!.state;
    if (state === 'completed' || state === 'failed') break;
    await sleep(250);
  }
  return state;
}

t.test('a refused mail stays pending and the retry job delivers it once the server accepts again', async (t) => {
  const peer = await startSmtp(t);
  peer.refuse = true;
  const { app } = await buildTestApp(t, { ROLE: 'all', MAIL_RETRY_SECONDS: '1', SMTP_URL: peer.url, MAIL_FROM });
  const result = await app.mailer.send(letter('ada@example.org', 'Retried later'));
  t.equal(result.status, 'pending');
  const first = await rowOf(app, result.id!);
  t.match(first, { status: 'pending', attempts: 1, has_raw: true, stamped: false });
  t.match(first.last_error, /451|try again/i, "the server's refusal is recorded");
  t.equal(peer.received.length, 0, 'nothing received');

  peer.refuse = false;
  const row = await pollRow(app, result.id!, (r) => r.status !== 'pending', 20_000);
  t.match(
    row,
    { status: 'sent', last_error: null, has_raw: false, stamped: true },
    'delivered by the job; raw dropped',
  );
  t.ok(row.attempts >= 2, 'the job made at least one more attempt');
  t.equal(await jobState(app, result.id!, 10_000), 'completed', 'the one delivery job is done');
  await sleep(500);
  t.equal(peer.received.length, 1, 'exactly one message received, no duplicate');
  t.same(peer.received[0]!.envelope, { from: 'no-reply@open-event.test', to: ['ada@example.org'] });
  t.equal(peer.received[0]!.parsed.subject, 'Retried later');
});

t.test('after MAIL_RETRY_LIMIT retries a mail that keeps failing is marked failed, still recorded', async (t) => {
  const peer = await startSmtp(t);
  peer.refuse = true;
  const { app } = await buildTestApp(t, {
    ROLE: 'all',
    MAIL_RETRY_SECONDS: '1',
    MAIL_RETRY_LIMIT: '1',
    SMTP_URL: peer.url,
    MAIL_FROM,
  });
  const result = await app.mailer.send(letter('grace@example.org', 'Never accepted'));
  t.equal(result.status, 'pending');
  const row = await pollRow(app, result.id!, (r) => r.status !== 'pending', 30_000);
  t.equal(row.status, 'failed', 'given up');
  t.match(row.last_error, /451|try again/i, 'the last error is kept');
  t.equal(row.stamped, false, 'never stamped as sent');
  // The immediate attempt and the one retry MAIL_RETRY_LIMIT allows (the safety-net run of the job).
  t.equal(row.attempts, 2, 'attempts of the immediate send and its one retry');
  const [recorded] = await app.sql`select recipient, subject, action from mails where id = ${result.id}`;
  t.same(recorded, { recipient: 'grace@example.org', subject: 'Never accepted', action: 'test-mail' });
  t.equal(peer.received.length, 0, 'nothing was ever delivered');
  t.equal(
    await jobState(app, result.id!, 10_000),
    'completed',
    'the job is done: it gave the mail up, no further retries',
  );

  // Nothing revives a failed mail: the server accepting again delivers nothing.
  peer.refuse = false;
  await sleep(2_500);
  t.equal(peer.received.length, 0);
  t.equal((await rowOf(app, result.id!)).status, 'failed');
});

t.test('a mail delivered at once is not sent again when its safety-net job runs', async (t) => {
  const peer = await startSmtp(t);
  const { app } = await buildTestApp(t, { ROLE: 'all', MAIL_RETRY_SECONDS: '1', SMTP_URL: peer.url, MAIL_FROM });
  const result = await app.mailer.send(letter('hedy@example.org', 'Delivered at once'));
  t.equal(result.status, 'sent');
  t.equal(peer.received.length, 1);

  // The job starts after MAIL_RETRY_SECONDS; workers poll every few seconds.
  t.equal(await jobState(app, result.id!, 20_000), 'completed', 'the safety-net job ran and completed');
  await sleep(500);
  t.equal(peer.received.length, 1, 'still exactly one message');
  t.match(await rowOf(app, result.id!), {
    status: 'sent',
    attempts: 1,
    last_error: null,
    has_raw: false,
    stamped: true,
  });
});

t.test('a slow delivery still in progress when the safety-net job starts is not sent twice', async (t) => {
  // A server that takes 4 s to accept each message: longer than MAIL_RETRY_SECONDS plus a worker poll.
  const arrived: string[][] = [];
  const slow = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        arrived.push(session.envelope.rcptTo.map((r) => r.address));
        setTimeout(() => callback(), 4_000);
      });
    },
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => slow.close(() => resolve())));
  const { port } = slow.server.address() as AddressInfo;
  const { app } = await buildTestApp(t, {
    ROLE: 'all',
    MAIL_RETRY_SECONDS: '1',
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM,
  });
  const result = await app.mailer.send(letter('ida@example.org', 'Slowly accepted'));
  t.equal(result.status, 'sent');
  t.equal(await jobState(app, result.id!, 20_000), 'completed', 'the safety-net job is done');
  t.match(await rowOf(app, result.id!), { status: 'sent', has_raw: false, stamped: true });
  t.same(arrived, [['ida@example.org']], 'the message went out exactly once');
});

t.test('an api process only sends jobs; a worker process on the same database runs them', async (t) => {
  const peer = await startSmtp(t);
  peer.refuse = true;
  const env = { LOG_LEVEL: 'silent', MAIL_RETRY_SECONDS: '1', SMTP_URL: peer.url, MAIL_FROM } as const;
  const api = await buildTestApp(t, { ...env, ROLE: 'api' });
  const result = await api.app.mailer.send(letter('ida@example.org', 'Split roles'));
  t.equal(result.status, 'pending');
  peer.refuse = false;
  await sleep(3_500);
  t.equal((await rowOf(api.app, result.id!)).status, 'pending', 'no job runs in an api process');
  t.equal(peer.received.length, 0);

  await buildOtherApp(t, api.url, { ...env, ROLE: 'worker' });
  const row = await pollRow(api.app, result.id!, (r) => r.status === 'sent', 20_000);
  t.equal(row.status, 'sent', 'the worker delivered it');
  t.equal(peer.received.length, 1);
});

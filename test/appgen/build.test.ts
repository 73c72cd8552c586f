/**
 * The app build job (workers on, a real SMTP peer, the service listening on a port):
 * - a build whose endpoint cannot be reached, is not an event, or answers 404 ends FAILED with a
 *   message naming the cause, mails the requester that message with the build log attached, and
 *   stores no zip;
 * - app names made of shell, HTML or template syntax land as text: escaped in the page, exact in the
 *   JSON files and the mail subject, and never in the zip's file name;
 * - an event logo that is not an image leaves the default icons and no logo;
 * - a job sent again for a task that already ended, to the build queue or the abandoned-task
 *   queue, changes nothing: the task stays as it was and no second mail is sent;
 * - the task queues ('app-build', 'event-export', 'event-import') have 'task-abandoned' as their
 *   dead letter queue; a waiting app task whose job lands there (sent directly, or failed with its
 *   retries spent) ends FAILED "The task failed on the server" and its requester gets the failure
 *   mail with the build log, once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { buildTestApp, call, until } from '../helpers/app.js';
import { exists, failedBuild, mailWith, startBuild, startFake } from '../helpers/appgen.js';
import { buildWorld, createEvent } from '../helpers/events.js';
import { reservePort } from '../helpers/postgres.js';
import { taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';

// The service itself, with workers, listening: its own API is an endpoint.
const reserved = await reservePort();
const PUBLIC_URL = `http://127.0.0.1:${reserved.port}`;
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
await reserved.release();
await app.listen({ port: reserved.port, host: '127.0.0.1' });
const world = await buildWorld(app);
const eventEndpoint = `${PUBLIC_URL}/v1/events/${world.published.event}`;

t.test('an endpoint nobody answers: FAILED naming the URL, the log mailed, no zip stored', async (t) => {
  // Port 1: privileged, nothing listens there.
  const endpoint = 'http://127.0.0.1:1/v1/events/1';
  const { message, steps, taskId } = await failedBuild(t, app, smtp, 'Unreachable', endpoint);
  t.equal(message, `${endpoint}: the file could not be fetched (ECONNREFUSED)`);
  t.strictSame(
    steps.slice(1),
    [`Reading the event at ${endpoint}`, `The build failed: ${message}`],
    'the steps up to the failure',
  );
  t.notOk(await exists(join(storage, 'apps', taskId)), 'no zip stored for the task');
});

t.test('an endpoint that answers something else than an event: FAILED saying so', async (t) => {
  const endpoint = `${PUBLIC_URL}/v1/event-topics/${world.topic}`;
  const { message, steps, taskId } = await failedBuild(t, app, smtp, 'A topic', endpoint);
  t.equal(message, 'The endpoint does not answer with an event (a JSON:API document of type "event")');
  t.strictSame(steps.slice(1), [`Reading the event at ${endpoint}`, `The build failed: ${message}`]);
  t.notOk(await exists(join(storage, 'apps', taskId)), 'no zip stored for the task');
});

t.test('an endpoint answering 404: FAILED naming the status', async (t) => {
  const endpoint = `${PUBLIC_URL}/v1/events/999999`;
  const { message, taskId } = await failedBuild(t, app, smtp, 'Missing', endpoint);
  t.equal(message, `${endpoint}: the server answered 404`);
  t.notOk(await exists(join(storage, 'apps', taskId)), 'no zip stored for the task');
});

t.test('a draft event is not readable anonymously: FAILED, nothing of it in the mail', async (t) => {
  const endpoint = `${PUBLIC_URL}/v1/events/${world.draft.event}`;
  const { message, steps } = await failedBuild(t, app, smtp, 'Draft', endpoint);
  t.equal(message, `${endpoint}: the server answered 404`);
  t.notOk(
    steps.some((s) => s.includes('Secret Camp')),
    'the draft event name is nowhere in the log',
  );
});

t.test('app names with shell, HTML or template syntax are text in the zip, the mail and the file name', async (t) => {
  const cases: [name: string, title: string, file: string][] = [
    ['"; rm -rf / #', '&quot;; rm -rf / #', 'rm-rf.zip'],
    ['$(id)', '$(id)', 'id.zip'],
    ['`id`', '`id`', 'id.zip'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;', 'script-alert-1-script.zip'],
    // A placeholder of the template in the name is not filled in.
    ['{{event_name}}', '{{event_name}}', 'event-name.zip'],
    // Accents are dropped from the file name; other scripts and emoji are left out.
    ['Événement 日本 🎉', 'Événement 日本 🎉', 'evenement.zip'],
  ];
  const started = [];
  for (const [i, [name]] of cases.entries()) {
    const res = await startBuild(app, { email: `names-${i}@example.org`, app_name: name, endpoint: eventEndpoint });
    t.equal(res.status, 202, `${name}: accepted`);
    started.push(res.body);
  }
  for (const [i, [name, title, file]] of cases.entries()) {
    const task = await taskEnded(app, started[i].task_url);
    t.match(task, { state: 'SUCCESS', result: { download_url: `${PUBLIC_URL}/static/media/apps/` } }, `${name}: built`);
    const download: string = task.result.download_url;
    const mail = await mailWith(smtp, `Your app "${name}" is ready`);
    t.strictSame(mail.envelope.to, [`names-${i}@example.org`]);
    t.equal(mail.parsed.attachments.length, 1);
    const attachment = mail.parsed.attachments[0]!;
    t.equal(attachment.filename, file, `${name}: the zip file name`);
    t.ok(download.endsWith(`/${attachment.filename}`), `${name}: the download URL ends with the file name`);
    t.match(attachment.filename, /^[a-z0-9-]+\.zip$/, `${name}: the file name is letters, digits and dashes`);
    t.equal(attachment.contentType, 'application/zip');
    const zip = new AdmZip(attachment.content);
    const text = (entry: string) => zip.readAsText(entry);
    const html = text('index.html');
    t.match(html, `<title>${title}</title>`, `${name}: the title is the escaped name`);
    t.match(html, `<meta name="application-name" content="${title}">`, `${name}: the attribute is the escaped name`);
    t.notMatch(html, '<script>alert', `${name}: no script tag from the name`);
    if (/[<>"']/.test(name)) t.notOk(html.includes(name), `${name}: the raw name is nowhere in the page`);
    t.equal(JSON.parse(text('manifest.webmanifest')).name, name, `${name}: the manifest name`);
    t.equal(JSON.parse(text('config.json')).app_name, name, `${name}: config.json app_name`);
    t.ok(
      zip.getEntries().every((e) => !e.entryName.includes(name)),
      `${name}: no entry is named after the app`,
    );
  }
});

t.test('a logo that is not an image: built with the default icons and no logo', async (t) => {
  const site = await startFake(t, (_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>not a logo</body></html>'),
  );
  const { id: event } = await createEvent(app, world.cast, 'Logo Fest', 'published');
  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token: world.cast.owner.token,
    body: { data: { type: 'event', id: event, attributes: { 'logo-url': `${site.url}/logo.png` } } },
  });
  t.equal(patched.status, 200, JSON.stringify(patched.body));
  const started = await startBuild(app, {
    email: 'logo@example.org',
    app_name: 'Logo Fest',
    endpoint: `${PUBLIC_URL}/v1/events/${event}`,
  });
  t.equal(started.status, 202);
  const task = await taskEnded(app, started.body.task_url);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task));
  t.strictSame(site.requests, ['/logo.png'], 'the logo was fetched once');
  const mail = await mailWith(smtp, 'Your app "Logo Fest" is ready');
  const zip = new AdmZip(mail.parsed.attachments[0]!.content);
  const names = zip.getEntries().map((e) => e.entryName);
  t.notOk(names.includes('logo.png'), 'no logo.png');
  for (const size of [192, 512]) {
    const meta = await sharp(zip.readFile(`icons/icon-${size}.png`)!).metadata();
    t.match(meta, { format: 'png', width: size, height: size }, `the default icon ${size}`);
  }
  t.match(zip.readAsText('index.html'), '<img id="logo" src="icons/icon-192.png"', 'the page shows the icon instead');
  t.equal(
    JSON.parse(zip.readAsText('data.json')).event.logo,
    `${site.url}/logo.png`,
    'the snapshot keeps the logo URL',
  );
});

/** Sends a job to `queue` and waits until a worker completed it. */
async function ranJob(queue: string, data: object, options: { startAfter?: number; retryLimit?: number } = {}) {
  const id = await app.sendJob(app.db, queue, data, options);
  if (!id) throw new Error(`no job sent to ${queue}`);
  await until(`the job ${id} in ${queue} to complete`, async () => {
    const [job] = await app.sql`select state from pgboss.job where id = ${id}`;
    return job?.state === 'completed' ? true : undefined;
  });
  return id;
}

/** The task's row as stored, and the mails recorded with that subject. */
const rowOf = async (id: string) =>
  (await app.sql`select state, status, result, options, updated_at from tasks where id = ${id}`)[0];
const mailsWith = async (subject: string) =>
  (await app.sql`select count(*)::int as n from mails where subject = ${subject}`)[0]!.n as number;

t.test('a job sent again for a task that succeeded changes nothing and mails nothing', async (t) => {
  const started = await startBuild(app, { email: 'once@example.org', app_name: 'Once', endpoint: eventEndpoint });
  t.equal(started.status, 202);
  const task = await taskEnded(app, started.body.task_url);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task));
  await mailWith(smtp, 'Your app "Once" is ready');
  const taskId = (started.body.task_url as string).split('/').pop()!;
  const before = await rowOf(taskId);

  await ranJob('app-build', { taskId });
  t.strictSame(await rowOf(taskId), before, 'the build job left the task as it was');
  t.strictSame((await call(app, { url: started.body.task_url })).body, task, 'the task reads the same');
  t.equal(await mailsWith('Your app "Once" is ready'), 1, 'one "is ready" mail recorded');
  t.equal(
    smtp.received.filter((m) => m.parsed.subject === 'Your app "Once" is ready').length,
    1,
    'one "is ready" mail received',
  );

  await ranJob('task-abandoned', { taskId });
  t.strictSame(await rowOf(taskId), before, 'the abandoned-task job left it as it was too');
  t.equal(await mailsWith('Your app "Once" could not be built'), 0, 'no failure mail recorded');
  t.notOk(
    smtp.received.some((m) => m.parsed.subject === 'Your app "Once" could not be built'),
    'no failure mail received',
  );
});

t.test('the task queues name task-abandoned as their dead letter queue', async (t) => {
  const queues =
    await app.sql`select name, dead_letter from pgboss.queue where name in ('app-build', 'event-export', 'event-import', 'task-abandoned') order by name`;
  t.strictSame(
    queues.map((q) => [q.name, q.dead_letter]),
    [
      ['app-build', 'task-abandoned'],
      ['event-export', 'task-abandoned'],
      ['event-import', 'task-abandoned'],
      ['task-abandoned', null],
    ],
  );
});

t.test('an abandoned app task ends FAILED and mails its requester the log, once', async (t) => {
  /** A waiting app task as the route writes it, with no build job running for it. */
  const waitingTask = async (t: Test, name: string, email: string) => {
    const options = {
      email,
      app_name: name,
      endpoint: eventEndpoint,
      identifier: '0123456789abcdef',
      mailbox: email,
      client: '127.0.0.1',
    };
    const [row] =
      await app.sql`insert into tasks (kind, options) values ('app', ${JSON.stringify(options)}::jsonb) returning id`;
    t.strictSame((await rowOf(row!.id))!.options, options, 'the options stored as an object');
    return row!.id as string;
  };
  /** The task ended as abandoned, with the one failure mail. */
  const assertAbandoned = async (t: Test, taskId: string, name: string, email: string) => {
    const task = await taskEnded(app, `/v1/tasks/${taskId}`);
    t.strictSame(task, {
      state: 'FAILED',
      status: null,
      result: { __error: true, message: 'The task failed on the server' },
    });
    const mail = await mailWith(smtp, `Your app "${name}" could not be built`);
    t.strictSame(mail.envelope.to, [email], 'mailed to the requester');
    t.match(mail.parsed.text, `Your app "${name}" could not be built: The task failed on the server`);
    t.equal(mail.parsed.attachments.length, 1, 'one attachment');
    const [log] = mail.parsed.attachments;
    t.match(log, { filename: 'build.log', contentType: 'text/plain' });
    t.match(
      log!.content.toString('utf8'),
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z The build was given up: it did not end after 3 attempts\n$/,
      'the log says why',
    );
    const before = await rowOf(taskId);
    // A second abandoned-task job for it (pg-boss may deliver one more than once) does nothing.
    await ranJob('task-abandoned', { taskId });
    t.strictSame(await rowOf(taskId), before, 'the task stays as it ended');
    t.equal(await mailsWith(`Your app "${name}" could not be built`), 1, 'one failure mail recorded');
    t.equal(
      smtp.received.filter((m) => m.parsed.subject === `Your app "${name}" could not be built`).length,
      1,
      'one failure mail received',
    );
  };

  t.test('a job sent to task-abandoned', async (t) => {
    const taskId = await waitingTask(t, 'Abandoned', 'abandoned@example.org');
    t.equal((await rowOf(taskId))!.state, 'WAITING');
    await app.sendJob(app.db, 'task-abandoned', { taskId });
    await assertAbandoned(t, taskId, 'Abandoned', 'abandoned@example.org');
  });

  t.test('a build job that failed with its retries spent lands there', async (t) => {
    const taskId = await waitingTask(t, 'Given up', 'given-up@example.org');
    // Not due for an hour, so no worker takes it; failed as a worker that died would leave it.
    const jobId = await app.sendJob(app.db, 'app-build', { taskId }, { startAfter: 3600, retryLimit: 0 });
    await app.boss.fail('app-build', jobId!, { message: 'the worker died' });
    const [job] = await app.sql`select state from pgboss.job where id = ${jobId}`;
    t.equal(job?.state, 'failed', 'the build job failed for good');
    await assertAbandoned(t, taskId, 'Given up', 'given-up@example.org');
    const copies = await app.sql`select state from pgboss.job where name = 'task-abandoned' and source_id = ${jobId}`;
    t.strictSame(
      copies.map((c) => c.state),
      ['completed'],
      'its dead letter copy ran',
    );
  });
});

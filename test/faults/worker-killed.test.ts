/**
 * A worker killed (SIGKILL) in the middle of an export, an import and an app build, all three running
 * at once on it: with an API process and a second worker (real processes on one database), each job
 * is retried once the dead worker's heartbeat is stale, and ends with one complete result: one export
 * zip, one imported event with every record (the killed attempt's rows rolled back with its
 * connection, the media file it had stored overwritten by the retry), one app zip, and one mail each.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import t from 'tap';
import { until } from '../helpers/app.js';
import { holdLock } from '../helpers/database.js';
import { makeImage, multipart } from '../helpers/images.js';
import { zipOf } from '../helpers/imports.js';
import { account, HELD_JOBS, proxyTo, send, startHeldPeer, startService, taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';

const SPEAKERS = 500;
const SESSIONS = 5000;
const IMPORTED = 'Imported Congress';

const smtp = await startSmtp(t);
const service = await startService(t, {
  SMTP_URL: smtp.url,
  ...HELD_JOBS,
});
const api = await service.api();
const { sql } = service;
const owner = await account(api.origin, 'owner@example.org');

// A remote image host and an event endpoint (the API seen through it) whose answers are held.
const logo = await makeImage('png', 40, 20);
const peer = await startHeldPeer(t, async (request, response) => {
  if (request.url === '/logo.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(logo);
  await proxyTo(api.origin)(request, response);
});

const created = await send(api.origin, '/v1/events', {
  method: 'POST',
  token: owner.token,
  body: {
    data: {
      type: 'event',
      attributes: {
        name: 'Exported Summit',
        'starts-at': '2030-05-01T09:00:00Z',
        'ends-at': '2030-05-03T18:00:00Z',
        timezone: 'Europe/Berlin',
        state: 'published',
        'logo-url': `${peer.url}/logo.png`,
      },
    },
  },
});
if (created.status !== 201) throw new Error(`event: ${created.status} ${JSON.stringify(created.body)}`);
const eventId = created.body.data.id as string;
for (const title of ['Opening', 'Closing']) {
  const res = await send(api.origin, '/v1/sessions', {
    method: 'POST',
    token: owner.token,
    body: {
      data: {
        type: 'session',
        attributes: { title, state: 'accepted' },
        relationships: { event: { data: { type: 'event', id: eventId } } },
      },
    },
  });
  if (res.status !== 201) throw new Error(`session: ${res.status} ${JSON.stringify(res.body)}`);
}

/** A large archive: speakers, then sessions each with a speaker. */
function largeArchive() {
  return zipOf({
    'event.json': {
      id: 1,
      name: IMPORTED,
      starts_at: '2031-03-01T09:00:00Z',
      ends_at: '2031-03-02T18:00:00Z',
      timezone: 'UTC',
      logo_url: 'images/logo.png',
    },
    'images/logo.png': logo,
    'speakers.json': Array.from({ length: SPEAKERS }, (_, i) => ({
      id: i + 1,
      name: `Speaker ${i + 1}`,
      organisation: 'Org',
    })),
    'sessions.json': Array.from({ length: SESSIONS }, (_, i) => ({
      id: i + 1,
      title: `Talk ${i + 1}`,
      speaker_ids: [(i % SPEAKERS) + 1],
    })),
  });
}

const jobOf = async (queue: string, taskId: string) =>
  (
    await sql<{ state: string; retry_count: number }[]>`
    select state, retry_count from pgboss.job where name = ${queue} and data->>'taskId' = ${taskId}`
  )[0];
const taskIdOf = (taskUrl: string) => taskUrl.split('/').pop()!;
const mailsOf = async (action: string) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from mails where action = ${action}`)[0]!.n;
const importedEvents = async () =>
  (await sql<{ id: number }[]>`select id from events where name = ${IMPORTED}`).map((r) => r.id);

// ---- the three jobs running on the first worker ----
const first = await service.worker();
const exportStarted = await send(api.origin, `/v1/events/${eventId}/export/json`, {
  method: 'POST',
  token: owner.token,
  body: { image: true },
  type: 'application/json',
});
const appStarted = await send(api.origin, '/api/api.php', {
  method: 'POST',
  body: { email: 'maker@example.org', app_name: 'Killed Build', endpoint: `${peer.url}/v1/events/${eventId}` },
  type: 'application/json',
});
const tasks = { export: exportStarted.body?.task_url as string, app: appStarted.body?.task_url as string, import: '' };

await until('the export and the app build waiting on the peer', async () =>
  peer.requests.includes('/logo.png') && peer.requests.some((r) => r.startsWith(`/v1/events/${eventId}`))
    ? true
    : undefined,
);

// The sessions table is locked, so the import waits at its sessions until the worker is killed.
const sessionsLock = await holdLock(t, service.url, (tx) => tx`lock table sessions in share mode`);
const upload = multipart([['file', 'congress.zip', largeArchive()]]);
const importStarted = await fetch(`${api.origin}/v1/events/import/json`, {
  method: 'POST',
  headers: { ...upload.headers, authorization: `JWT ${owner.token}` },
  body: upload.payload,
});
tasks.import = ((await importStarted.json()) as { task_url: string }).task_url;
// The sessions are read last, after the event and the speakers were inserted in the import's transaction.
const progress = await until(
  'the import reading its sessions',
  async () => {
    const [task] = await sql<
      { state: string; status: string | null }[]
    >`select state, status from tasks where id = ${taskIdOf(tasks.import)}`;
    if (task!.state !== 'WAITING') throw new Error(`the import ended before the worker was killed: ${task!.state}`);
    return task!.status?.startsWith('Importing sessions') ? task!.status : undefined;
  },
  90_000,
);

first.child.kill('SIGKILL');
await first.exited;
await sessionsLock.release();
// The dead worker's jobs stay active until their heartbeat is stale.
const killedAt = {
  export: await jobOf('event-export', taskIdOf(tasks.export)),
  app: await jobOf('app-build', taskIdOf(tasks.app)),
  import: await jobOf('event-import', taskIdOf(tasks.import)),
};
// The only media of any import here: the archive's logo.
const importMedia = () => readdir(join(service.storage, 'imports', 'media')).catch(() => []);
const afterKill = {
  importState: (await sql<{ state: string }[]>`select state from tasks where id = ${taskIdOf(tasks.import)}`)[0]!.state,
  imported: await importedEvents(),
  media: await importMedia(),
};

// ---- a new worker picks the jobs up ----
peer.release();
await service.worker();
const ended = {
  export: await taskEnded(api.origin, tasks.export, owner.token),
  app: await taskEnded(api.origin, tasks.app),
  import: await taskEnded(api.origin, tasks.import, owner.token),
};

t.test('the worker was killed with the three jobs running', async (t) => {
  t.equal(exportStarted.status, 200, 'the export started');
  t.equal(appStarted.status, 202, 'the app build started');
  t.equal(importStarted.status, 200, 'the import started');
  for (const [kind, job] of Object.entries(killedAt))
    t.strictSame(job, { state: 'active', retry_count: 0 }, `the ${kind} job was running, first attempt`);
  t.match(progress, /^Importing sessions/, 'the import was past its event and speakers');
  t.equal(afterKill.importState, 'WAITING', 'the import had not ended');
  t.strictSame(
    afterKill.imported,
    [],
    'nothing of the killed import is left: its transaction died with its connection',
  );
  t.equal(afterKill.media.length, 1, 'but it had stored the logo of the archive');
});

t.test('each job was retried once on the new worker and succeeded', async (t) => {
  const queues = { export: 'event-export', app: 'app-build', import: 'event-import' } as const;
  for (const kind of ['export', 'app', 'import'] as const) {
    t.equal(
      ended[kind].state,
      'SUCCESS',
      `the ${kind} task URL reports success: ${JSON.stringify(ended[kind].result)}`,
    );
    // The job completes once its handler returns, a moment after the task ended (its mail is sent in between).
    const job = await until(`the ${kind} job to complete`, async () => {
      const row = await jobOf(queues[kind], taskIdOf(tasks[kind]));
      return row?.state === 'active' ? undefined : row;
    });
    t.strictSame(job, { state: 'completed', retry_count: 1 }, `the ${kind} job completed on its second attempt`);
  }
  const [abandoned] = await sql`select count(*)::int as n from pgboss.job where name = 'task-abandoned'`;
  t.equal(abandoned!.n, 0, 'no task was abandoned');
});

t.test('export: one complete zip, one mail', async (t) => {
  const path = new URL(ended.export.result.download_url).pathname;
  const download = await fetch(api.origin + path, { headers: { authorization: `JWT ${owner.token}` } });
  t.equal(download.status, 200, 'the zip downloads');
  const zip = new AdmZip(Buffer.from(await download.arrayBuffer()));
  const names = zip.getEntries().map((e) => e.entryName);
  t.ok(
    ['event.json', 'sessions.json', 'speakers.json', 'meta.json'].every((n) => names.includes(n)),
    `every file is in it: ${names.join(', ')}`,
  );
  const event = JSON.parse(zip.readAsText('event.json'));
  t.equal(event.name, 'Exported Summit', 'the event');
  t.equal(event.logo_url, 'images/logo.png', 'the held logo was fetched by the retry');
  t.same(zip.readFile('images/logo.png'), logo, 'with its bytes');
  t.strictSame(
    JSON.parse(zip.readAsText('sessions.json')).map((s: { title: string }) => s.title),
    ['Opening', 'Closing'],
    'every session',
  );
  const stored = await readdir(join(service.storage, 'exports', eventId));
  t.strictSame(stored, [taskIdOf(tasks.export)], 'one export stored for the event');
  t.strictSame(
    await readdir(join(service.storage, 'exports', eventId, stored[0]!)),
    [`event${eventId}.zip`],
    'one zip in it',
  );
  t.equal(await mailsOf('export-done'), 1, 'one mail recorded');
  t.equal(await mailsOf('export-failed'), 0, 'no failure mail');
});

t.test('import: one event with every record, one mail, one notification', async (t) => {
  const ids = await importedEvents();
  t.equal(ids.length, 1, 'exactly one imported event');
  t.equal(ended.import.result.id, String(ids[0]), 'the task names it');
  const [counts] = await sql<{ speakers: number; sessions: number; links: number }[]>`
    select (select count(*)::int from speakers where event_id = ${ids[0]!}) as speakers,
           (select count(*)::int from sessions where event_id = ${ids[0]!}) as sessions,
           (select count(*)::int from speakers_sessions ss join sessions s on s.id = ss.session_id where s.event_id = ${ids[0]!}) as links`;
  t.strictSame(
    counts,
    { speakers: SPEAKERS, sessions: SESSIONS, links: SESSIONS },
    'every speaker, session and link of the archive, once',
  );
  const [orphans] =
    await sql`select count(*)::int as n from speakers where event_id is null or event_id not in (select id from events)`;
  t.equal(orphans!.n, 0, 'no speaker without its event');
  t.equal(await mailsOf('import-done'), 1, 'one mail recorded');
  const [notes] = await sql`select count(*)::int as n from notifications where user_id = ${Number(owner.id)}`;
  t.equal(notes!.n, 1, 'one notification');
  const media = await importMedia();
  t.equal(media.length, 1, 'the logo stored once: the retry overwrote what the killed attempt stored');
  const [event] = await sql`select logo_url from events where id = ${ids[0]!}`;
  t.ok((event!.logo_url as string).endsWith(`/imports/media/${media[0]}`), 'the event shows that file');
  t.same(await readFile(join(service.storage, 'imports', 'media', media[0]!)), logo, 'whole');
  const [archives] = await sql`select count(*)::int as n from import_archives`;
  t.equal(archives!.n, 0, 'the uploaded archive is gone');
});

t.test('app build: one zip stored, one mail with it', async (t) => {
  const apps = await readdir(join(service.storage, 'apps'));
  t.strictSame(apps, [taskIdOf(tasks.app)], 'one build stored');
  t.strictSame(await readdir(join(service.storage, 'apps', apps[0]!)), ['killed-build.zip'], 'one zip in it');
  t.equal(await mailsOf('app-ready'), 1, 'one mail recorded');
  t.equal(await mailsOf('app-failed'), 0, 'no failure mail');
  const mail = await until('the app mail delivered', async () =>
    smtp.received.find((m) => m.parsed.subject === 'Your app "Killed Build" is ready'),
  );
  t.equal(smtp.received.filter((m) => m.parsed.subject === mail.parsed.subject).length, 1, 'delivered once');
  t.equal(mail.parsed.attachments[0]?.filename, 'killed-build.zip', 'the zip attached');
  const zip = new AdmZip(mail.parsed.attachments[0]!.content);
  t.ok(zip.getEntry('index.html'), 'a whole app');
});

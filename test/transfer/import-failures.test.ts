/**
 * Refused imports: the errors of POST /v1/events/import/{source_type}, and import jobs that fail on a
 * bad archive. Each failed job ends FAILURE with a message naming the file and old id, leaves nothing
 * of the new event (rows and stored media), and mails the requester through a real SMTP server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import t, { type Test } from 'tap';
import { buildTestApp, call, until } from '../helpers/app.js';
import { makeImage, multipart } from '../helpers/images.js';
import { startSmtp } from '../helpers/smtp.js';
import { expectError, seedUser } from '../helpers/users.js';

const TABLES = [
  'events', 'sessions', 'speakers', 'tracks', 'microlocations', 'sponsors', 'session_types', 'custom_forms', 'social_links',
  'speakers_sessions', 'notifications', 'import_archives',
];
type Json = Record<string, unknown>;
type Files = Record<string, unknown>;

const t0 = await (async () => {
  const storage = await mkdtemp(join(tmpdir(), 'oe-import-failures-'));
  t.teardown(() => rm(storage, { recursive: true, force: true }));
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, {
    ROLE: 'all', SMTP_URL: smtp.url, STORAGE_DIR: storage, PUBLIC_URL: 'https://events.example.test', UPLOAD_MAX_FILE_BYTES: '65536',
  });
  const [user, stranger, admin] = [await seedUser(app), await seedUser(app), await seedUser(app, { admin: true })];
  const images = { logo: await makeImage('png', 30, 20), acme: await makeImage('png', 16, 16), ada: await makeImage('png', 20, 20) };
  return { app, smtp, storage, user: user!, stranger: stranger!, admin: admin!, images };
})();
const { app, smtp, storage, user, stranger, admin, images } = t0;

/** A valid archive of one record of every kind (with media), as files to change per case. */
const valid = (): Files => ({
  'event.json': {
    id: 7, name: 'Broken Camp', starts_at: '2030-06-01T09:00:00Z', ends_at: '2030-06-02T18:00:00Z', timezone: 'Europe/Berlin',
    logo_url: 'images/logo.png',
  },
  'social_links.json': [{ id: 1, name: 'Site', link: 'https://example.com' }],
  'custom_forms.json': [{ id: 1, form: 'speaker', field_identifier: 'shirt', type: 'text' }],
  'microlocations.json': [{ id: 2, name: 'Room 1', floor: 1 }],
  'sponsors.json': [{ id: 3, name: 'ACME', logo_url: 'images/sponsors/acme.png' }],
  'speakers.json': [{ id: 5, name: 'Ada', email: 'ada@example.com', photo_url: 'images/speakers/ada.png' }],
  'tracks.json': [{ id: 3, name: 'Web', color: '#a04b23' }],
  'session_types.json': [{ id: 4, name: 'Talk', length: '00:30' }],
  'sessions.json': [{
    id: 41, title: 'Opening', starts_at: '2030-06-01T10:00:00Z', ends_at: '2030-06-01T10:30:00Z',
    track_id: 3, microlocation_id: 2, session_type_id: 4, speaker_ids: [5],
  }],
  'images/logo.png': images.logo,
  'images/sponsors/acme.png': images.acme,
  'images/speakers/ada.png': images.ada,
});

function zipOf(files: Files): Buffer {
  const zip = new AdmZip();
  for (const [name, value] of Object.entries(files)) {
    zip.addFile(name, Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)));
  }
  return zip.toBuffer();
}

const counts = async () => {
  const [row] = await app.sql.unsafe(`select ${TABLES.map((n) => `(select count(*)::int from ${n}) as ${n}`).join(', ')}`);
  return { ...row } as Record<string, number>;
};
const storedImports = async () => {
  const entries = await readdir(join(storage, 'imports'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
};

function post(parts: [string, string, Buffer | string][], token: string | null = user.token, source = 'json') {
  const { payload, headers } = multipart(parts);
  return app.inject({
    method: 'POST', url: `/v1/events/import/${source}`, payload, headers: { ...headers, ...(token ? { authorization: `JWT ${token}` } : {}) },
  });
}

async function start(t: Test, files: Files): Promise<string> {
  const res = await post([['file', 'event.zip', zipOf(files)]]);
  t.equal(res.statusCode, 200, 'the import is accepted');
  return res.json().task_url as string;
}

const ended = (taskUrl: string) =>
  until('the task to end', async () => {
    const res = await call(app, { url: taskUrl, token: user.token });
    return res.body?.state === 'WAITING' ? undefined : res;
  });

/** The task failed with that message, the requester got the mail, and nothing of the event is left. */
async function expectFailure(t: Test, taskUrl: string, message: RegExp, before: Json) {
  const mails = smtp.received.length;
  const res = await ended(taskUrl);
  t.equal(res.status, 200, 'a failed task is still a 200');
  t.strictSame(Object.keys(res.body).sort(), ['result', 'state', 'status']);
  t.match(res.body, { state: 'FAILURE', status: null }, JSON.stringify(res.body));
  t.strictSame(Object.keys(res.body.result ?? {}).sort(), ['__error', 'message'], 'result is {__error, message}');
  t.equal(res.body.result?.__error, true);
  t.match(res.body.result?.message, message, 'the message names what is wrong');
  t.strictSame(await counts(), before, 'no rows of the new event are left');
  t.strictSame(await storedImports(), [], 'no media stored under imports/');
  const [mail] = (await smtp.waitFor(mails + 1)).slice(mails);
  t.strictSame(mail!.envelope.to, [user.email], 'mailed to the requester');
  t.equal(mail!.parsed.subject, 'Import of event failed');
  t.ok(mail!.parsed.text?.includes(res.body.result?.message), 'the mail tells the reason');
}

t.test('route errors start no task', async (t) => {
  const before = await counts();
  const tasks = async () => (await app.sql`select count(*)::int as n from tasks`)[0]!.n as number;
  const n = await tasks();
  const zip = zipOf(valid());
  const json = (r: Awaited<ReturnType<typeof post>>) => ({ status: r.statusCode, headers: r.headers, body: r.json() });
  expectError(t, json(await post([['file', 'e.zip', zip]], user.token, 'xml')), 404);
  expectError(t, json(await post([['file', 'e.zip', zip]], null)), 401);
  const plain = await call(app, { method: 'POST', url: '/v1/events/import/json', token: user.token, body: { file: zip.toString('base64') }, headers: { 'content-type': 'application/json' } });
  expectError(t, plain, 415);
  expectError(t, json(await post([])), 400);
  expectError(t, json(await post([['archive', 'e.zip', zip]])), 400);
  expectError(t, json(await post([['file', 'e.zip', 'just some text, not a zip']])), 400, { detail: 'The file is not a zip archive' });
  const big = new AdmZip();
  big.addFile('event.json', randomBytes(100_000));
  expectError(t, json(await post([['file', 'e.zip', big.toBuffer()]])), 413);
  t.equal(await tasks(), n, 'no task was created');
  t.strictSame(await counts(), before, 'nothing written');
});

const sessions = (f: Files) => (f['sessions.json'] as Json[])[0]!;
const CASES: [string, (f: Files) => void, RegExp][] = [
  ['missing event file', (f) => delete f['event.json'], /event file/i],
  ['invalid JSON', (f) => (f['tracks.json'] = '[{"id": 3, "name": '), /^File tracks(\.json)? is not valid JSON/],
  ['a session with an invalid starts_at', (f) => (sessions(f).starts_at = 'tomorrow at ten'), /^File sessions, ID 41: .*starts.at/],
  ['a track with a bad color', (f) => ((f['tracks.json'] as Json[])[0]!.color = 'red'), /^File tracks, ID 3: .*color/],
  ['a speaker without name', (f) => delete (f['speakers.json'] as Json[])[0]!.name, /^File speakers, ID 5: .*name/],
  [
    'duplicate ids',
    (f) => (f['microlocations.json'] as Json[]).push({ id: 2, name: 'Room 2' }),
    /^File microlocations, ID 2: .*(twice|duplicate|more than once)/i,
  ],
  ['a non-numeric id', (f) => ((f['speakers.json'] as Json[])[0]!.id = 'abc'), /^File speakers\b.*\bid\b/i],
  ['a required field missing in the event', (f) => delete (f['event.json'] as Json).starts_at, /^File event, ID 7: .*starts.at/],
];

for (const [what, change, message] of CASES) {
  t.test(`refused: ${what}`, async (t) => {
    const before = await counts();
    const files = valid();
    change(files);
    await expectFailure(t, await start(t, files), message, before);
  });
}

t.test('a failure in the last file rolls back everything imported before it', async (t) => {
  // Sequences are not transactional: ids taken by rows inserted then rolled back stay taken.
  const EARLIER = ['events', 'social_links', 'custom_forms', 'microlocations', 'sponsors', 'speakers', 'tracks', 'session_types'];
  const sequences = async () => {
    const [row] = await app.sql.unsafe(
      `select ${EARLIER.map((n) => `coalesce(pg_sequence_last_value(pg_get_serial_sequence('${n}', 'id')), 0)::int as ${n}`).join(', ')}`,
    );
    return { ...row } as Record<string, number>;
  };
  const before = await counts();
  const taken = await sequences();
  const files = valid();
  sessions(files).title = '';
  const taskUrl = await start(t, files);
  await expectFailure(t, taskUrl, /^File sessions, ID 41: .*title/, before);
  const now = await sequences();
  for (const table of EARLIER) t.ok(now[table]! > taken[table]!, `${table}: a row was inserted before sessions, then rolled back`);

  const other = await call(app, { url: taskUrl, token: stranger.token });
  expectError(t, other, 404);
  const own = await call(app, { url: taskUrl, token: user.token });
  t.equal(own.status, 200);
  t.equal(own.body.state, 'FAILURE');
  const staff = await call(app, { url: taskUrl, token: admin.token });
  t.equal(staff.status, 200);
  t.strictSame(staff.body, own.body, 'admins see the task too');
});

t.test('the unchanged archive imports: each failure above came from its one change', async (t) => {
  const before = await counts();
  const res = await ended(await start(t, valid()));
  t.equal(res.body.state, 'SUCCESS', JSON.stringify(res.body));
  const after = await counts();
  t.match(after, { events: before.events! + 1, sessions: before.sessions! + 1, speakers_sessions: before.speakers_sessions! + 1 });
  t.equal((await storedImports()).length, 3, 'its three media files are stored');
});

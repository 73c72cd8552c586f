/**
 * Refused imports: the errors of POST /v1/events/import/{source_type}; archives that `?strict=true`
 * refuses at their first problem (and that a best-effort import warns of instead); archives refused
 * either way (no event, or one without a name or readable dates); a database failure mid-import.
 * Each failed job ends FAILURE with a message naming the file and old id, leaves nothing of the new
 * event (rows and stored media), and mails the requester through a real SMTP server; a successful
 * one mails and notifies its warnings.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { ImportWarning } from '../../src/transfer/repairs/warnings.js';
import { buildTestApp, call, until } from '../helpers/app.js';
import { filesUnder } from '../helpers/files.js';
import { makeImage, multipart } from '../helpers/images.js';
import { zipOf } from '../helpers/imports.js';
import { taskAnswer } from '../helpers/service.js';
import { startSmtp, type ReceivedMail } from '../helpers/smtp.js';
import { expectError, seedUser } from '../helpers/users.js';

const TABLES = [
  'events',
  'sessions',
  'speakers',
  'tracks',
  'microlocations',
  'sponsors',
  'session_types',
  'custom_forms',
  'social_links',
  'speakers_sessions',
  'notifications',
  'import_archives',
];
type Json = Record<string, unknown>;
type Files = Record<string, unknown>;

/** A database failure the import cannot foresee: a trigger of this test refuses the session titled Boom. */
const SETUP_SQL = `
  create function refuse_boom() returns trigger language plpgsql as $$
  begin
    if new.title = 'Boom' then raise exception 'boom'; end if;
    return new;
  end $$;
  create trigger refuse_boom before insert on sessions for each row execute function refuse_boom();`;

const t0 = await (async () => {
  const storage = await mkdtemp(join(tmpdir(), 'oe-import-failures-'));
  t.teardown(() => rm(storage, { recursive: true, force: true }));
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(
    t,
    {
      ROLE: 'all',
      SMTP_URL: smtp.url,
      STORAGE_DIR: storage,
      PUBLIC_URL: 'https://events.example.test',
      UPLOAD_MAX_FILE_BYTES: '65536',
    },
    { setupSql: SETUP_SQL },
  );
  const [user, stranger, admin] = [await seedUser(app), await seedUser(app), await seedUser(app, { admin: true })];
  const images = {
    logo: await makeImage('png', 30, 20),
    acme: await makeImage('png', 16, 16),
    ada: await makeImage('png', 20, 20),
  };
  return { app, smtp, storage, user: user!, stranger: stranger!, admin: admin!, images };
})();
const { app, smtp, storage, user, stranger, admin, images } = t0;

/** A valid archive of one record of every kind (with media), as files to change per case. */
const valid = (): Files => ({
  'event.json': {
    id: 7,
    name: 'Broken Camp',
    starts_at: '2030-06-01T09:00:00Z',
    ends_at: '2030-06-02T18:00:00Z',
    timezone: 'Europe/Berlin',
    logo_url: 'images/logo.png',
  },
  'social_links.json': [{ id: 1, name: 'Site', link: 'https://example.com' }],
  'custom_forms.json': [{ id: 1, form: 'speaker', field_identifier: 'shirt', type: 'text' }],
  'microlocations.json': [{ id: 2, name: 'Room 1', floor: 1 }],
  'sponsors.json': [{ id: 3, name: 'ACME', logo_url: 'images/sponsors/acme.png' }],
  'speakers.json': [{ id: 5, name: 'Ada', email: 'ada@example.com', photo_url: 'images/speakers/ada.png' }],
  'tracks.json': [{ id: 3, name: 'Web', color: '#a04b23' }],
  'session_types.json': [{ id: 4, name: 'Talk', length: '00:30' }],
  'sessions.json': [
    {
      id: 41,
      title: 'Opening',
      starts_at: '2030-06-01T10:00:00Z',
      ends_at: '2030-06-01T10:30:00Z',
      track_id: 3,
      microlocation_id: 2,
      session_type_id: 4,
      speaker_ids: [5],
    },
  ],
  'images/logo.png': images.logo,
  'images/sponsors/acme.png': images.acme,
  'images/speakers/ada.png': images.ada,
});

const storedImports = () => filesUnder(join(storage, 'imports')).catch(() => []);
/** Rows of every table an import writes, and the media files imports stored. */
const counts = async () => {
  const [row] = await app.sql.unsafe(
    `select ${TABLES.map((n) => `(select count(*)::int from ${n}) as ${n}`).join(', ')}`,
  );
  return { ...row, media: (await storedImports()).length } as Record<string, number>;
};

function post(
  parts: [string, string, Buffer | string][],
  token: string | null = user.token,
  source = 'json',
  query = '',
) {
  const { payload, headers } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: `/v1/events/import/${source}${query}`,
    payload,
    headers: { ...headers, ...(token ? { authorization: `JWT ${token}` } : {}) },
  });
}

async function start(t: Test, files: Files, query = ''): Promise<string> {
  const res = await post([['file', 'event.zip', zipOf(files)]], user.token, 'json', query);
  t.equal(res.statusCode, 200, 'the import is accepted');
  return res.json().task_url as string;
}

/** The first mail received after the first `after` that `matches`. */
const mailAfter = (after: number, matches: (mail: ReceivedMail) => boolean) =>
  until('the mail', async () => smtp.received.slice(after).find(matches));

/** The task failed with that message, the requester got the mail, and nothing of the event is left. */
async function expectFailure(t: Test, taskUrl: string, message: RegExp, before: Json) {
  const mails = smtp.received.length;
  const res = await taskAnswer(app, taskUrl, user.token);
  t.equal(res.status, 200, 'a failed task is still a 200');
  t.strictSame(Object.keys(res.body).sort(), ['result', 'state', 'status']);
  t.match(res.body, { state: 'FAILURE', status: null }, JSON.stringify(res.body));
  t.strictSame(Object.keys(res.body.result ?? {}).sort(), ['__error', 'message'], 'result is {__error, message}');
  t.equal(res.body.result?.__error, true);
  t.match(res.body.result?.message, message, 'the message names what is wrong');
  t.strictSame(await counts(), before, 'no rows of the new event are left, no media stored under imports/');
  // Mails of earlier imports may still arrive: this one is found by its subject and reason.
  const mail = await mailAfter(
    mails,
    (m) => m.parsed.subject === 'Import of event failed' && m.parsed.text?.includes(res.body.result?.message) === true,
  );
  t.strictSame(mail.envelope.to, [user.email], 'mailed to the requester, telling the reason');
}

t.test('route errors start no task', async (t) => {
  const before = await counts();
  const tasks = async () => (await app.sql`select count(*)::int as n from tasks`)[0]!.n as number;
  const n = await tasks();
  const zip = zipOf(valid());
  const json = (r: Awaited<ReturnType<typeof post>>) => ({ status: r.statusCode, headers: r.headers, body: r.json() });
  expectError(t, json(await post([['file', 'e.zip', zip]], user.token, 'xml')), 404);
  expectError(t, json(await post([['file', 'e.zip', zip]], null)), 401);
  const plain = await call(app, {
    method: 'POST',
    url: '/v1/events/import/json',
    token: user.token,
    body: { file: zip.toString('base64') },
    headers: { 'content-type': 'application/json' },
  });
  expectError(t, plain, 415);
  expectError(t, json(await post([])), 400);
  expectError(t, json(await post([['archive', 'e.zip', zip]])), 400);
  expectError(t, json(await post([['file', 'e.zip', 'just some text, not a zip']])), 400, {
    detail: 'The file is not a zip archive',
  });
  const big = zipOf({ 'event.json': randomBytes(100_000) });
  expectError(t, json(await post([['file', 'e.zip', big]])), 413);
  t.equal(await tasks(), n, 'no task was created');
  t.strictSame(await counts(), before, 'nothing written');
});

const sessions = (f: Files) => (f['sessions.json'] as Json[])[0]!;
const speakers = (f: Files) => (f['speakers.json'] as Json[])[0]!;
/** Archives a strict import refuses at their first problem, and what a best-effort import warns of them instead. */
const STRICT_CASES: [string, (f: Files) => void, RegExp, Partial<ImportWarning>][] = [
  [
    'invalid JSON',
    (f) =>
      (f['tracks.json'] =
        '[{"id": 3, "name": "Web", "color": "#a04b23"}\n{"id": 4, "name": "Data", "color": "#ffff00"}]'),
    /^File tracks\.json: not valid JSON: repaired/,
    { file: 'tracks.json', action: 'not valid JSON: repaired (a missing comma or quote, a cut-off end, ...)' },
  ],
  [
    'a session with an invalid starts_at',
    (f) => (sessions(f).starts_at = 'tomorrow at ten'),
    /^File sessions\.json, ID 41: starts_at "tomorrow at ten": not a date-time: left out/,
    {
      file: 'sessions.json',
      id: 41,
      field: 'starts_at',
      value: 'tomorrow at ten',
      action: 'not a date-time: left out',
    },
  ],
  [
    'a track with a bad color',
    (f) => ((f['tracks.json'] as Json[])[0]!.color = 'blurple'),
    /^File tracks\.json, ID 3: color "blurple": not a colour/,
    { file: 'tracks.json', id: 3, field: 'color', value: 'blurple', action: 'not a colour (#rrggbb): left out' },
  ],
  [
    'a speaker without name',
    (f) => delete speakers(f).name,
    /^File speakers\.json, ID 5: name: missing or unreadable: the record is dropped/,
    {
      file: 'speakers.json',
      id: 5,
      field: 'name',
      value: null,
      action: 'missing or unreadable: the record is dropped',
    },
  ],
  [
    'duplicate ids',
    (f) => (f['microlocations.json'] as Json[]).push({ id: 2, name: 'Room 2' }),
    /^File microlocations\.json, ID 2: the id appears twice/,
    {
      file: 'microlocations.json',
      id: 2,
      action: 'the id appears twice (a different record): the first is kept, this one dropped',
    },
  ],
  [
    'a non-numeric id',
    (f) => (speakers(f).id = 'abc'),
    /^File speakers\.json, ID "abc": id "abc": not a number/,
    {
      file: 'speakers.json',
      id: 'abc',
      field: 'id',
      action: 'not a number: the record is imported, but nothing can refer to it',
    },
  ],
  [
    'a state in another letter case',
    (f) => (sessions(f).state = 'Accepted'),
    /^File sessions\.json, ID 41: state "Accepted": read as "accepted" \(a strict import refuses the archive instead\)$/,
    { file: 'sessions.json', id: 41, field: 'state', value: 'Accepted', action: 'read as "accepted"' },
  ],
];

for (const [what, change, message, instead] of STRICT_CASES) {
  t.test(`strict=true refuses ${what}; without it, it is warned`, async (t) => {
    const before = await counts();
    const files = valid();
    change(files);
    await expectFailure(t, await start(t, files, '?strict=true'), message, before);
    const res = await taskAnswer(app, await start(t, files), user.token);
    t.equal(res.body.state, 'SUCCESS', JSON.stringify(res.body.result));
    t.match(res.body.result.warnings.items[0], instead, 'the first warning');
  });
}

t.test('strict=true still accepts fields this service has no place for, and warns of them', async (t) => {
  const files = valid();
  (files['event.json'] as Json).organizer_fax = '+49 30 1234';
  const res = await taskAnswer(app, await start(t, files, '?strict=true'), user.token);
  t.equal(res.body.state, 'SUCCESS');
  t.strictSame(res.body.result.warnings, {
    total: 1,
    items: [
      {
        file: 'event.json',
        id: 7,
        field: 'organizer_fax',
        value: '+49 30 1234',
        action: 'this service has no such field: not carried over',
      },
    ],
  });
  const wrong = await post([['file', 'e.zip', zipOf(valid())]], user.token, 'json', '?strict=maybe');
  expectError(t, { status: wrong.statusCode, headers: wrong.headers, body: wrong.json() }, 400, {
    parameter: 'strict',
  });
});

const REFUSED: [string, (f: Files) => void, RegExp][] = [
  ['missing event file', (f) => delete f['event.json'], /^The archive has no event file$/],
  ['an event file that is not JSON', (f) => (f['event.json'] = '{{{'), /^File event\.json is not valid JSON$/],
  [
    'an event without its start',
    (f) => delete (f['event.json'] as Json).starts_at,
    /^File event\.json, ID 7: starts_at missing or unreadable: the event cannot be made$/,
  ],
];

for (const [what, change, message] of REFUSED) {
  t.test(`refused even without strict: ${what}`, async (t) => {
    const before = await counts();
    const files = valid();
    change(files);
    await expectFailure(t, await start(t, files), message, before);
  });
}

t.test('a failure in the last file rolls back everything imported before it', async (t) => {
  // Sequences are not transactional: ids taken by rows inserted then rolled back stay taken.
  const EARLIER = [
    'events',
    'social_links',
    'custom_forms',
    'microlocations',
    'sponsors',
    'speakers',
    'tracks',
    'session_types',
  ];
  const sequences = async () => {
    const [row] = await app.sql.unsafe(
      `select ${EARLIER.map((n) => `coalesce(pg_sequence_last_value(pg_get_serial_sequence('${n}', 'id')), 0)::int as ${n}`).join(', ')}`,
    );
    return { ...row } as Record<string, number>;
  };
  const before = await counts();
  const taken = await sequences();
  const files = valid();
  // The database refuses this session (a trigger of this test): a failure the import cannot foresee.
  sessions(files).title = 'Boom';
  const taskUrl = await start(t, files);
  await expectFailure(t, taskUrl, /^The import failed on the server$/, before);
  const now = await sequences();
  for (const table of EARLIER)
    t.ok(now[table]! > taken[table]!, `${table}: a row was inserted before sessions, then rolled back`);

  const other = await call(app, { url: taskUrl, token: stranger.token });
  expectError(t, other, 404);
  const own = await call(app, { url: taskUrl, token: user.token });
  t.equal(own.status, 200);
  t.equal(own.body.state, 'FAILURE');
  const staff = await call(app, { url: taskUrl, token: admin.token });
  t.equal(staff.status, 200);
  t.strictSame(staff.body, own.body, 'admins see the task too');
});

t.test('the mail and the notification of an import with warnings say how many and list the first', async (t) => {
  const mails = smtp.received.length;
  const files = valid();
  (files['sponsors.json'] as Json[]).push(
    ...Array.from({ length: 24 }, (_, i) => ({ id: 100 + i, name: `Sponsor ${i}`, level: ` ${i} ` })),
  );
  const res = await taskAnswer(app, await start(t, files), user.token);
  t.equal(res.body.state, 'SUCCESS');
  t.equal(res.body.result.warnings.total, 24);
  const mail = await mailAfter(
    mails,
    (m) =>
      m.parsed.subject === 'Event Broken Camp has been imported' &&
      m.parsed.text?.includes(res.body.result.url) === true,
  );
  const lines = (mail.parsed.text ?? '').split('\n');
  t.ok(lines.includes('24 warnings: what was repaired or not carried over'), 'the mail says how many');
  t.ok(lines.includes('- File sponsors.json, ID 100: level " 0 ": read as 0'), 'and lists the first');
  t.equal(lines.filter((l) => l.startsWith('- File ')).length, 20, 'twenty of them');
  t.ok(lines.includes('... and 4 more: the import task lists the first 24.'), 'and says where the others are');
  const [note] = await app.sql<
    { message: string }[]
  >`select message from notifications where user_id = ${Number(user.id)} order by id desc limit 1`;
  t.match(
    note!.message,
    /^Your event Broken Camp is ready: https:\/\/events\.example\.test\/e\/[a-z0-9]{8}\n\n24 warnings: what was repaired or not carried over\n- File sponsors\.json, ID 100: level " 0 ": read as 0\n/,
  );
  t.equal(note!.message.split('\n').filter((l) => l.startsWith('- File ')).length, 3, 'the notification lists three');
});

t.test('the unchanged archive imports: each failure above came from its one change', async (t) => {
  const before = await counts();
  const res = await taskAnswer(app, await start(t, valid()), user.token);
  t.equal(res.body.state, 'SUCCESS', JSON.stringify(res.body));
  const after = await counts();
  t.match(after, {
    events: before.events! + 1,
    sessions: before.sessions! + 1,
    speakers_sessions: before.speakers_sessions! + 1,
  });
  t.equal(after.media, before.media! + 3, 'its three media files are stored');
});

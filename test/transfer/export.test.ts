/**
 * POST /v1/events/{event_id}/export/json and the archive it makes: layout, key order, relationships
 * as ids, deleted records left out, media flags off; who may export and download; body errors; the
 * e-mails (real SMTP); a storage failure; who may poll a task.
 */
import { request } from 'node:http';
import AdmZip from 'adm-zip';
import t from 'tap';
import { DownloadLinks } from '../../src/transfer/download-links.js';
import { FILES, modelOf } from '../../src/transfer/format.js';
import { buildTestApp, call, TEST_SECRET, until } from '../helpers/app.js';
import { buildWorld, create, expectCell, rel, tokenOf, type RoleName } from '../helpers/events.js';
import { startS3, useS3 } from '../helpers/s3.js';
import { taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';
import { expectError } from '../helpers/users.js';

const PUBLIC_URL = 'https://api.example.test';
const smtp = await startSmtp(t);
// The media hosts of the records below do not exist: their fetches (when a flag asks for them) fail within 5 s at most.
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, PUBLIC_URL, FETCH_TIMEOUT_SECONDS: '5' });
const { cast, published: pub, draft, topic } = await buildWorld(app);
const owner = cast.owner.token;
const JSON_TYPE = { 'content-type': 'application/json' };

const startExport = (event: string, token: string | undefined, body: unknown = {}, headers = JSON_TYPE) =>
  call(app, { method: 'POST', url: `/v1/events/${event}/export/json`, token, body, headers });
const download = (path: string, token?: string) =>
  app.inject({ method: 'GET', url: path, headers: token ? { authorization: `JWT ${token}` } : {} });
/**
 * A GET sent over a real socket with the path exactly as written: app.inject parses the URL with
 * WHATWG rules, which resolve `..` and `%2e%2e` segments before the router sees them.
 */
async function rawGet(path: string, token: string) {
  const address = app.server.listening
    ? app.server.address()
    : await app.listen({ port: 0, host: '127.0.0.1' }).then(() => app.server.address());
  const { port } = address as { port: number };
  return new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { authorization: `JWT ${token}` } }, (res) => {
      res.resume().on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'] }));
    })
      .on('error', reject)
      .end();
  });
}
/** An export of `event` by `token` run to its end: the task document and the download path. */
async function exported(event: string, token: string, body: unknown = {}) {
  const res = await startExport(event, token, body);
  if (res.status !== 200) throw new Error(`export: ${res.status} ${JSON.stringify(res.body)}`);
  const task = await taskEnded(app, res.body.task_url, token);
  return {
    taskUrl: res.body.task_url as string,
    task,
    path: task.result?.download_url ? new URL(task.result.download_url).pathname : '',
  };
}

// More records: external media URLs (the flags stay off), a session with two speakers, and deleted records.
const ext = {
  logo: 'https://cdn.example.org/logo.png',
  photo: 'https://cdn.example.org/photos/grace.jpg',
  sponsorLogo: 'https://cdn.example.org/sponsor.svg',
  slides: 'https://cdn.example.org/slides.pdf',
  audio: 'https://cdn.example.org/talk.mp3',
  video: 'https://cdn.example.org/talk.mp4',
};
const patched = await call(app, {
  method: 'PATCH',
  url: `/v1/events/${pub.event}`,
  token: owner,
  body: {
    data: {
      type: 'event',
      id: pub.event,
      attributes: { 'logo-url': ext.logo, description: 'About', 'location-name': 'Hall' },
    },
  },
});
if (patched.status !== 200) throw new Error(`patch: ${patched.status}`);
const of = { event: rel('event', pub.event) };
const make = (path: string, type: string, attrs: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  create(app, owner, path, type, attrs, { ...of, ...more });
const grace = await make('speakers', 'speaker', { name: 'Grace', 'photo-url': ext.photo, organisation: 'Navy' });
const gone = await make('speakers', 'speaker', { name: 'Gone speaker' });
await make('sponsors', 'sponsor', { name: 'Initech', 'logo-url': ext.sponsorLogo, level: 2 });
const deleted: [string, string][] = [['speakers', gone]];
for (const [path, type, attrs] of [
  ['sessions', 'session', { title: 'Cancelled' }],
  ['tracks', 'track', { name: 'Old', color: '#000000' }],
  ['microlocations', 'microlocation', { name: 'Closed room' }],
  ['sponsors', 'sponsor', { name: 'Bankrupt' }],
  ['social-links', 'social-link', { name: 'Dead', link: 'https://dead.example.org' }],
  ['session-types', 'session-type', { name: 'Gone', length: '00:05' }],
] as [string, string, Record<string, unknown>][])
  deleted.push([path, await make(path, type, attrs)]);
// A live session whose speaker and room are deleted afterwards: what the API shows of it, the archive holds.
const closedRoom = deleted.find(([path]) => path === 'microlocations')![1];
const talk = await make(
  'sessions',
  'session',
  { title: 'Talk', 'slides-url': ext.slides, 'audio-url': ext.audio, 'video-url': ext.video },
  {
    track: rel('track', pub.track),
    microlocation: rel('microlocation', closedRoom),
    speakers: { data: [grace, pub.speaker, gone].map((id) => ({ type: 'speaker', id })) },
  },
);
for (const [path, id] of deleted) {
  const res = await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token: owner });
  if (res.status !== 200) throw new Error(`delete ${path}: ${res.status}`);
}

const snake = (k: string) => k.replace(/-/g, '_');
const PATHS: Record<string, string> = {
  event_copyright: 'event-copyright',
  social_links: 'social-links',
  custom_forms: 'custom-forms',
  microlocations: 'microlocations',
  sponsors: 'sponsors',
  speakers: 'speakers',
  tracks: 'tracks',
  session_types: 'session-types',
  sessions: 'sessions',
  tickets: 'tickets',
  tax: 'tax',
  speakers_call: 'speakers-call',
};
const LINKS: Record<string, [string, string][]> = {
  event: [
    ['event_topic_id', 'event-topic'],
    ['event_type_id', 'event-type'],
    ['event_sub_topic_id', 'event-sub-topic'],
    ['owner_id', 'owner'],
    ['group_id', 'group'],
  ],
  microlocations: [['video_stream_id', 'video-stream']],
  speakers: [['user_id', 'user']],
  sessions: [
    ['track_id', 'track'],
    ['microlocation_id', 'microlocation'],
    ['session_type_id', 'session-type'],
    ['creator_id', 'creator'],
  ],
};
type Doc = {
  id: string;
  attributes: Record<string, unknown>;
  relationships: Record<string, { data: { id: string } | { id: string }[] | null }>;
};
/** The archive record an API document should give: snake_case attributes, numeric id, links as ids. */
function expected(file: string, doc: Doc) {
  const record: Record<string, unknown> = { id: Number(doc.id) };
  // Computed attributes (the event's schedule URLs) are the server's view of a record, not exported.
  const model = modelOf(FILES.find((f) => f.name === file)!.type);
  const computed = new Set(model.readable.filter(([, key]) => model.computed.some(([c]) => c === key)).map(([w]) => w));
  for (const [k, v] of Object.entries(doc.attributes)) if (!computed.has(k)) record[snake(k)] = v;
  for (const [field, name] of LINKS[file] ?? []) {
    const data = doc.relationships[name]!.data as { id: string } | null;
    record[field] = data ? Number(data.id) : null;
  }
  if (file === 'sessions')
    record.speaker_ids = (doc.relationships.speakers!.data as { id: string }[])
      .map((s) => Number(s.id))
      .sort((a, b) => a - b);
  return record;
}

t.test('archive layout, key order, relationships as ids, deleted records left out, media flags off', async (t) => {
  const started = Date.now();
  const { task, path } = await exported(pub.event, owner, { image: false });
  t.equal(task.state, 'SUCCESS');
  const res = await download(path, owner);
  t.equal(res.statusCode, 200);
  const zip = new AdmZip(res.rawPayload);
  const names = zip
    .getEntries()
    .map((e) => e.entryName)
    .sort();
  t.same(
    names,
    [...FILES.map((f) => `${f.name}.json`), 'meta.json'].sort(),
    'one JSON file per resource and meta.json, no media',
  );
  const json = (name: string) => JSON.parse(zip.getEntry(name)!.getData().toString('utf8'));

  const meta = json('meta.json');
  t.same(Object.keys(meta).sort(), ['exported_at', 'format_version', 'media', 'root_url']);
  t.same(
    { ...meta, exported_at: undefined },
    {
      root_url: PUBLIC_URL,
      format_version: 1,
      media: { image: false, video: false, audio: false, document: false },
      exported_at: undefined,
    },
  );
  t.ok(
    Date.parse(meta.exported_at) >= started - 1000 && Date.parse(meta.exported_at) <= Date.now(),
    'exported_at is the export time',
  );

  for (const file of FILES) {
    const content = json(`${file.name}.json`);
    const records: Record<string, unknown>[] = file.name === 'event' ? [content] : content;
    if (file.name === 'event')
      t.ok(content && !Array.isArray(content) && typeof content === 'object', 'event.json is one object');
    else t.ok(Array.isArray(content), `${file.name}.json is an array`);
    // Key order: the fixed fields present (in the fixed order), then the others alphabetically.
    for (const record of records) {
      const keys = Object.keys(record);
      const fixed = file.order.filter((k) => k in record);
      t.same(
        keys,
        [...fixed, ...keys.filter((k) => !file.order.includes(k)).sort()],
        `${file.name} #${String(record.id)}: key order`,
      );
      t.notOk(
        keys.some((k) => k.includes('-')),
        `${file.name}: snake_case keys`,
      );
    }
    const ids = records.map((r) => r.id as number);
    t.same(
      ids,
      [...ids].sort((a, b) => a - b),
      `${file.name}: ascending ids`,
    );
    // Every record equals what the API shows its organizer (live records only), fields in snake_case.
    const include = {
      event: 'event-topic,owner',
      sessions: 'track,microlocation,session-type,speakers,creator',
      speakers: 'user',
    }[file.name];
    // The event and its copyright are one record each (the copyright's path answers it or null).
    const single = ['event', 'event_copyright', 'tax', 'speakers_call'].includes(file.name);
    const url =
      file.name === 'event'
        ? `/v1/events/${pub.event}`
        : `/v1/events/${pub.event}/${PATHS[file.name]}${single ? '' : '?page[size]=100'}`;
    const read = await call(app, {
      url: include ? `${url}${url.includes('?') ? '&' : '?'}include=${include}` : url,
      token: owner,
    });
    const api = single ? [read.body.data].filter(Boolean) : read.body.data;
    t.same(
      records,
      (api as Doc[]).sort((a, b) => Number(a.id) - Number(b.id)).map((d) => expected(file.name, d)),
      `${file.name}: the records`,
    );
    for (const [kind, id] of deleted)
      if (PATHS[file.name] === kind) t.notOk(ids.includes(Number(id)), `${kind}: the deleted record is not exported`);
  }
  const event = json('event.json');
  t.match(event, {
    id: Number(pub.event),
    event_topic_id: Number(topic),
    owner_id: Number(cast.owner.id),
    logo_url: ext.logo,
    starts_at: String,
  });
  t.notOk('event_copyright_id' in event || 'starts-at' in event, 'no copyright link, no dasherized names');
  const sessions = json('sessions.json') as Record<string, unknown>[];
  t.match(
    sessions.find((s) => s.id === Number(pub.session)),
    {
      track_id: Number(pub.track),
      microlocation_id: Number(pub.microlocation),
      session_type_id: Number(pub.sessionType),
      creator_id: Number(cast.owner.id),
      speaker_ids: [Number(pub.speaker)],
    },
  );
  t.same(
    sessions.find((s) => s.id === Number(talk)),
    {
      ...sessions.find((s) => s.id === Number(talk)),
      track_id: Number(pub.track),
      microlocation_id: null,
      session_type_id: null,
      slides_url: ext.slides,
      audio_url: ext.audio,
      video_url: ext.video,
      speaker_ids: [Number(pub.speaker), Number(grace)].sort((a, b) => a - b),
    },
    'media URLs unchanged without flags; the deleted speaker is not among speaker_ids',
  );
  const speakers = json('speakers.json') as Record<string, unknown>[];
  t.match(
    speakers.find((s) => s.id === Number(pub.speaker)),
    { user_id: Number(cast.speaker.id), email: `ada-${pub.event}@example.com` },
  );
  t.match(
    speakers.find((s) => s.id === Number(grace)),
    { photo_url: ext.photo, user_id: null },
  );
  t.match(
    (json('sponsors.json') as Record<string, unknown>[]).find((s) => s.name === 'Initech'),
    { logo_url: ext.sponsorLogo },
  );
});

const ROLES: [RoleName, number][] = [
  ['owner', 200],
  ['organizer', 200],
  ['admin', 200],
  ['coorganizer', 403],
  ['other', 403],
  ['speaker', 403],
  ['anonymous', 401],
];

t.test('who may export', async (t) => {
  for (const [role, status] of ROLES) {
    const res = await startExport(pub.event, tokenOf(cast, role));
    if (status === 200) {
      t.equal(res.status, 200, `${role} -> 200`);
      t.same(Object.keys(res.body), ['task_url'], `${role}: only task_url`);
      t.match(res.body.task_url, /^\/v1\/tasks\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    } else expectCell(t, res, status, `export as ${role}`);
  }
  expectCell(t, await startExport('999999', owner), 404, 'unknown event');
  expectCell(t, await startExport('nosuchev', owner), 404, 'unknown identifier');
  expectCell(t, await startExport(draft.event, cast.other.token), 404, 'draft event for another user');
  expectCell(t, await startExport(draft.identifier, cast.coorganizer.token), 403, 'draft event for its coorganizer');
  const byKey = await exported(pub.identifier, cast.organizer.token, { document: true });
  t.equal(byKey.task.state, 'SUCCESS', 'by identifier');
  t.equal(
    byKey.path,
    `/v1/events/${pub.event}/exports/${byKey.taskUrl.split('/').pop()}/event${pub.event}.zip`,
    'the download URL names the id',
  );
  const draftExport = await exported(draft.event, cast.organizer.token);
  t.equal(draftExport.task.state, 'SUCCESS', 'the organizer exports the draft');
});

t.test('body errors', async (t) => {
  const before = (await app.sql<{ n: number }[]>`select count(*)::int as n from tasks`)[0]!.n;
  expectError(t, await startExport(pub.event, owner, { image: 'yes' }), 422, { pointer: '/image' });
  expectError(t, await startExport(pub.event, owner, { video: 1 }), 422, { pointer: '/video' });
  expectError(t, await startExport(pub.event, owner, { image: true, extra: true }), 422, { pointer: '/extra' });
  expectError(t, await startExport(pub.event, owner, '{"image": tru'), 400);
  expectError(t, await startExport(pub.event, owner, '[true]'), 422, { pointer: '' });
  const none = await call(app, { method: 'POST', url: `/v1/events/${pub.event}/export/json`, token: owner });
  t.ok(none.status >= 400 && none.status < 500, `no body -> ${none.status}`);
  const jsonapi = await startExport(pub.event, owner, { audio: true }, { 'content-type': 'application/vnd.api+json' });
  t.equal(jsonapi.status, 200, 'the JSON:API media type is accepted too');
  t.equal(
    (await app.sql<{ n: number }[]>`select count(*)::int as n from tasks`)[0]!.n,
    before + 1,
    'only the good request made a task',
  );
  // Run to its end, so that it does not stand in the export queue before the next test's exports.
  await taskEnded(app, jsonapi.body.task_url, owner);
});

t.test('download: who may, and nothing but the archive of a finished export of that event', async (t) => {
  const { path, taskUrl } = await exported(pub.event, owner);
  const task = taskUrl.split('/').pop()!;
  for (const [role, status] of ROLES) {
    const res = await download(path, tokenOf(cast, role));
    t.equal(res.statusCode, status, `download as ${role} -> ${status}`);
    if (status === 200) {
      t.equal(res.headers['content-type'], 'application/zip');
      t.match(res.headers['content-disposition'], new RegExp(`^attachment; filename="event${pub.event}\\.zip"$`));
      t.ok(new AdmZip(res.rawPayload).getEntry('event.json'), `${role}: the archive`);
    }
  }
  const base = `/v1/events/${pub.event}/exports`;
  const unknown = '0b6f7e3c-1111-4222-8333-444455556666';
  const refused: [string, string][] = [
    ['another event in the path', `/v1/events/${draft.event}/exports/${task}/event${pub.event}.zip`],
    ['another event in path and name', `/v1/events/${draft.event}/exports/${task}/event${draft.event}.zip`],
    ['another event in the name', `${base}/${task}/event${draft.event}.zip`],
    ['an unknown task', `${base}/${unknown}/event${pub.event}.zip`],
    ['traversal', `${base}/${task}/../${task}/event${pub.event}.zip`],
    ['encoded traversal', `${base}/${task}/%2e%2e/${task}/event${pub.event}.zip`],
    ['encoded slash', `${base}/${task}%2fevent${pub.event}.zip`],
    ['wrong file name', `${base}/${task}/export.zip`],
    ['wrong extension', `${base}/${task}/event${pub.event}.tar`],
    ['storage key', `${base}/exports/${pub.event}/${task}/event${pub.event}.zip`],
    ['the folder', `${base}/${task}`],
    ['an import task', ''],
  ];
  const [importTask] = await app.sql<{ id: string }[]>`insert into tasks (kind, user_id, event_id, state, options)
    select 'import', user_id, event_id, 'SUCCESS', options from tasks where id = ${task} returning id`;
  refused[refused.length - 1]![1] = `${base}/${importTask!.id}/event${pub.event}.zip`;
  t.equal((await rawGet(path, owner)).status, 200, 'the right path over a socket');
  for (const [what, url] of refused) {
    const res = await rawGet(url, owner);
    t.equal(res.status, 404, `${what}: 404`);
    t.not(res.type, 'application/zip', `${what}: no archive`);
  }
  t.equal(
    (await download(`/v1/events/999999/exports/${task}/event999999.zip`, owner)).statusCode,
    404,
    'an unknown event',
  );
});

t.test('download with the signed download_url: anyone holding it, without a token, until it expires', async (t) => {
  const { task, path, taskUrl } = await exported(draft.event, owner);
  const url = new URL(task.result.download_url as string);
  t.equal(url.origin + url.pathname, `${PUBLIC_URL}${path}`, 'the download path, signed');
  t.match(url.search, /^\?expires=\d+&signature=[0-9a-f]{64}$/);
  const expires = Number(url.searchParams.get('expires'));
  t.ok(Math.abs(expires - (Date.now() / 1000 + 604800)) < 3600, 'it works for EXPORT_LINK_SECONDS (7 days by default)');
  const signed = `${url.pathname}${url.search}`;
  const res = await download(signed);
  t.equal(res.statusCode, 200, 'no token needed (a draft event: nobody could see it anonymously)');
  t.equal(res.headers['content-type'], 'application/zip');
  t.ok(new AdmZip(res.rawPayload).getEntry('event.json'), 'the archive');
  t.equal((await download(signed, tokenOf(cast, 'other'))).statusCode, 200, 'whoever sends it, with whatever token');

  const links = new DownloadLinks(TEST_SECRET, 60);
  const other = taskUrl
    .split('/')
    .pop()!
    .replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
  const refused: [string, string, number][] = [
    ['a changed signature', signed.replace(/.$/, (c) => (c === '0' ? '1' : '0')), 403],
    ['a later expiry', signed.replace(/expires=\d+/, `expires=${expires + 1}`), 403],
    ['the signature of another path', `${path.replace(taskUrl.split('/').pop()!, other)}${url.search}`, 403],
    ['an expired link', links.signed('', path, Date.now() - 120_000), 403],
    [
      'a link signed with another secret',
      new DownloadLinks('another-secret-that-is-32-characters-long!!', 60).signed('', path),
      403,
    ],
    ['only the expiry', `${path}?expires=${expires}`, 400],
    [
      'only the signature',
      `${path}?${url.searchParams.get('signature') ? `signature=${url.searchParams.get('signature')}` : ''}`,
      400,
    ],
  ];
  for (const [what, target, status] of refused) {
    const answer = await download(target);
    t.equal(answer.statusCode, status, `${what}: ${status}`);
    t.not(answer.headers['content-type'], 'application/zip', `${what}: no archive`);
  }
  t.match(
    (await download(links.signed('', path, Date.now() - 120_000))).json(),
    { errors: [{ detail: /expired/ }] },
    'an expired link says so',
  );
  t.equal((await download(path)).statusCode, 401, 'the unsigned path still needs a token');
});

t.test('the requester gets an e-mail with the download URL', async (t) => {
  const { task } = await exported(pub.event, cast.organizer.token);
  const mail = await until('the mail', async () =>
    smtp.received.find((m) => m.parsed.text?.includes(task.result.download_url)),
  );
  t.same(mail.envelope.to, [cast.organizer.email], 'to the requester');
  t.equal(mail.parsed.subject, 'Event Open Summit has been exported');
});

t.test('tasks: the requester and administrators only', async (t) => {
  const res = await startExport(pub.event, cast.organizer.token);
  const url = res.body.task_url as string;
  await taskEnded(app, url, cast.organizer.token);
  const own = await call(app, { url, token: cast.organizer.token });
  t.equal(own.status, 200);
  t.same(Object.keys(own.body).sort(), ['result', 'state', 'status']);
  t.match(own.body, { state: 'SUCCESS', status: null, result: { download_url: String } });
  t.same((await call(app, { url, token: cast.admin.token })).body, own.body, 'an administrator sees it');
  expectError(t, await call(app, { url, token: cast.owner.token }), 404);
  expectError(t, await call(app, { url, token: cast.other.token }), 404);
  expectError(t, await call(app, { url }), 401);
  expectError(
    t,
    await call(app, { url: '/v1/tasks/0b6f7e3c-1111-4222-8333-444455556666', token: cast.admin.token }),
    404,
  );
  expectError(t, await call(app, { url: '/v1/tasks/not-a-task', token: cast.admin.token }), 404);
});

// Last: it points the site's storage at S3 for the rest of the file.
t.test('a storage failure ends the export FAILED with the error, mailed to the requester', async (t) => {
  const s3 = await startS3(t);
  await useS3(app, s3);
  const ok = await exported(pub.event, owner);
  t.equal(ok.task.state, 'SUCCESS', 'stored in S3');
  const key = `exports/${pub.event}/${ok.taskUrl.split('/').pop()}/event${pub.event}.zip`;
  t.ok(await s3.client.statObject(s3.bucket, key), 'the archive is in the bucket');
  t.equal((await download(ok.path, owner)).statusCode, 200, 'served from S3');
  await s3.stop();
  const failed = await exported(pub.event, owner);
  t.same(Object.keys(failed.task.result).sort(), ['__error', 'message']);
  t.match(failed.task, { state: 'FAILED', status: null, result: { __error: true, message: String } });
  t.equal(
    failed.task.result.message,
    'The file storage is not available at the moment; try again later',
    'the error says the storage is down, naming no endpoint',
  );
  const mail = await until('the failure mail', async () =>
    smtp.received.find((m) => m.parsed.subject === 'Export of event Open Summit failed'),
  );
  t.same(mail.envelope.to, [cast.owner.email]);
  t.ok(mail.parsed.text?.includes(failed.task.result.message), 'the mail holds the error text');
  t.equal(
    smtp.received.filter((m) => m.parsed.subject === 'Export of event Open Summit failed').length,
    1,
    'one failure mail',
  );
  expectError(
    t,
    await call(app, {
      url: failed.path || `/v1/events/${pub.event}/exports/${failed.taskUrl.split('/').pop()}/event${pub.event}.zip`,
      token: owner,
    }),
    404,
  );
});

/**
 * Zip safety of event imports: `openArchive` (src/transfer/zip.ts) refuses archives that are not
 * zips, too many entries, too many (declared) inflated bytes, bombs, headers lying about sizes, bad
 * CRCs, unsafe names (zip slip), links, encryption and other methods; the same archives through a
 * real import (small limits, workers in-process) end FAILURE with that message and nothing created,
 * and nothing is ever written to disk.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AdmZip from 'adm-zip';
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { multipart } from '../helpers/images.js';
import { zipOf, type ZipTweak } from '../helpers/imports.js';
import { taskEnded } from '../helpers/service.js';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';
import { ArchiveError, openArchive } from '../../src/transfer/zip.js';

const MiB = 1024 * 1024;
const LIMITS = { maxEntries: 20, maxTotalBytes: 8 * MiB, maxRatio: 50 };

const root = await mkdtemp(join(tmpdir(), 'oe-zip-safety-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const storageDir = await mkdtemp(join(root, 'storage-'));
const uploadDir = await mkdtemp(join(root, 'upload-'));
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  STORAGE_DIR: storageDir,
  UPLOAD_TMP_DIR: uploadDir,
  IMPORT_MAX_ENTRIES: String(LIMITS.maxEntries),
  IMPORT_MAX_INFLATED_BYTES: String(LIMITS.maxTotalBytes),
  IMPORT_MAX_RATIO: String(LIMITS.maxRatio),
});
const user = await seedUser(app);

const EVENT = {
  id: 1,
  name: 'Zip Fest',
  starts_at: '2030-05-01T09:00:00Z',
  ends_at: '2030-05-02T18:00:00Z',
  timezone: 'UTC',
};
const eventJson = Buffer.from(JSON.stringify(EVENT));

/** Offsets of the central directory header and the local header of each entry, in archive order. */
function headers(zip: Buffer): { central: number; local: number; name: string }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const found = [];
  for (let i = 0, at = zip.readUInt32LE(end + 16); i < zip.readUInt16LE(end + 10); i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    found.push({ central: at, local: zip.readUInt32LE(at + 42), name });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return found;
}

type Field = 'flags' | 'method' | 'crc' | 'compressedSize' | 'size';
const FIELDS: Record<Field, [central: number, local: number, bytes: 2 | 4]> = {
  flags: [8, 6, 2],
  method: [10, 8, 2],
  crc: [16, 14, 4],
  compressedSize: [20, 18, 4],
  size: [24, 22, 4],
};

/** The archive with that field of the named entry rewritten, in both its headers. */
function patch(zip: Buffer, name: string, field: Field, value: (old: number) => number): Buffer {
  const copy = Buffer.from(zip);
  const entry = headers(copy).find((h) => h.name === name)!;
  const [central, local, bytes] = FIELDS[field];
  for (const at of [entry.central + central, entry.local + local]) {
    if (bytes === 2) copy.writeUInt16LE(value(copy.readUInt16LE(at)) & 0xffff, at);
    else copy.writeUInt32LE(value(copy.readUInt32LE(at)) >>> 0, at);
  }
  return copy;
}

const stored: ZipTweak = (entry) => void (entry.header.method = 0);
const withEvent = (name: string, content: Buffer | string = '{}', tweak?: ZipTweak) =>
  zipOf([
    ['event.json', eventJson],
    [name, content, tweak],
  ]);
const zeros = (n: number) => Buffer.alloc(n);

const base = zipOf([['event.json', eventJson]]);
const unsafe = (name: string) => `The archive entry ${JSON.stringify(name)} has an unsafe path`;

/** The refused archives: what each holds and the message every refusal must give. */
const REFUSED: [what: string, archive: Buffer, message: string | RegExp][] = [
  [
    'not a zip (zip signature, garbage after it)',
    Buffer.from('PK\x03\x04 this is not an archive at all'),
    'The file is not a zip archive',
  ],
  ['a truncated zip (central directory cut off)', base.subarray(0, base.length - 30), 'The file is not a zip archive'],
  [
    'more entries than allowed',
    zipOf(Array.from({ length: LIMITS.maxEntries + 1 }, (_, i) => [`extra${i}.txt`, 'x'] as [string, string])),
    `The archive has more than ${LIMITS.maxEntries} entries`,
  ],
  [
    'inflated total above the limit (stored entries, real sizes)',
    zipOf([
      ['event.json', eventJson],
      ...[1, 2, 3].map((i) => [`a${i}.bin`, zeros(3 * MiB), stored] as [string, Buffer, typeof stored]),
    ]),
    `The archive inflates to more than ${8 * MiB} bytes`,
  ],
  [
    'declared inflated size above the limit (a tiny entry claiming 2 GiB)',
    patch(withEvent('big.bin', 'tiny'), 'big.bin', 'size', () => 2 ** 31),
    `The archive inflates to more than ${8 * MiB} bytes`,
  ],
  [
    'a bomb: 4 MiB of zeros compressed far beyond the ratio',
    withEvent('bomb.bin', zeros(4 * MiB)),
    'The archive entry "bomb.bin" is compressed more than 50 times',
  ],
  [
    'a header that lies: 20 MiB of zeros declared as 100 bytes',
    patch(zipOf([['event.json', zeros(20 * MiB)]]), 'event.json', 'size', () => 100),
    'The archive entry "event.json" is damaged or larger than it declares',
  ],
  [
    'a header that declares more bytes than the entry inflates to',
    patch(base, 'event.json', 'size', (n) => n + 10),
    'The archive entry "event.json" is damaged',
  ],
  ['a bad CRC', patch(base, 'event.json', 'crc', (n) => n ^ 1), 'The archive entry "event.json" is damaged'],
  [
    'a bad CRC on a stored entry',
    patch(zipOf([['event.json', eventJson, stored]]), 'event.json', 'crc', (n) => n ^ 1),
    'The archive entry "event.json" is damaged',
  ],
  [
    'a compressed size reaching past the end of the archive',
    patch(base, 'event.json', 'compressedSize', () => 1_000_000),
    /^The archive entry "event\.json" is damaged/,
  ],
  ...['../evil.json', 'a/../../evil', '/abs.json', 'C:\\x.json', 'C:/x.json', 'a\\b', './x', '../evil/'].map(
    (name) => [`the entry name ${JSON.stringify(name)}`, withEvent(name), unsafe(name)] as [string, Buffer, string],
  ),
  // A NUL cannot be stored in the task's JSON as is: the message names the entry some other way.
  [
    'the entry name "evil\\u0000.json"',
    withEvent('evil\0.json'),
    /^The archive entry "evil.{0,6}\.json" has an unsafe path$/,
  ],
  [
    'a unix symlink entry',
    withEvent('link', '/etc/passwd', (e) => void (e.attr = (0o120777 << 16) >>> 0)),
    'The archive entry "link" is a link',
  ],
  [
    'an entry flagged encrypted',
    patch(withEvent('secret.json'), 'secret.json', 'flags', (f) => f | 1),
    'The archive entry "secret.json" is encrypted',
  ],
  [
    'an entry with another method (bzip2)',
    patch(withEvent('b.json'), 'b.json', 'method', () => 12),
    'The archive entry "b.json" uses an unsupported compression',
  ],
];

/** Opens the archive and reads every entry, as an import would; answers the contents by name. */
function readAll(archive: Buffer): Map<string, string> {
  const files = openArchive(archive, LIMITS);
  return new Map([...files].map(([name, read]) => [name, read().toString('utf8')]));
}

function refused(t: Test, fn: () => unknown, message: string | RegExp) {
  try {
    fn();
    t.fail(`refused with "${message}"`);
  } catch (err) {
    t.ok(err instanceof ArchiveError, `an ArchiveError (${String(err)})`);
    if (typeof message === 'string') t.equal((err as Error).message, message, 'its message');
    else t.match((err as Error).message, message, 'its message');
  }
}

t.test('openArchive refuses', async (t) => {
  for (const [what, archive, message] of REFUSED) {
    t.test(what, async (t) => refused(t, () => readAll(archive), message));
  }
});

t.test('openArchive reads good archives', async (t) => {
  t.strictSame(readAll(base), new Map([['event.json', eventJson.toString()]]), 'a plain archive');
  const storedZip = zipOf([['event.json', eventJson, stored]]);
  t.equal(storedZip.readUInt16LE(headers(storedZip)[0]!.central + 10), 0, 'the entry really is stored (method 0)');
  t.strictSame(readAll(storedZip), new Map([['event.json', eventJson.toString()]]), 'a stored (method 0) entry');
  const folder = zipOf([
    ['my export/event.json', eventJson],
    ['my export/images/logo.png', 'png'],
    ['my export/', ''],
  ]);
  t.strictSame(
    readAll(folder),
    new Map([
      ['event.json', eventJson.toString()],
      ['images/logo.png', 'png'],
    ]),
    'a single top folder is stripped',
  );
  const two = zipOf([
    ['a/event.json', eventJson],
    ['b/x.json', '[]'],
  ]);
  t.strictSame([...readAll(two).keys()].sort(), ['a/event.json', 'b/x.json'], 'two top folders are kept');
  const exact = zipOf(Array.from({ length: LIMITS.maxEntries }, (_, i) => [`f${i}.json`, '[]'] as [string, string]));
  t.equal(readAll(exact).size, LIMITS.maxEntries, 'exactly the allowed number of entries');
  const notBomb = withEvent('small.bin', zeros(MiB));
  t.equal(readAll(notBomb).get('small.bin')?.length, MiB, 'entries up to 1 MiB are not held to the ratio');
});

t.test('openArchive inflates lazily: a lying entry fails only when read', async (t) => {
  const archive = patch(withEvent('junk.bin', zeros(2 * MiB).fill(7, 0, 10)), 'junk.bin', 'size', () => 1000);
  let files: ReturnType<typeof openArchive> | undefined;
  t.doesNotThrow(() => (files = openArchive(archive, LIMITS)), 'opening checks the declared sizes only');
  t.equal(files?.get('event.json')?.().toString(), eventJson.toString(), 'the good entry reads');
  refused(t, () => files?.get('junk.bin')?.(), 'The archive entry "junk.bin" is damaged or larger than it declares');
});

const count = async (table: string) =>
  (await app.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`))[0]!.n;

/** Uploads the archive, waits for the task to end; answers the task document. */
async function runImport(archive: Buffer) {
  const { payload, headers: h } = multipart([['file', 'event.zip', archive]]);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/events/import/json',
    headers: { ...h, authorization: `JWT ${user.token}` },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`import: ${res.statusCode} ${res.body}`);
  const url = res.json().task_url as string;
  return taskEnded(app, url, user.token);
}

/** Refusals also run through a real import: one of each kind (a worker takes one job per poll, ~2 s). */
const REAL = [
  'not a zip (zip signature, garbage after it)',
  'more entries than allowed',
  'inflated total above the limit (stored entries, real sizes)',
  'a bomb: 4 MiB of zeros compressed far beyond the ratio',
  'a header that lies: 20 MiB of zeros declared as 100 bytes',
  'a bad CRC',
  'a compressed size reaching past the end of the archive',
  'the entry name "../evil.json"',
  'a unix symlink entry',
  'an entry flagged encrypted',
  'the entry name "evil\\u0000.json"',
];

t.test('real imports of refused archives end FAILURE and create nothing', async (t) => {
  const tables = ['events', 'notifications', 'sessions', 'speakers', 'tracks'];
  const before = await Promise.all(tables.map(count));
  for (const [what, archive, message] of REFUSED.filter(([what]) => REAL.includes(what))) {
    t.test(what, async (t) => {
      const task = await runImport(archive);
      t.strictSame(Object.keys(task).sort(), ['result', 'state', 'status'], 'a task document');
      t.strictSame(
        { ...task, result: { ...task.result, message: 'm' } },
        { state: 'FAILURE', status: null, result: { __error: true, message: 'm' } },
        'it failed',
      );
      if (typeof message === 'string') t.equal(task.result?.message, message, 'with the message');
      else t.match(task.result?.message, message, 'with the message');
    });
  }
  t.test('afterwards', async (t) => {
    t.equal(REFUSED.filter(([what]) => REAL.includes(what)).length, REAL.length, 'every real case was run');
    t.strictSame(await Promise.all(tables.map(count)), before, 'no records created');
    t.strictSame(await readdir(storageDir, { recursive: true }), [], 'nothing stored');
    t.strictSame(await readdir(uploadDir), [], 'no upload left behind');
  });
});

t.test('real imports of good archives', async (t) => {
  const token = user.token;
  const eventId = await create(app, token, 'events', 'event', eventAttributes('Zip Fest'));
  await create(app, token, 'tracks', 'track', { name: 'Main', color: '#112233' }, { event: rel('event', eventId) });
  const started = await call(app, {
    method: 'POST',
    url: `/v1/events/${eventId}/export/json`,
    token,
    body: {},
    headers: { 'content-type': 'application/json' },
  });
  const exported = await taskEnded(app, started.body.task_url, token);
  const download = await app.inject({
    url: new URL(exported.result.download_url).pathname,
    headers: { authorization: `JWT ${token}` },
  });
  t.equal(download.statusCode, 200, 'the export downloads');
  const entries = new AdmZip(download.rawPayload)
    .getEntries()
    .filter((e) => !e.isDirectory)
    .map((e) => [e.entryName, e.getData()] as [string, Buffer]);
  t.ok(
    entries.some(([name]) => name === 'event.json'),
    'the export holds event.json',
  );

  const succeeded = async (archive: Buffer, what: string) => {
    const task = await runImport(archive);
    t.equal(task.state, 'SUCCESS', `${what}: SUCCESS (${JSON.stringify(task.result)})`);
    t.equal(task.result?.event_name, 'Zip Fest', `${what}: the event name`);
    const id = Number(task.result?.id) || 0;
    const [row] = await app.sql<
      { name: string; owner_id: number }[]
    >`select name, owner_id from events where id = ${id}`;
    t.strictSame(
      row ? { ...row } : row,
      { name: 'Zip Fest', owner_id: Number(user.id) },
      `${what}: the event exists, owned by the requester`,
    );
    return id;
  };
  const tracksOf = async (id: number) =>
    (await app.sql<{ name: string }[]>`select name from tracks where event_id = ${id}`).map((r) => r.name);

  const storedExport = zipOf(entries.map(([name, data]) => [name, data, stored]));
  t.ok(
    headers(storedExport).every((h) => storedExport.readUInt16LE(h.central + 10) === 0),
    'every entry really is stored (method 0)',
  );
  t.strictSame(
    await tracksOf(await succeeded(storedExport, 'the export, every entry stored')),
    ['Main'],
    'its track was imported',
  );
  const folder = zipOf([
    ['Zip Fest export/', ''],
    ...entries.map(([name, data]) => [`Zip Fest export/${name}`, data] as [string, Buffer]),
  ]);
  t.strictSame(
    await tracksOf(await succeeded(folder, 'the export inside a single top folder')),
    ['Main'],
    'the track inside the folder was imported',
  );
  // The public formats may carry few fields: an event with only the required ones is a valid archive.
  await succeeded(zipOf([['event.json', eventJson]]), 'a minimal event.json (required fields only)');
});

t.test('nothing was written outside', async (t) => {
  const everything = (await readdir(root, { recursive: true })).map(String);
  t.strictSame(
    everything.filter((p) => /evil|abs\.json|x\.json/.test(p)),
    [],
    'no evil file under the test folders',
  );
  const targets = ['evil.json', '../evil.json', 'evil', '../evil', 'abs.json', 'x.json', 'C:\\x.json', 'a\\b'];
  const places = [
    process.cwd(),
    tmpdir(),
    root,
    storageDir,
    uploadDir,
    join(storageDir, 'imports'),
    join(storageDir, 'imports/media'),
  ];
  const found = places
    .flatMap((dir) => targets.map((name) => resolve(dir, name)))
    .concat('/abs.json')
    .filter((p) => existsSync(p));
  t.strictSame(found, [], 'no file at any path the entries name');
});

/**
 * IMPORT_MAX_JSON_BYTES: a JSON file of an import archive that inflates beyond it is refused before it
 * is inflated (its declared size) and cannot get past it by lying about its size (inflating stops at
 * the declared size); the import ends FAILURE with the reason and nothing is written. Other entries
 * are held to the archive's own limits only.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { filesUnder } from '../helpers/files.js';
import { multipart } from '../helpers/images.js';
import { zipOf } from '../helpers/imports.js';
import { taskEnded } from '../helpers/service.js';
import { seedUser } from '../helpers/users.js';

const MiB = 1024 * 1024;
const root = await mkdtemp(join(tmpdir(), 'oe-import-json-cap-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const storageDir = await mkdtemp(join(root, 'storage-'));
const uploadDir = await mkdtemp(join(root, 'upload-'));
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  STORAGE_DIR: storageDir,
  UPLOAD_TMP_DIR: uploadDir,
  IMPORT_MAX_JSON_BYTES: String(MiB),
});
const user = await seedUser(app);

const EVENT = {
  id: 1,
  name: 'Capped Fest',
  starts_at: '2030-05-01T09:00:00Z',
  ends_at: '2030-05-02T18:00:00Z',
  timezone: 'UTC',
};
/** `n` sessions of about 80 KB each, random text (so no entry is held to the compression ratio). */
const sessions = (n: number, first: Record<string, unknown> = {}) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      id: i + 1,
      title: `Talk ${i + 1}`,
      long_abstract: randomBytes(40_000).toString('hex'),
      ...(i ? {} : first),
    })),
  );

/** The archive with the declared inflated size of `name` rewritten in its central and local headers. */
function declaring(zip: Buffer, name: string, size: number): Buffer {
  const copy = Buffer.from(zip);
  const end = copy.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  for (let i = 0, at = copy.readUInt32LE(end + 16); i < copy.readUInt16LE(end + 10); i++) {
    const nameLength = copy.readUInt16LE(at + 28);
    if (copy.subarray(at + 46, at + 46 + nameLength).toString('utf8') === name) {
      copy.writeUInt32LE(size, at + 24);
      copy.writeUInt32LE(size, copy.readUInt32LE(at + 42) + 22);
    }
    at += 46 + nameLength + copy.readUInt16LE(at + 30) + copy.readUInt16LE(at + 32);
  }
  return copy;
}

/** Uploads the archive and waits for its task to end; answers the task document. */
async function runImport(archive: Buffer) {
  const { payload, headers } = multipart([['file', 'event.zip', archive]]);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/events/import/json',
    headers: { ...headers, authorization: `JWT ${user.token}` },
    payload,
  });
  t.equal(res.statusCode, 200, 'the import starts');
  const url = res.json().task_url as string;
  return taskEnded(app, url, user.token);
}

const count = async (table: string) =>
  (await app.sql.unsafe<{ n: number }[]>(`select count(*)::int as n from ${table}`))[0]!.n;
const tables = ['events', 'sessions', 'notifications'];

t.test('a JSON file above IMPORT_MAX_JSON_BYTES: FAILURE naming it, nothing written', async (t) => {
  const before = await Promise.all(tables.map(count));
  const big = sessions(20);
  t.ok(big.length > MiB, 'sessions.json really is above the limit');
  const refusals: [what: string, archive: Buffer, message: string][] = [
    [
      'declared as it is',
      zipOf([
        ['event.json', JSON.stringify(EVENT)],
        ['sessions.json', big],
      ]),
      `The archive entry "sessions.json" inflates to more than ${MiB} bytes`,
    ],
    [
      'declared as 1000 bytes, inflating to 50 MiB',
      declaring(
        zipOf([
          ['event.json', JSON.stringify(EVENT)],
          ['sessions.json', `[${' '.repeat(50 * MiB)}]`],
        ]),
        'sessions.json',
        1000,
      ),
      'The archive entry "sessions.json" is damaged or larger than it declares',
    ],
    [
      'the event file, declared as it is',
      zipOf([['event.json', JSON.stringify({ ...EVENT, description: randomBytes(MiB).toString('hex') })]]),
      `The archive entry "event.json" inflates to more than ${MiB} bytes`,
    ],
  ];
  for (const [what, archive, message] of refusals) {
    const task = await runImport(archive);
    t.strictSame(task, { state: 'FAILURE', status: null, result: { __error: true, message } }, what);
  }
  t.strictSame(await Promise.all(tables.map(count)), before, 'no event, session or notification created');
  t.strictSame(await readdir(storageDir, { recursive: true }), [], 'nothing stored');
  t.strictSame(await readdir(uploadDir), [], 'no upload left behind');
});

t.test('below the limit the same archive imports, and a media file may be larger', async (t) => {
  const slides = randomBytes(2 * MiB);
  const archive = zipOf([
    ['event.json', JSON.stringify(EVENT)],
    ['sessions.json', sessions(10, { slides_url: 'slides/deck.pdf' })],
    ['slides/deck.pdf', slides],
  ]);
  const task = await runImport(archive);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task.result));
  const [row] = await app.sql<
    { n: number }[]
  >`select count(*)::int as n from sessions where event_id = ${Number(task.result?.id)}`;
  t.equal(row?.n, 10, 'every session imported');
  const files = await filesUnder(storageDir);
  t.equal(files.length, 1, 'the slides were stored');
});

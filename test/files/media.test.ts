import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp, JSONAPI } from '../helpers/app.js';
import { makeImage } from '../helpers/images.js';
import { expectError } from '../helpers/users.js';

// The storage folder and, next to it, files that must never be served.
const parent = await mkdtemp(join(tmpdir(), 'oe-media-'));
t.teardown(() => rm(parent, { recursive: true, force: true }));
const storage = join(parent, 'storage');
const SECRET = 'SECRET-OUTSIDE-STORAGE';
await writeFile(join(parent, 'secret.txt'), SECRET);
await mkdir(join(parent, 'storage-sibling'));
await writeFile(join(parent, 'storage-sibling', 'secret.txt'), SECRET);

const png = await makeImage('png', 20, 10);
const stored: Record<string, [Buffer, string]> = {
  'uploads/files/pic.png': [png, 'image/png'],
  'uploads/files/doc.pdf': [Buffer.from('%PDF-1.4\n% a tiny pdf\n'), 'application/pdf'],
  'uploads/files/notes.txt': [Buffer.from('plain notes\n'), 'text/plain'],
  'uploads/files/data.json': [Buffer.from('{"a":1}'), 'application/json'],
  'uploads/files/blob.qqzz': [Buffer.from([0, 1, 2, 255]), 'application/octet-stream'],
  'uploads/files/noext': [Buffer.from('no extension'), 'application/octet-stream'],
  'uploads/files/a.tar.gz': [Buffer.from([0x1f, 0x8b, 8, 0]), 'application/gzip'],
  'uploads/files/page.html': [Buffer.from('<script>alert(1)</script>'), 'text/html'],
  'uploads/files/draw.svg': [
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    'image/svg+xml',
  ],
  'images/events/7/abc/large.jpg': [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
  'top.txt': [Buffer.from('at the top'), 'text/plain'],
};
// A key of 5 x 120 characters: a well-formed storage key (segments up to 128) longer than 500.
const LONG_KEY = `${Array.from({ length: 4 }, (_, i) => String(i).repeat(120)).join('/')}/${'f'.repeat(116)}.txt`;
for (const [key, [bytes]] of Object.entries(stored)) {
  await mkdir(join(storage, key, '..'), { recursive: true });
  await writeFile(join(storage, key), bytes);
}
// Hidden names and folders are there too, and are never served.
await writeFile(join(storage, '.hidden'), SECRET);
await writeFile(join(storage, 'uploads/files/.env'), SECRET);
await mkdir(join(storage, 'uploads/.private'));
await writeFile(join(storage, 'uploads/.private/x.txt'), SECRET);
await mkdir(join(storage, '.partial'));
await writeFile(join(storage, '.partial/abc'), SECRET);
await mkdir(join(storage, 'uploads/empty'));

const { app } = await buildTestApp(t, { STORAGE_DIR: storage });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

/** A GET (or HEAD) over a real socket with the path exactly as written: no client normalizes it. */
function get(path: string, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; raw: Buffer }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers: { accept: '*/*' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, raw: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    },
  );
}
const asCall = (res: Awaited<ReturnType<typeof get>>) => ({
  status: res.status,
  headers: res.headers,
  body:
    res.raw.length && String(res.headers['content-type']).startsWith(JSONAPI)
      ? JSON.parse(res.raw.toString())
      : undefined,
});

t.test(
  'stored files are served with the type of their extension, nosniff, a sandbox CSP and their length',
  async (t) => {
    for (const [key, [bytes, type]] of Object.entries(stored)) {
      const res = await get(`/static/media/${key}`);
      t.equal(res.status, 200, key);
      t.equal(res.headers['content-type'], type, `${key}: ${type}`);
      t.equal(res.headers['content-length'], String(bytes.length), `${key}: content-length`);
      t.equal(res.headers['x-content-type-options'], 'nosniff');
      t.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
      t.ok(res.raw.equals(bytes), `${key}: the stored bytes`);
    }
    const head = await get('/static/media/uploads/files/pic.png', 'HEAD');
    t.equal(head.status, 200);
    t.equal(head.headers['content-type'], 'image/png');
    t.equal(head.headers['content-length'], String(png.length));
    t.equal(head.raw.length, 0, 'HEAD has no body');
    const query = await get('/static/media/uploads/files/notes.txt?download=1');
    t.equal(query.status, 200, 'a query string does not change the file');
    t.equal(query.raw.toString(), 'plain notes\n');
  },
);

const NOT_STORED = 'No stored file has this path';

/** Every answer: a 404 JSON:API error document that gives away nothing from outside the folder. */
async function refused(t: Test, path: string, detail?: string) {
  const res = await get(path);
  t.equal(res.status, 404, `${path} -> 404`);
  expectError(t, asCall(res), 404, detail ? { detail } : {});
  t.notOk(res.raw.toString().includes(SECRET), `${path}: no secret in the answer`);
  t.notOk(res.raw.toString().includes(parent), `${path}: no file-system path in the answer`);
}

t.test('folders are not listed', async (t) => {
  for (const path of [
    '/static/media/',
    '/static/media/uploads',
    '/static/media/uploads/',
    '/static/media/uploads/files',
    '/static/media/uploads/files/',
    '/static/media/uploads/empty',
  ]) {
    await refused(t, path, NOT_STORED);
  }
  await refused(t, '/static/media');
});

t.test('missing files, and paths below a file', async (t) => {
  for (const path of [
    '/static/media/uploads/files/nope.png',
    '/static/media/nothing',
    '/static/media/uploads/files/pic.png/x',
    '/static/media/uploads/files/pic.png/',
    '/static/media/uploads/files/PIC.PNG',
  ]) {
    await refused(t, path, NOT_STORED);
  }
});

t.test('hidden names are never served, even when the file exists', async (t) => {
  for (const path of [
    '/static/media/.hidden',
    '/static/media/%2ehidden',
    '/static/media/uploads/files/.env',
    '/static/media/uploads/.private/x.txt',
    '/static/media/.partial/abc',
  ]) {
    await refused(t, path, NOT_STORED);
  }
});

t.test('traversal, plain or encoded, never reaches the files next to the storage folder', async (t) => {
  const outside = join(parent, 'secret.txt');
  for (const path of [
    '/static/media/../secret.txt',
    '/static/media/uploads/../../secret.txt',
    '/static/media/uploads/files/../../../secret.txt',
    '/static/media/../storage-sibling/secret.txt',
    '/static/media/uploads/../top.txt',
    '/static/media/./top.txt',
    '/static/media/%2e%2e/secret.txt',
    '/static/media/%2E%2E/%2E%2E/secret.txt',
    '/static/media/.%2e/secret.txt',
    '/static/media/..%2fsecret.txt',
    '/static/media/..%2Fstorage-sibling%2Fsecret.txt',
    '/static/media/%2e%2e%2fsecret.txt',
    '/static/media/uploads%2f..%2f..%2fsecret.txt',
    '/static/media/uploads/files/..%2f..%2f..%2fsecret.txt',
    '/static/media/%252e%252e/secret.txt',
    '/static/media/..%5csecret.txt',
    '/static/media/..\\secret.txt',
    '/static/media//etc/passwd',
    '/static/media/%2fetc%2fpasswd',
    `/static/media/${encodeURIComponent(outside)}`,
    `/static/media/${outside}`,
    '/static/media/uploads/files/pic.png%00.txt',
    '/static/media/%00',
  ]) {
    await refused(t, path);
  }
});

t.test('an encoded slash is not a path separator: it names no stored file', async (t) => {
  // %2f is data inside one segment (RFC 3986); no stored key has a segment "uploads/files/pic.png".
  await refused(t, '/static/media/uploads%2ffiles%2fpic.png', NOT_STORED);
  await refused(t, '/static/media/uploads/files%2Fpic.png', NOT_STORED);
});

t.test('a malformed percent-encoding is a client error, answered as a JSON:API error document', async (t) => {
  const res = await get('/static/media/%zz');
  t.equal(res.status, 400);
  expectError(t, asCall(res), 400);
});

t.test('a long key the storage accepts is served; a long path that names nothing is a JSON:API 404', async (t) => {
  await mkdir(join(storage, LONG_KEY, '..'), { recursive: true });
  await writeFile(join(storage, LONG_KEY), 'long');
  t.equal(LONG_KEY.length, 604);
  const res = await get(`/static/media/${LONG_KEY}`);
  t.equal(res.status, 200, 'a 604-character key is served');
  t.equal(res.raw.toString(), 'long');
  t.equal(res.headers['content-type'], 'text/plain');
  await refused(t, `/static/media/${LONG_KEY}x`);
});

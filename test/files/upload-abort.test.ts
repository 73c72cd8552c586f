import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { filesUnder } from '../helpers/files.js';
import { startS3, useS3 } from '../helpers/s3.js';
import { seedUser } from '../helpers/users.js';

const storage = await mkdtemp(join(tmpdir(), 'oe-abort-storage-'));
const uploadTmp = await mkdtemp(join(tmpdir(), 'oe-abort-tmp-'));
t.teardown(() =>
  Promise.all([rm(storage, { recursive: true, force: true }), rm(uploadTmp, { recursive: true, force: true })]),
);
const { app } = await buildTestApp(t, { STORAGE_DIR: storage, UPLOAD_TMP_DIR: uploadTmp });
const user = await seedUser(app);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;

const BOUNDARY = '----oeAbortBoundary7MA4YWxkTrZu0gW';
const partHead = (field: string, filename: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
const partEnd = Buffer.from('\r\n');
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
/** What a whole form of these files would weigh: the length a client declares before sending it. */
const formLength = (files: [string, string, number][]) =>
  files.reduce((n, [field, name, size]) => n + partHead(field, name).length + size + partEnd.length, closing.length);

/** Polls `check` every 10 ms until it answers true; false when `ms` pass first. */
async function until(check: () => Promise<boolean>, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}

/** Bytes the server has streamed into its upload temp folders so far, per file name. */
async function received(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const folder of await readdir(uploadTmp).catch(() => [])) {
    for (const file of await readdir(join(uploadTmp, folder)).catch(() => [])) {
      out[file] = (await stat(join(uploadTmp, folder, file)).catch(() => ({ size: 0 }))).size;
    }
  }
  return out;
}

/** A POST over a real socket whose body the test writes by hand (`token` null: anonymous); `answer` resolves if the server answers. */
function open(headers: Record<string, string | number>, token: string | null = user.token, path = '/v1/upload/file') {
  const req: ClientRequest = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(token ? { authorization: `JWT ${token}` } : {}),
      ...headers,
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  answer.catch(() => {}); // the aborting tests destroy the socket on purpose
  return { req, answer };
}

const write = (req: ClientRequest, chunk: Buffer) =>
  new Promise<void>((resolve, reject) => req.write(chunk, (err) => (err ? reject(err) : resolve())));
const tmpEmpty = async () => (await readdir(uploadTmp)).length === 0;

t.test('a client that goes away in the middle of a file: the temp folder is removed, nothing is stored', async (t) => {
  const size = 40 * 1024 * 1024;
  const { req } = open({ 'content-length': formLength([['file', 'big.bin', size]]) });
  await write(req, partHead('file', 'big.bin'));
  await write(req, randomBytes(2 * 1024 * 1024));
  t.ok(
    await until(async () => ((await received())['0'] ?? 0) > 0),
    'the server is streaming the file into its temp folder',
  );
  req.destroy();
  t.ok(await until(tmpEmpty), 'the temp folder is removed after the client is gone');
  t.strictSame(await filesUnder(storage), [], 'nothing stored');
});

t.test('a client that goes away during the second of several files', async (t) => {
  const first = randomBytes(300_000);
  const { req } = open(
    {
      'content-length': formLength([
        ['files', 'one.bin', first.length],
        ['files', 'two.bin', 30 * 1024 * 1024],
      ]),
    },
    user.token,
    '/v1/upload/files',
  );
  await write(
    req,
    Buffer.concat([
      partHead('files', 'one.bin'),
      first,
      partEnd,
      partHead('files', 'two.bin'),
      randomBytes(1024 * 1024),
    ]),
  );
  t.ok(
    await until(async () => {
      const r = await received();
      return r['0'] === first.length && (r['1'] ?? 0) > 0;
    }),
    'the first file is complete and the second is arriving',
  );
  req.destroy();
  t.ok(await until(tmpEmpty), 'both temp files are removed');
  t.strictSame(await filesUnder(storage), [], 'the complete first file was not stored either');
});

t.test('a chunked upload (no content-length) cut off in the middle', async (t) => {
  const { req } = open({ 'transfer-encoding': 'chunked' });
  await write(req, partHead('file', 'stream.bin'));
  for (let i = 0; i < 4; i++) await write(req, randomBytes(256 * 1024));
  t.ok(await until(async () => ((await received())['0'] ?? 0) > 0), 'the server is streaming the file');
  req.destroy();
  t.ok(await until(tmpEmpty), 'the temp folder is removed');
  t.strictSame(await filesUnder(storage), []);
});

t.test(
  'a client that goes away inside the headers of the first part: the temp folder is removed, nothing stored',
  async (t) => {
    const { req } = open({ 'content-length': formLength([['file', 'x.bin', 1024 * 1024]]) });
    await write(req, partHead('file', 'x.bin').subarray(0, 20));
    t.ok(await until(async () => (await readdir(uploadTmp)).length > 0), 'the handler made its temp folder');
    req.destroy();
    t.ok(await until(tmpEmpty), 'the temp folder is removed');
    t.strictSame(await filesUnder(storage), []);
  },
);

t.test('an anonymous client is refused before it sends its body', async (t) => {
  const { req, answer } = open({ 'content-length': formLength([['file', 'big.bin', 50 * 1024 * 1024]]) }, null);
  req.flushHeaders();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const res = await Promise.race([
    answer,
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 60_000))),
  ]);
  // A waiting timer would keep the test process alive for its minute after the tests.
  clearTimeout(timer);
  req.destroy();
  t.equal(res?.status, 401, 'the 401 arrives while the body is still unsent');
  t.match(JSON.parse(res?.body ?? '{}'), { errors: [{ status: '401' }] });
  t.ok(await tmpEmpty(), 'no temp folder was made');
});

t.test('with S3 configured, an aborted upload reaches neither the bucket nor the disk', async (t) => {
  const peer = await startS3(t);
  await useS3(app, peer);
  const { req } = open({ 'content-length': formLength([['file', 'big.bin', 20 * 1024 * 1024]]) });
  await write(req, Buffer.concat([partHead('file', 'big.bin'), randomBytes(1024 * 1024)]));
  t.ok(await until(async () => ((await received())['0'] ?? 0) > 0), 'the server is streaming the file');
  req.destroy();
  t.ok(await until(tmpEmpty), 'the temp folder is removed');
  t.equal(await peer.client.bucketExists(peer.bucket), false, 'nothing reached the storage service');
  t.strictSame(await filesUnder(storage), []);

  // The service is unharmed: a whole upload over the same kind of connection works and cleans up.
  const content = randomBytes(500_000);
  const body = Buffer.concat([partHead('file', 'whole.bin'), content, partEnd, closing]);
  const whole = open({ 'content-length': body.length });
  whole.req.end(body);
  const res = await whole.answer;
  t.equal(res.status, 200);
  const key = (JSON.parse(res.body).url as string).slice(`${peer.endpoint}/${peer.bucket}/`.length);
  t.match(key, /^uploads\/files\/[0-9a-f]{32}\.bin$/);
  t.equal((await peer.client.statObject(peer.bucket, key)).size, content.length);
  t.ok(await tmpEmpty(), 'no temp folder after a complete upload');
});

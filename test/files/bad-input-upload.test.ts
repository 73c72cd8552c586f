import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { filesUnder } from '../helpers/files.js';
import { multipart } from '../helpers/images.js';
import { startS3, useS3, type S3Peer } from '../helpers/s3.js';
import { expectError, seedUser } from '../helpers/users.js';

const MAX_BYTES = 1024;
const MAX_FILES = 3;
const UNAVAILABLE = 'The file storage is not available at the moment; try again later';

async function setup(t: Test, env: Record<string, string> = {}) {
  const storage = await mkdtemp(join(tmpdir(), 'oe-bad-storage-'));
  const uploadTmp = await mkdtemp(join(tmpdir(), 'oe-bad-tmp-'));
  t.teardown(() =>
    Promise.all([rm(storage, { recursive: true, force: true }), rm(uploadTmp, { recursive: true, force: true })]),
  );
  const { app } = await buildTestApp(t, {
    STORAGE_DIR: storage,
    UPLOAD_TMP_DIR: uploadTmp,
    UPLOAD_MAX_FILE_BYTES: String(MAX_BYTES),
    UPLOAD_MAX_FILES: String(MAX_FILES),
    ...env,
  });
  return { app, storage, uploadTmp, user: await seedUser(app) };
}

type Part = [field: string, filename: string, content: Buffer | string];
/** A raw upload: payload and content type as given (for malformed forms), JSON:API-parsed answer. */
async function send(
  app: FastifyInstance,
  token: string | undefined,
  payload: Buffer | string,
  contentType: string,
  url = '/v1/upload/file',
) {
  const res = await app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType, ...(token ? { authorization: `JWT ${token}` } : {}) },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}
const upload = (
  app: FastifyInstance,
  token: string | undefined,
  parts: Part[],
  fields: Record<string, string> = {},
  url?: string,
) => {
  const { payload, headers } = multipart(parts, fields);
  return send(app, token, payload, headers['content-type'], url);
};

const bytes = (n: number) => randomBytes(n);
const unavailable = (t: Test, res: Awaited<ReturnType<typeof send>>) => {
  expectError(t, res, 503, { detail: UNAVAILABLE });
  t.strictSame(
    res.body.errors,
    [{ status: '503', title: 'Service Unavailable', detail: UNAVAILABLE }],
    'the whole error',
  );
};

t.test('refused uploads: status, error document, nothing stored, temp folder empty', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const form = (parts: Part[], fields?: Record<string, string>) => multipart(parts, fields);
  const ok = form([['file', 'a.txt', 'hello']]);
  const boundary = ok.headers['content-type'].split('boundary=')[1]!;
  const cases: [string, () => ReturnType<typeof send>, number, string | RegExp | undefined, string?][] = [
    ['anonymous', () => upload(app, undefined, [['file', 'a.txt', 'x']]), 401, undefined],
    ['a token that is not one', () => upload(app, 'not-a-jwt', [['file', 'a.txt', 'x']]), 401, undefined],
    [
      'one byte over the limit',
      () => upload(app, user.token, [['file', 'big.bin', bytes(MAX_BYTES + 1)]]),
      413,
      `A file is larger than the limit of ${MAX_BYTES} bytes`,
    ],
    [
      'a later file over the limit',
      () =>
        upload(app, user.token, [
          ['files', 'small.bin', bytes(10)],
          ['files', 'big.bin', bytes(MAX_BYTES * 4)],
        ]),
      413,
      `A file is larger than the limit of ${MAX_BYTES} bytes`,
    ],
    [
      'more files than UPLOAD_MAX_FILES',
      () =>
        upload(
          app,
          user.token,
          Array.from({ length: MAX_FILES + 1 }, (_, i): Part => ['files', `f${i}.txt`, `file ${i}`]),
        ),
      400,
      `At most ${MAX_FILES} files may be sent in one request`,
    ],
    [
      'no file part, only fields',
      () => upload(app, user.token, [], { file: 'not a file', note: 'x' }),
      400,
      /^No file was sent/,
    ],
    [
      'an empty form',
      () => send(app, user.token, `--${boundary}--\r\n`, ok.headers['content-type']),
      400,
      /^No file was sent/,
    ],
    ['a file in another part', () => upload(app, user.token, [['upload', 'a.txt', 'x']]), 400, /"upload"/],
    [
      'another part after a good one',
      () =>
        upload(app, user.token, [
          ['files', 'a.txt', 'x'],
          ['attachment', 'b.txt', 'y'],
        ]),
      400,
      /"attachment"/,
    ],
    [
      '"file" together with "files"',
      () =>
        upload(app, user.token, [
          ['file', 'a.txt', 'x'],
          ['files', 'b.txt', 'y'],
        ]),
      400,
      /^Part "file" takes exactly one file/,
    ],
    [
      'two files in "file"',
      () =>
        upload(app, user.token, [
          ['file', 'a.txt', 'x'],
          ['file', 'b.txt', 'y'],
        ]),
      400,
      /^Part "file" takes exactly one file/,
    ],
    [
      '"files[]" then "file"',
      () =>
        upload(app, user.token, [
          ['files[]', 'a.txt', 'x'],
          ['file', 'b.txt', 'y'],
        ]),
      400,
      /^Part "file" takes exactly one file/,
    ],
    [
      'a form cut short',
      () => send(app, user.token, ok.payload.subarray(0, ok.payload.length - 30), ok.headers['content-type']),
      400,
      undefined,
    ],
    ['multipart without a boundary', () => send(app, user.token, ok.payload, 'multipart/form-data'), 400, undefined],
    [
      'JSON',
      () =>
        call(app, {
          method: 'POST',
          url: '/v1/upload/file',
          token: user.token,
          body: { file: 'x' },
          headers: { 'content-type': 'application/json' },
        }),
      415,
      'Send the files as multipart/form-data',
    ],
    [
      'JSON:API',
      () => call(app, { method: 'POST', url: '/v1/upload/files', token: user.token, body: {} }),
      415,
      'Send the files as multipart/form-data',
    ],
    [
      'JSON of another shape',
      () =>
        call(app, {
          method: 'POST',
          url: '/v1/upload/file',
          token: user.token,
          body: { file: 1 },
          headers: { 'content-type': 'application/json' },
        }),
      415,
      undefined,
    ],
    ['plain text', () => send(app, user.token, 'hello', 'text/plain'), 415, undefined],
    ['a URL-encoded form', () => send(app, user.token, 'file=x', 'application/x-www-form-urlencoded'), 415, undefined],
    [
      'an unknown query parameter',
      () => send(app, user.token, ok.payload, ok.headers['content-type'], '/v1/upload/file?foo=1'),
      400,
      undefined,
      'foo',
    ],
    [
      'a force_local too long',
      () =>
        send(app, user.token, ok.payload, ok.headers['content-type'], `/v1/upload/file?force_local=${'t'.repeat(17)}`),
      400,
      undefined,
      'force_local',
    ],
  ];
  for (const [what, request, status, detail, parameter] of cases) {
    await t.test(what, async (t) => {
      const res = await request();
      expectError(t, res, status, { detail, parameter });
      t.strictSame(await filesUnder(storage), [], `${what}: nothing stored`);
      t.strictSame(await readdir(uploadTmp), [], `${what}: no temp folder left`);
    });
  }

  await t.test(
    'at the limits exactly: a file of UPLOAD_MAX_FILE_BYTES and UPLOAD_MAX_FILES files are taken',
    async (t) => {
      const largest = await upload(app, user.token, [['file', 'max.bin', bytes(MAX_BYTES)]]);
      t.equal(largest.status, 200);
      t.type(largest.body.url, 'string');
      const most = await upload(
        app,
        user.token,
        Array.from({ length: MAX_FILES }, (_, i): Part => ['files', `f${i}.txt`, bytes(MAX_BYTES)]),
      );
      t.equal(most.status, 200);
      t.equal(most.body.url.length, MAX_FILES);
      t.equal((await filesUnder(storage)).length, MAX_FILES + 1);
      t.strictSame(await readdir(uploadTmp), []);
    },
  );
});

const objectNames = async (peer: S3Peer) =>
  (await peer.client.listObjectsV2(peer.bucket, '', true).toArray()).map((o: { name?: string }) => o.name!);

t.test('S3 down: 503, nothing stored locally or in the bucket, temp folder empty', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const peer = await startS3(t);
  await useS3(app, peer);
  await peer.stop();
  unavailable(t, await upload(app, user.token, [['file', 'a.txt', 'hello']]));
  unavailable(
    t,
    await upload(app, user.token, [
      ['files', 'a.txt', 'one'],
      ['files', 'b.txt', 'two'],
    ]),
  );
  t.strictSame(await readdir(uploadTmp), [], 'no temp folder left');

  await peer.start();
  t.equal(await peer.client.bucketExists(peer.bucket), false, 'nothing reached the service');
  const up = await upload(app, user.token, [['file', 'a.txt', 'hello']]);
  t.equal(up.status, 200, 'once it is back, uploads work (the failed bucket check was not remembered)');
  t.equal((await objectNames(peer)).length, 1);

  await peer.stop();
  unavailable(
    t,
    await upload(app, user.token, [
      ['files', 'a.txt', 'one'],
      ['files[]', 'b.txt', 'two'],
    ]),
  );
  await peer.start();
  t.equal((await objectNames(peer)).length, 1, 'the bucket holds only the earlier upload');
  t.strictSame(await filesUnder(storage), [], 'nothing fell back to local disk');
  t.strictSame(await readdir(uploadTmp), []);
});

/**
 * An HTTP proxy in front of the S3 server that answers 500 to every object PUT from the `failAt`-th
 * on (counting from 1; minio retries a 500 once) and forwards everything else: the storage fails in
 * the middle of a request.
 */
async function flakyProxy(t: Test, peer: S3Peer, failAt: number) {
  const target = new URL(peer.endpoint);
  let puts = 0;
  let stored = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'PUT' && req.url?.startsWith(`/${peer.bucket}/`) && ++puts >= failAt) {
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/xml' });
        res.end(
          '<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>failing on purpose</Message></Error>',
        );
      });
      return;
    }
    if (req.method === 'PUT' && req.url?.startsWith(`/${peer.bucket}/`)) stored++;
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stored: () => stored };
}

t.test('several files where the storage fails on the second: 503 and the first is removed again', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const peer = await startS3(t);
  await peer.client.makeBucket(peer.bucket, peer.region);
  const proxy = await flakyProxy(t, peer, 2);
  await useS3(app, { ...peer, endpoint: proxy.endpoint });
  unavailable(
    t,
    await upload(app, user.token, [
      ['files', 'a.txt', 'one'],
      ['files', 'b.txt', 'two'],
      ['files', 'c.txt', 'three'],
    ]),
  );
  t.equal(proxy.stored(), 1, 'the first object reached the bucket before the second failed');
  t.strictSame(await objectNames(peer), [], 'the first object was removed: nothing is left in the bucket');
  t.strictSame(await filesUnder(storage), []);
  t.strictSame(await readdir(uploadTmp), []);
});

t.test('local storage that cannot be written: 503, nothing stored, temp folder empty', async (t) => {
  const broken = await mkdtemp(join(tmpdir(), 'oe-bad-broken-'));
  t.teardown(() => rm(broken, { recursive: true, force: true }));
  // A file where the uploads folder should be: every write below it fails (root ignores permissions).
  await writeFile(join(broken, 'uploads'), 'not a folder');
  const { app, uploadTmp, user } = await setup(t, { STORAGE_DIR: broken });
  unavailable(t, await upload(app, user.token, [['file', 'a.txt', 'one']]));
  unavailable(
    t,
    await upload(app, user.token, [
      ['files', 'a.txt', 'one'],
      ['files', 'b.txt', 'two'],
    ]),
  );
  t.strictSame(await filesUnder(broken), ['uploads'], 'nothing but the blocking file');
  t.strictSame(await readdir(uploadTmp), []);
});

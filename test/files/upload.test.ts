import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { createApiClient } from '../../openapi/client/index.js';
import { buildTestApp } from '../helpers/app.js';
import { filesUnder } from '../helpers/files.js';
import { makeImage, multipart } from '../helpers/images.js';
import { reservePort } from '../helpers/postgres.js';
import { startS3, useS3, type S3Peer } from '../helpers/s3.js';
import { expectError, seedUser } from '../helpers/users.js';

const PUBLIC = 'https://files.example.test';
const LOCAL_URL = new RegExp(
  `^${PUBLIC.replace(/\./g, '\\.')}/static/media/uploads/files/([0-9a-f]{32})([A-Za-z0-9.]*)$`,
);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An app with storage and upload temp folders of its own, removed when the test ends. */
async function setup(t: Test, env: Record<string, string> = {}) {
  const storage = await mkdtemp(join(tmpdir(), 'oe-up-storage-'));
  const uploadTmp = await mkdtemp(join(tmpdir(), 'oe-up-tmp-'));
  t.teardown(() =>
    Promise.all([rm(storage, { recursive: true, force: true }), rm(uploadTmp, { recursive: true, force: true })]),
  );
  const { app } = await buildTestApp(t, {
    STORAGE_DIR: storage,
    UPLOAD_TMP_DIR: uploadTmp,
    PUBLIC_URL: PUBLIC,
    ...env,
  });
  return { app, storage, uploadTmp, user: await seedUser(app) };
}

type Part = [field: string, filename: string, content: Buffer | string];
async function upload(
  app: FastifyInstance,
  token: string,
  parts: Part[],
  url = '/v1/upload/file',
  fields: Record<string, string> = {},
) {
  const { payload, headers } = multipart(parts, fields);
  const res = await app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...headers, authorization: `JWT ${token}` },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

/** The key of a local URL, checked against the URL form. */
function localKey(t: Test, url: string, extension: string): string {
  t.match(url, LOCAL_URL, `${url} is a stored-file URL`);
  t.match(url, new RegExp(`/[0-9a-f]{32}${escapeRegExp(extension)}$`), `extension ${JSON.stringify(extension)}`);
  return url.slice(`${PUBLIC}/static/media/`.length);
}

const bytesOf = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

t.test('one file in part "file" lands under STORAGE_DIR with the bytes sent and is served back', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const content = randomBytes(300_000);
  const res = await upload(app, user.token, [['file', 'report.pdf', content]]);
  t.equal(res.status, 200);
  t.match(res.headers['content-type'], /^application\/json/);
  t.strictSame(Object.keys(res.body), ['url'], 'the answer is exactly {url}');
  const key = localKey(t, res.body.url, '.pdf');
  t.strictSame(await filesUnder(storage), [key], 'one file stored, nothing else');
  t.ok((await readFile(join(storage, key))).equals(content), 'stored bytes equal the bytes sent');
  t.strictSame(await readdir(uploadTmp), [], 'the upload temp folder is gone');

  const served = await app.inject({ method: 'GET', url: new URL(res.body.url).pathname });
  t.equal(served.statusCode, 200);
  t.equal(served.headers['content-type'], 'application/pdf');
  t.ok(served.rawPayload.equals(content), 'the media route serves the same bytes');
});

t.test('several files in "files" / "files[]" (also on the alias) answer URLs in the order sent', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const contents = [randomBytes(10), Buffer.from('second file'), randomBytes(70_000), Buffer.alloc(0)];
  for (const path of ['/v1/upload/file', '/v1/upload/files']) {
    const before = await filesUnder(storage);
    const res = await upload(
      app,
      user.token,
      [
        ['files', 'one.bin', contents[0]!],
        ['files[]', 'two.txt', contents[1]!],
        ['files', 'three.tar.gz', contents[2]!],
        ['files[]', 'empty', contents[3]!],
      ],
      path,
      { note: 'ignored field', other: 'x' },
    );
    t.equal(res.status, 200, path);
    t.strictSame(Object.keys(res.body), ['url']);
    t.equal(res.body.url.length, 4, 'one URL per file');
    const keys = (res.body.url as string[]).map((url, i) => localKey(t, url, ['.bin', '.txt', '.tar.gz', ''][i]!));
    t.equal(new Set(keys).size, 4, 'distinct names');
    for (const [i, key] of keys.entries()) {
      t.ok((await readFile(join(storage, key))).equals(contents[i]!), `${path}: file ${i} holds its bytes`);
    }
    t.strictSame(await filesUnder(storage), [...before, ...keys].sort(), 'exactly those files were added');
    t.strictSame(await readdir(uploadTmp), [], 'temp folder removed');
  }
  // One file in "files" is still a list.
  const single = await upload(app, user.token, [['files', 'solo.txt', 'solo']], '/v1/upload/files');
  t.equal(single.status, 200);
  t.equal(single.body.url.length, 1);
  t.equal(await readFile(join(storage, localKey(t, single.body.url[0], '.txt')), 'utf8'), 'solo');
});

t.test('stored names: 32 hex digits plus the part of the name after its first dot, filtered', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const cases: [string, string][] = [
    ['a.tar.gz', '.tar.gz'],
    ['noext', ''],
    ['.bashrc', '.bashrc'],
    ['Photo.JPG', '.JPG'],
    ['archive.', ''],
    ['x.tar..gz', '.tar.gz'],
    ['we ird$na me.p d%f!', '.pdf'],
    // The parser keeps only the last path segment of a name.
    ['../../etc/passwd', ''],
    ['../dir.d/name.tgz', '.tgz'],
    ['résumé.döc', '.dc'],
    ['x.$$$', ''],
    [`long.${'a'.repeat(40)}`, `.${'a'.repeat(32)}`],
    ['c:\\temp\\evil.exe', '.exe'],
  ];
  const seen = new Set<string>();
  for (const [filename, extension] of cases) {
    const content = `content of ${filename}`;
    const res = await upload(app, user.token, [['file', filename, content]]);
    t.equal(res.status, 200, filename);
    const key = localKey(t, res.body.url, extension);
    t.match(key, new RegExp(`^uploads/files/[0-9a-f]{32}${escapeRegExp(extension)}$`), `${filename} -> ${key}`);
    t.equal(await readFile(join(storage, key), 'utf8'), content, `${filename}: bytes on disk`);
    seen.add(key);
  }
  // The same name twice is stored twice, under different names.
  const again = await upload(app, user.token, [['file', 'a.tar.gz', 'another']]);
  seen.add(localKey(t, again.body.url, '.tar.gz'));
  t.equal(seen.size, cases.length + 1, 'every upload got a name of its own');
  t.strictSame(await filesUnder(storage), [...seen].sort(), 'nothing stored outside uploads/files');
  t.strictSame(await readdir(uploadTmp), []);
});

async function objectsOf(peer: S3Peer) {
  const list = await peer.client.listObjectsV2(peer.bucket, '', true).toArray();
  return list
    .map((o: { name?: string; size?: number }) => ({ name: o.name!, size: o.size! }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Size, content type and bytes of one object. */
async function objectOf(peer: S3Peer, key: string) {
  const stat = await peer.client.statObject(peer.bucket, key);
  return {
    size: stat.size,
    type: stat.metaData['content-type'] as string,
    bytes: await bytesOf(await peer.client.getObject(peer.bucket, key)),
  };
}

t.test(
  'with S3 in the settings, files go to the bucket (created when missing) with size, type and bytes',
  async (t) => {
    const { app, storage, uploadTmp, user } = await setup(t);
    const peer = await startS3(t, 'fresh-bucket');
    await useS3(app, peer);
    t.equal(await peer.client.bucketExists(peer.bucket), false, 'no bucket yet');
    const base = `${peer.endpoint}/${peer.bucket}/`;
    const s3Key = (url: string, extension: string) => {
      t.match(
        url,
        new RegExp(`^${escapeRegExp(base)}uploads/files/[0-9a-f]{32}${escapeRegExp(extension)}$`),
        `${url} is an object URL`,
      );
      return url.slice(base.length);
    };

    const png = await makeImage('png', 40, 30);
    const one = await upload(app, user.token, [['file', 'photo.png', png]]);
    t.equal(one.status, 200);
    t.strictSame(Object.keys(one.body), ['url']);
    const pngKey = s3Key(one.body.url, '.png');
    t.equal(await peer.client.bucketExists(peer.bucket), true, 'the bucket was created');
    t.strictSame(await objectOf(peer, pngKey), { size: png.length, type: 'image/png', bytes: png });

    const gz = randomBytes(100_000);
    const many = await upload(app, user.token, [
      ['files', 'a.tar.gz', gz],
      ['files[]', 'noext', 'no extension'],
      ['files', 'notes.txt', 'hello'],
    ]);
    t.equal(many.status, 200);
    const [gzKey, plainKey, txtKey] = (many.body.url as string[]).map((url, i) =>
      s3Key(url, ['.tar.gz', '', '.txt'][i]!),
    );
    t.strictSame(await objectOf(peer, gzKey!), { size: gz.length, type: 'application/gzip', bytes: gz });
    t.strictSame(await objectOf(peer, plainKey!), {
      size: 12,
      type: 'application/octet-stream',
      bytes: Buffer.from('no extension'),
    });
    t.match(await objectOf(peer, txtKey!), { size: 5, type: /^text\/plain/, bytes: Buffer.from('hello') });
    t.strictSame(
      await objectsOf(peer),
      [
        { name: pngKey, size: png.length },
        { name: gzKey!, size: gz.length },
        { name: plainKey!, size: 12 },
        { name: txtKey!, size: 5 },
      ].sort((a, b) => a.name.localeCompare(b.name)),
      'exactly the uploaded objects are in the bucket',
    );
    t.strictSame(await filesUnder(storage), [], 'nothing on local disk');
    t.strictSame(await readdir(uploadTmp), [], 'temp folders removed');
  },
);

t.test('force_local=true stores on local disk even with S3 configured; other values use the settings', async (t) => {
  const { app, storage, uploadTmp, user } = await setup(t);
  const peer = await startS3(t);
  await useS3(app, peer);
  const content = randomBytes(5000);
  for (const path of ['/v1/upload/file?force_local=true', '/v1/upload/files?force_local=true']) {
    const res = await upload(app, user.token, [['file', 'kept.bin', content]], path);
    t.equal(res.status, 200, path);
    const key = localKey(t, res.body.url, '.bin');
    t.ok((await readFile(join(storage, key))).equals(content), 'on local disk');
  }
  t.equal((await filesUnder(storage)).length, 2);
  t.equal(await peer.client.bucketExists(peer.bucket), false, 'the bucket was not even created');

  const remote = await upload(app, user.token, [['files', 'remote.bin', content]], '/v1/upload/file?force_local=false');
  t.equal(remote.status, 200);
  t.match(
    remote.body.url[0],
    new RegExp(`^${escapeRegExp(`${peer.endpoint}/${peer.bucket}/uploads/files/`)}[0-9a-f]{32}\\.bin$`),
  );
  t.equal((await objectsOf(peer)).length, 1, 'force_local=false goes to the bucket');
  t.equal((await filesUnder(storage)).length, 2, 'and not to local disk');
  t.strictSame(await readdir(uploadTmp), []);
});

t.test(
  'end to end through the typed SDK over HTTP: FormData upload, then the file is fetched at its URL',
  async (t) => {
    const reserved = await reservePort();
    const baseUrl = `http://127.0.0.1:${reserved.port}`;
    const { app, storage, uploadTmp, user } = await setup(t, { PUBLIC_URL: baseUrl });
    await reserved.release();
    await app.listen({ port: reserved.port, host: '127.0.0.1' });
    const client = createApiClient(baseUrl, { token: user.token });

    const content = randomBytes(200_000);
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'application/pdf' }), 'slides.pdf');
    const { data, error, response } = await client.POST('/v1/upload/file', { body: {}, bodySerializer: () => form });
    t.equal(response.status, 200, JSON.stringify(error));
    const url = data?.url;
    t.type(url, 'string');
    t.match(url, new RegExp(`^${escapeRegExp(baseUrl)}/static/media/uploads/files/[0-9a-f]{32}\\.pdf$`));
    const fetched = await fetch(url as string);
    t.equal(fetched.status, 200);
    t.equal(fetched.headers.get('content-type'), 'application/pdf');
    t.equal(fetched.headers.get('x-content-type-options'), 'nosniff');
    t.ok(Buffer.from(await fetched.arrayBuffer()).equals(content), 'the same bytes come back over HTTP');

    const several = new FormData();
    several.append('files', new Blob(['first']), 'a.txt');
    several.append('files[]', new Blob(['second']), 'b.tar.gz');
    const many = await client.POST('/v1/upload/files', { body: {}, bodySerializer: () => several });
    t.equal(many.response.status, 200);
    const urls = many.data?.url as string[];
    t.equal(urls.length, 2);
    t.same(await Promise.all(urls.map(async (u) => (await fetch(u)).text())), ['first', 'second']);
    t.match(urls[1], /[0-9a-f]{32}\.tar\.gz$/);
    t.equal((await filesUnder(storage)).length, 3);

    const anonymous = createApiClient(baseUrl);
    const refused = await anonymous.POST('/v1/upload/file', { body: {}, bodySerializer: () => form });
    t.equal(refused.response.status, 401);
    t.equal(refused.error?.errors[0]?.status, '401');
    t.equal((await filesUnder(storage)).length, 3, 'nothing stored for the anonymous caller');
    t.strictSame(await readdir(uploadTmp), []);
    // The error document from the SDK, checked the same way as injected answers.
    expectError(
      t,
      { status: refused.response.status, headers: Object.fromEntries(refused.response.headers), body: refused.error },
      401,
    );
  },
);

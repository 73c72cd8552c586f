/**
 * POST /v1/upload/image with good input: each accepted type stored byte for byte under a random
 * name, served back by GET /static/media/..., both JSON media types, the S3 backend and force_local.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildTestApp, JSONAPI } from '../helpers/app.js';
import { filesUnder } from '../helpers/files.js';
import { dataUri, makeImage, type ImageFormat } from '../helpers/images.js';
import { startS3, useS3 } from '../helpers/s3.js';
import { seedUser } from '../helpers/users.js';

const storageDir = await mkdtemp(join(tmpdir(), 'oe-image-upload-'));
t.teardown(() => rm(storageDir, { recursive: true, force: true }));
const PUBLIC_URL = 'https://files.example.org';
const { app } = await buildTestApp(t, { STORAGE_DIR: storageDir, PUBLIC_URL });
const user = await seedUser(app);

const LOCAL = new RegExp(
  `^${PUBLIC_URL.replace(/\./g, '\\.')}/static/media/uploads/images/([0-9a-f]{32})\\.(png|jpeg|jpg|gif|webp)$`,
);

/** POST /v1/upload/image as `user`; answers status, content type and the parsed body. */
async function upload(data: unknown, { type = 'application/json', query = '' } = {}) {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/upload/image${query}`,
    headers: { 'content-type': type, authorization: `JWT ${user.token}` },
    payload: JSON.stringify({ data }),
  });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.json() as { url: string } };
}

/** Every file under the storage folder (relative paths), temp leftovers included. */
const storedFiles = () => filesUnder(storageDir);

const CASES: [declared: string, format: ImageFormat, contentType: string][] = [
  ['png', 'png', 'image/png'],
  ['jpeg', 'jpeg', 'image/jpeg'],
  ['jpg', 'jpeg', 'image/jpeg'],
  ['gif', 'gif', 'image/gif'],
  ['webp', 'webp', 'image/webp'],
];

t.test('each accepted type is stored byte for byte and served with its content type', async (t) => {
  for (const [declared, format, contentType] of CASES) {
    await t.test(declared, async (t) => {
      const bytes = await makeImage(format, 40, 30);
      const res = await upload(dataUri(bytes, declared));
      t.equal(res.status, 200, 'status 200');
      t.equal(res.type, 'application/json; charset=utf-8', 'a plain JSON answer');
      t.strictSame(Object.keys(res.body), ['url'], 'only url');
      const match = LOCAL.exec(res.body.url);
      t.ok(match, `URL form: ${res.body.url}`);
      t.equal(match?.[2], declared, 'extension is the declared type');
      const key = `uploads/images/${match?.[1]}.${declared}`;
      t.ok((await readFile(join(storageDir, key))).equals(bytes), 'stored bytes are the bytes sent');

      const served = await app.inject({ method: 'GET', url: new URL(res.body.url).pathname });
      t.equal(served.statusCode, 200, 'GET on the URL path');
      t.equal(served.headers['content-type'], contentType, 'content type of the extension');
      t.equal(served.headers['content-length'], String(bytes.length), 'content length');
      t.equal(served.headers['x-content-type-options'], 'nosniff');
      t.ok(served.rawPayload.equals(bytes), 'served bytes are the bytes sent');
    });
  }
  t.strictSame(
    (await storedFiles()).filter((f) => !f.startsWith('uploads/images/')),
    [],
    'nothing else in the storage folder (no partial files)',
  );
  t.equal((await storedFiles()).length, CASES.length, 'one file per upload');
});

t.test('two uploads of the same image get different random names', async (t) => {
  const bytes = await makeImage('png', 20, 20);
  const before = await storedFiles();
  const first = await upload(dataUri(bytes, 'png'));
  const second = await upload(dataUri(bytes, 'png'));
  t.equal(first.status, 200);
  t.equal(second.status, 200);
  t.match(first.body.url, LOCAL);
  t.match(second.body.url, LOCAL);
  t.not(first.body.url, second.body.url, 'different URLs');
  const added = (await storedFiles()).filter((f) => !before.includes(f));
  t.equal(added.length, 2, 'two files stored');
  for (const file of added) t.ok((await readFile(join(storageDir, file))).equals(bytes), `${file} holds the bytes`);
});

t.test('application/json and application/vnd.api+json bodies are both accepted', async (t) => {
  const bytes = await makeImage('gif', 24, 24);
  for (const type of ['application/json', JSONAPI, 'application/json; charset=utf-8']) {
    const res = await upload(dataUri(bytes, 'gif'), { type });
    t.equal(res.status, 200, `${type}: 200`);
    const match = LOCAL.exec(res.body.url);
    t.ok(match, `${type}: URL form`);
    t.ok((await readFile(join(storageDir, `uploads/images/${match?.[1]}.gif`))).equals(bytes), `${type}: stored bytes`);
  }
});

t.test('force_local=false and no setting: local storage', async (t) => {
  const bytes = await makeImage('webp', 16, 16);
  const res = await upload(dataUri(bytes, 'webp'), { query: '?force_local=false' });
  t.equal(res.status, 200);
  t.match(res.body.url, LOCAL, 'local URL');
});

t.test('the S3 backend stores the object in the bucket; force_local=true keeps it local', async (t) => {
  const peer = await startS3(t, 'image-uploads');
  await useS3(app, peer);
  const localBefore = await storedFiles();

  const bytes = await makeImage('png', 50, 40);
  const res = await upload(dataUri(bytes, 'png'));
  t.equal(res.status, 200, 'status 200');
  const s3Url = new RegExp(`^${peer.endpoint}/${peer.bucket}/uploads/images/([0-9a-f]{32})\\.png$`);
  const match = s3Url.exec(res.body.url);
  t.ok(match, `S3 URL: ${res.body.url}`);
  const key = `uploads/images/${match?.[1]}.png`;
  const objects = await peer.client.listObjectsV2(peer.bucket, '', true).toArray();
  t.strictSame(
    objects.map((o: { name?: string; size?: number }) => [o.name, o.size]),
    [[key, bytes.length]],
    'exactly that object, of that size, in the bucket',
  );
  const stat = await peer.client.statObject(peer.bucket, key);
  t.equal(stat.size, bytes.length, 'object size');
  t.equal(stat.metaData['content-type'], 'image/png', 'object content type');
  const chunks: Buffer[] = [];
  for await (const chunk of await peer.client.getObject(peer.bucket, key)) chunks.push(chunk as Buffer);
  t.ok(Buffer.concat(chunks).equals(bytes), 'object bytes are the bytes sent');
  t.strictSame(await storedFiles(), localBefore, 'nothing stored locally');

  const jpeg = await makeImage('jpeg', 30, 30);
  const forced = await upload(dataUri(jpeg, 'jpg'), { query: '?force_local=true' });
  t.equal(forced.status, 200, 'force_local: 200');
  const local = LOCAL.exec(forced.body.url);
  t.ok(local, `force_local: local URL ${forced.body.url}`);
  t.ok(
    (await readFile(join(storageDir, `uploads/images/${local?.[1]}.jpg`))).equals(jpeg),
    'force_local: stored locally',
  );
  const after = await peer.client.listObjectsV2(peer.bucket, '', true).toArray();
  t.strictSame(
    after.map((o: { name?: string }) => o.name),
    [key],
    'force_local: nothing new in the bucket',
  );
});

/**
 * Fault: the S3 storage is down (the s3rver peer stopped) while uploads go to S3. Uploads answer a
 * clear 503 with Retry-After, leave nothing behind (no object, no local file, no temp file) and work
 * again as soon as S3 is back. An event image whose variants are made while S3 is down: the job fails
 * and is retried, the event never names an object that does not exist, and the variants arrive once
 * S3 is back. (test/files/bad-input-upload.test.ts adds S3 failing in the middle of a multi-file upload.)
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { buildTestApp, call, JSONAPI, until } from '../helpers/app.js';
import { create, eventAttributes } from '../helpers/events.js';
import { filesUnder } from '../helpers/files.js';
import { dataUri, makeImage, multipart } from '../helpers/images.js';
import { startS3, useS3, type S3Peer } from '../helpers/s3.js';
import { seedUser } from '../helpers/users.js';

const UNAVAILABLE = {
  errors: [
    {
      status: '503',
      title: 'Service Unavailable',
      detail: 'The file storage is not available at the moment; try again later',
    },
  ],
  jsonapi: { version: '1.0' },
};

async function setup(t: Test, env: Record<string, string> = {}) {
  const storage = await mkdtemp(join(tmpdir(), 'oe-s3-down-storage-'));
  const uploadTmp = await mkdtemp(join(tmpdir(), 'oe-s3-down-tmp-'));
  t.teardown(() =>
    Promise.all([rm(storage, { recursive: true, force: true }), rm(uploadTmp, { recursive: true, force: true })]),
  );
  const { app } = await buildTestApp(t, { STORAGE_DIR: storage, UPLOAD_TMP_DIR: uploadTmp, ...env });
  const peer = await startS3(t);
  await peer.client.makeBucket(peer.bucket, peer.region);
  await useS3(app, peer);
  return { app, peer, storage, uploadTmp, user: await seedUser(app) };
}

/** Names and sizes of the objects in the bucket (S3 must be up). */
const objects = async (peer: S3Peer) =>
  (await peer.client.listObjectsV2(peer.bucket, '', true).toArray()).map(
    (o: { name?: string; size?: number }) => [o.name!, o.size!] as const,
  );
const keyOf = (peer: S3Peer, url: string) => new URL(url).pathname.slice(`/${peer.bucket}/`.length);

/** The three kinds of upload: one file, several files, an image as a data URI. */
async function uploads(app: FastifyInstance, token: string, png: Buffer) {
  const form = (parts: Parameters<typeof multipart>[0]) => {
    const { payload, headers } = multipart(parts);
    return { payload, headers: { ...headers, authorization: `JWT ${token}` } };
  };
  const answer = (res: Awaited<ReturnType<FastifyInstance['inject']>>) => ({
    status: res.statusCode,
    headers: res.headers,
    body: res.json(),
  });
  return {
    file: answer(
      await app.inject({ method: 'POST', url: '/v1/upload/file', ...form([['file', 'notes.txt', 'some notes']]) }),
    ),
    files: answer(
      await app.inject({
        method: 'POST',
        url: '/v1/upload/files',
        ...form([
          ['files', 'a.txt', 'one'],
          ['files', 'b.txt', 'two'],
        ]),
      }),
    ),
    image: answer(
      await app.inject({
        method: 'POST',
        url: '/v1/upload/image',
        headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
        payload: { data: dataUri(png, 'png') },
      }),
    ),
  };
}

t.test(
  'S3 down: file, files and image uploads answer 503 with Retry-After and store nothing; back up, they work',
  async (t) => {
    const { app, peer, storage, uploadTmp, user } = await setup(t);
    const png = await makeImage('png', 40, 30);
    await peer.stop();

    const down = await uploads(app, user.token, png);
    for (const [kind, res] of Object.entries(down)) {
      t.equal(res.status, 503, `${kind}: 503`);
      t.equal(res.headers['content-type'], JSONAPI, `${kind}: the JSON:API media type`);
      t.equal(res.headers['retry-after'], '5', `${kind}: Retry-After`);
      t.strictSame(res.body, UNAVAILABLE, `${kind}: the whole error document`);
    }
    t.strictSame(await readdir(uploadTmp), [], 'no temp file left');
    t.strictSame(await filesUnder(storage), [], 'nothing fell back to local disk');

    await peer.start();
    t.strictSame(await objects(peer), [], 'nothing reached the bucket');
    const up = await uploads(app, user.token, png);
    t.strictSame(
      Object.values(up).map((r) => r.status),
      [200, 200, 200],
      'S3 back: the same uploads work without a restart',
    );
    const stored = new Map(await objects(peer));
    t.equal(stored.get(keyOf(peer, up.file.body.url)), 'some notes'.length, 'the file is in the bucket');
    t.strictSame(
      (up.files.body.url as string[]).map((u) => stored.get(keyOf(peer, u))),
      [3, 3],
      'both files are in the bucket',
    );
    t.equal(stored.get(keyOf(peer, up.image.body.url)), png.length, 'the image is in the bucket');
    t.equal(stored.size, 4, 'nothing else');
    t.strictSame(await readdir(uploadTmp), [], 'no temp file left');
  },
);

t.test(
  'S3 down while an event image gets its variants: retried, never a link to a missing object; back up, the variants arrive',
  async (t) => {
    const { app, peer, user } = await setup(t, { ROLE: 'all' });
    const photo = await makeImage('png', 400, 200);
    const uploaded = await call(app, {
      method: 'POST',
      url: '/v1/upload/image',
      token: user.token,
      body: { data: dataUri(photo, 'png') },
      headers: { 'content-type': 'application/json' },
    });
    t.equal(uploaded.status, 200, 'the original is uploaded while S3 is up');
    const original = uploaded.body.url as string;

    await peer.stop();
    const id = await create(app, user.token, 'events', 'event', {
      ...eventAttributes('Pictured'),
      'original-image-url': original,
    });
    // The first attempt fails and the job waits for its retry (pg-boss counts retry_count up only when
    // it claims the job again, 30 to 60 s later: waiting for that would be a race with the timeout).
    const failed = await until('the variants job failing', async () => {
      const [job] = await app.sql<{ id: string; state: string }[]>`
      select id, state from pgboss.job where name = 'image-variants' and data->>'id' = ${id} and started_on is not null`;
      return job?.state === 'retry' ? job : undefined;
    });
    const event = await call(app, { url: `/v1/events/${id}`, token: user.token });
    t.equal(event.status, 200, 'the event is there (its write needs no storage)');
    const variants = (attrs: Record<string, unknown>) =>
      ['large-image-url', 'thumbnail-image-url', 'icon-image-url'].map((k) => attrs[k]);
    t.strictSame(
      variants(event.body.data.attributes),
      [null, null, null],
      'while S3 is down the event names no variant',
    );

    await peer.start();
    // The retry waits 30 s and more (retryDelay with backoff); bring it forward instead of sleeping.
    await app.sql`update pgboss.job set start_after = now() where id = ${failed.id} and state = 'retry'`;
    const urls = await until('the variants after S3 is back', async () => {
      const res = await call(app, { url: `/v1/events/${id}`, token: user.token });
      const found = variants(res.body.data.attributes);
      return found.every((u) => typeof u === 'string') ? (found as string[]) : undefined;
    });
    const stored = new Map(await objects(peer));
    for (const url of urls) {
      t.ok(stored.has(keyOf(peer, url)), `${keyOf(peer, url)} is in the bucket`);
      const meta = await sharp(
        Buffer.concat(await (await peer.client.getObject(peer.bucket, keyOf(peer, url))).toArray()),
      ).metadata();
      t.equal(meta.format, 'jpeg', 'a JPEG variant');
    }
    t.equal(stored.size, 4, 'the original and its three variants, nothing else');
    const [job] = await app.sql`select state, retry_count from pgboss.job where id = ${failed.id}`;
    t.strictSame({ ...job }, { state: 'completed', retry_count: 1 }, 'the same job, completed by its retry');
  },
);

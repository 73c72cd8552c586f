/**
 * Event image variants through the API and the pg-boss worker: a new or changed original-image-url
 * clears the variants and sends a job; the job writes large/thumbnail/icon JPEGs at the settings'
 * sizes next to the original (local disk or S3) and fills the URLs. Failures (refused URL, not an
 * image, a decompression bomb, an HTTP error) leave the record alone; a stale job writes nothing.
 * App A fetches no private address (so its own storage must be read directly); app B may (a local
 * server stands in for a remote site) and has a small pixel limit.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { imageSizes, settings } from '../../db/schema/index.js';
import { buildTestApp, call, until } from '../helpers/app.js';
import { create, eventAttributes } from '../helpers/events.js';
import { makeImage, uploadImage } from '../helpers/images.js';
import { startS3, useS3 } from '../helpers/s3.js';
import { seedUser } from '../helpers/users.js';

const MEDIA = 'http://localhost:8080/static/media/';
const VARIANTS = ['large-image-url', 'thumbnail-image-url', 'icon-image-url'] as const;
type Sizes = [number, number][];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const dirA = await mkdtemp(join(tmpdir(), 'oe-variants-a-'));
const dirB = await mkdtemp(join(tmpdir(), 'oe-variants-b-'));
t.teardown(() =>
  Promise.all([rm(dirA, { recursive: true, force: true }), rm(dirB, { recursive: true, force: true })]).then(() => {}),
);
const A = (await buildTestApp(t, { ROLE: 'all', STORAGE_DIR: dirA })).app;
const B = (
  await buildTestApp(t, { ROLE: 'all', STORAGE_DIR: dirB, FETCH_ALLOW_PRIVATE: 'true', IMAGE_MAX_PIXELS: '4000000' })
).app;
const userA = await seedUser(A);
const adminA = await seedUser(A, { admin: true });
const userB = await seedUser(B);

// The "remote" site: a local HTTP server that records what it is asked for.
const seen: string[] = [];
const photo = await makeImage('png', 1000, 400);
const bomb = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: '#884422' } })
  .png()
  .toBuffer();
const remote = createServer((req, res) => {
  seen.push(req.url!);
  if (req.url === '/photo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(photo);
  else if (req.url === '/text')
    res.writeHead(200, { 'content-type': 'image/png' }).end('this is plain text, not an image');
  else if (req.url === '/bomb.png') res.writeHead(200, { 'content-type': 'image/png' }).end(bomb);
  else res.writeHead(404).end('not here');
});
await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise<void>((resolve) => remote.close(() => resolve())));
const site = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;

const getEvent = async (app: FastifyInstance, token: string, id: string) =>
  (await call(app, { url: `/v1/events/${id}`, token })).body.data.attributes as Record<string, unknown>;
const variantsOf = (attrs: Record<string, unknown>) => VARIANTS.map((k) => attrs[k] as string | null);
const waitForVariants = (app: FastifyInstance, token: string, id: string) =>
  until(`variants of event ${id}`, async () => {
    const attrs = await getEvent(app, token, id);
    return attrs['large-image-url'] ? attrs : undefined;
  });

/** The variants jobs of one event, oldest first. */
const jobsOf = async (app: FastifyInstance, id: string) =>
  (
    await app.sql`select state, data, output from pgboss.job where name = 'image-variants'
    and data->>'owner' = 'event' and data->>'id' = ${id} order by created_on, id`
  ).map((r) => ({ ...r }));
const failedJob = (app: FastifyInstance, id: string) =>
  until(`a failed job of event ${id}`, async () =>
    (await jobsOf(app, id)).find((j) => ['retry', 'failed'].includes(j.state as string)),
  );

/** Each variant's bytes (read through the app for local URLs, from the bucket otherwise) are a JPEG of that size. */
async function checkVariants(
  t: Test,
  app: FastifyInstance,
  urls: (string | null)[],
  sizes: Sizes,
  read?: (url: string) => Promise<Buffer>,
) {
  for (const [i, url] of urls.entries()) {
    let bytes: Buffer;
    if (read) bytes = await read(url!);
    else {
      const res = await app.inject({ url: new URL(url!).pathname });
      t.equal(res.statusCode, 200, `${VARIANTS[i]} is served`);
      t.equal(res.headers['content-type'], 'image/jpeg');
      bytes = res.rawPayload;
    }
    const meta = await sharp(bytes).metadata();
    t.strictSame(
      [meta.format, meta.width, meta.height],
      ['jpeg', ...sizes[i]!],
      `${VARIANTS[i]}: JPEG ${sizes[i]!.join('x')}`,
    );
  }
}
const variantPattern = (base: string, id: string) =>
  VARIANTS.map(
    (k) => new RegExp(`^${escapeRegExp(base)}images/events/${id}/([0-9a-f]{16})/${k.replace('-image-url', '')}\\.jpg$`),
  );
const folderOf = (url: string) => url.replace(/\/[a-z]+\.jpg$/, '').replace(MEDIA, '');
const patchEvent = (app: FastifyInstance, token: string, id: string, attributes: Record<string, unknown>) =>
  call(app, { method: 'PATCH', url: `/v1/events/${id}`, token, body: { data: { type: 'event', id, attributes } } });

let first: { id: string; url: string; variants: string[] };
let initial: { url: string; variants: string[] };

t.test('an uploaded image: a job, then variants at the settings widths with heights from the ratio', async (t) => {
  const url = await uploadImage(A, userA.token, await makeImage('png', 2000, 800), 'png');
  const res = await call(A, {
    method: 'POST',
    url: '/v1/events',
    token: userA.token,
    body: { data: { type: 'event', attributes: { ...eventAttributes('Pictured'), 'original-image-url': url } } },
  });
  t.equal(res.status, 201);
  const id = res.body.data.id as string;
  t.equal(res.body.data.attributes['original-image-url'], url);
  t.strictSame(variantsOf(res.body.data.attributes), [null, null, null], 'no variants yet');
  const [job] = await jobsOf(A, id);
  t.strictSame(job?.data, { owner: 'event', id: Number(id), url }, 'the job was sent with the event');

  const attrs = await waitForVariants(A, userA.token, id);
  const urls = variantsOf(attrs);
  variantPattern(MEDIA, id).forEach((re, i) => t.match(urls[i], re, `${VARIANTS[i]} is stored next to the original`));
  t.equal(new Set(urls.map((u) => folderOf(u!))).size, 1, 'one folder for the three');
  await checkVariants(t, A, urls, [
    [1300, 520],
    [500, 200],
    [75, 30],
  ]);
  for (const u of urls) t.ok(existsSync(join(dirA, u!.replace(MEDIA, ''))), `${u} is a file in STORAGE_DIR`);
  t.equal(attrs['original-image-url'], url, 'the original is unchanged');
  // pg-boss marks the job completed a moment after its handler stored the variants.
  const states = await until('the job completed', async () => {
    const now = (await jobsOf(A, id)).map((j) => j.state);
    return now.includes('active') || now.includes('created') ? undefined : now;
  });
  t.strictSame(states, ['completed'], 'one job, completed');
  first = { id, url, variants: urls as string[] };
  initial = { url, variants: urls as string[] };
});

t.test('other sizes, aspect not kept, a new image: cleared at once, then exactly width x height', async (t) => {
  const patched = await call(A, {
    method: 'PATCH',
    url: '/v1/event-image-sizes',
    token: adminA.token,
    body: {
      data: {
        type: 'event-image-size',
        id: '1',
        attributes: {
          'full-width': 800,
          'full-height': 300,
          'full-aspect': false,
          'thumbnail-width': 320,
          'thumbnail-height': 240,
          'thumbnail-aspect': false,
          'icon-width': 40,
          'icon-height': 40,
          'icon-aspect': false,
        },
      },
    },
  });
  t.equal(patched.status, 200);
  const { id } = first;
  const url2 = await uploadImage(A, userA.token, await makeImage('jpeg', 600, 900), 'jpeg');
  const res = await patchEvent(A, userA.token, id, { 'original-image-url': url2 });
  t.equal(res.status, 200);
  t.equal(res.body.data.attributes['original-image-url'], url2);
  t.strictSame(variantsOf(res.body.data.attributes), [null, null, null], 'the PATCH answer has no variants');
  const [row] = await A.sql`select large_image_url, thumbnail_image_url, icon_image_url from events where id = ${id}`;
  t.strictSame(
    { ...row },
    { large_image_url: null, thumbnail_image_url: null, icon_image_url: null },
    'cleared in the table too',
  );

  const urls = variantsOf(await waitForVariants(A, userA.token, id));
  variantPattern(MEDIA, id).forEach((re, i) => t.match(urls[i], re));
  t.not(folderOf(urls[0]!), folderOf(first.variants[0]!), 'another folder than the first image');
  await checkVariants(t, A, urls, [
    [800, 300],
    [320, 240],
    [40, 40],
  ]);

  // The same URL again (with another change): the variants stay, no job.
  const again = await patchEvent(A, userA.token, id, { 'original-image-url': url2, name: 'Renamed' });
  t.equal(again.status, 200);
  t.strictSame(variantsOf(again.body.data.attributes), urls, 'an unchanged URL keeps its variants');
  t.equal((await jobsOf(A, id)).length, 2, 'and sends no job');
  first = { id, url: url2, variants: urls as string[] };
  await A.db
    .update(imageSizes)
    .set({
      fullWidth: 1300,
      fullHeight: 500,
      fullAspect: true,
      thumbnailWidth: 500,
      thumbnailHeight: 200,
      thumbnailAspect: true,
      iconWidth: 75,
      iconHeight: 30,
      iconAspect: true,
    })
    .where(eq(imageSizes.type, 'event-image'));
});

t.test('a job for an image the record no longer has writes nothing', async (t) => {
  const { id, url: current, variants } = first;
  t.not(initial.url, current);
  // Remove the first image's variant folder: the stale job must not write it again.
  const oldFolder = join(dirA, folderOf(initial.variants[0]!));
  t.ok(existsSync(oldFolder), 'the first image had its folder');
  await rm(oldFolder, { recursive: true });
  const before = await Promise.all(variants.map((u) => readFile(join(dirA, u.replace(MEDIA, '')))));
  const jobId = await A.boss.send('image-variants', { owner: 'event', id: Number(id), url: initial.url });
  t.ok(jobId, 'sent');
  const done = await until('the stale job', async () => {
    const [job] = await A.sql`select state from pgboss.job where name = 'image-variants' and id = ${jobId!}`;
    return ['completed', 'failed', 'retry'].includes(job?.state as string) ? (job!.state as string) : undefined;
  });
  t.equal(done, 'completed', 'the stale job ends quietly');
  const attrs = await getEvent(A, userA.token, id);
  t.equal(attrs['original-image-url'], current);
  t.strictSame(variantsOf(attrs), variants, 'the variants still belong to the current image');
  const after = await Promise.all(variants.map((u) => readFile(join(dirA, u.replace(MEDIA, '')))));
  t.ok(
    after.every((b, i) => b.equals(before[i]!)),
    'the current variant files are unchanged',
  );
  t.strictSame(
    await readdir(join(dirA, 'images/events', id)),
    [folderOf(variants[0]!).split('/').pop()],
    'no folder written for the old image',
  );
});

t.test('null: variants cleared, no job', async (t) => {
  const { id } = first;
  const jobs = (await jobsOf(A, id)).length;
  const res = await patchEvent(A, userA.token, id, { 'original-image-url': null });
  t.equal(res.status, 200);
  t.strictSame(
    [res.body.data.attributes['original-image-url'], ...variantsOf(res.body.data.attributes)],
    [null, null, null, null],
  );
  t.equal((await jobsOf(A, id)).length, jobs, 'no job');
  const [row] =
    await A.sql`select original_image_url, large_image_url, thumbnail_image_url, icon_image_url from events where id = ${id}`;
  t.strictSame(Object.values({ ...row }), [null, null, null, null]);
});

t.test('an image on S3: the variants go to the bucket', async (t) => {
  const peer = await startS3(t);
  await useS3(A, peer);
  t.teardown(() =>
    A.db
      .update(settings)
      .set({ storagePlace: 'local' })
      .where(eq(settings.id, 1))
      .then(() => {}),
  );
  const url = await uploadImage(A, userA.token, await makeImage('webp', 1000, 500), 'webp');
  const base = `${peer.endpoint}/${peer.bucket}/`;
  t.match(url, new RegExp(`^${escapeRegExp(base)}uploads/images/[0-9a-f]{32}\\.webp$`));
  const id = await create(A, userA.token, 'events', 'event', {
    ...eventAttributes('On S3'),
    'original-image-url': url,
  });
  const urls = variantsOf(await waitForVariants(A, userA.token, id));
  variantPattern(base, id).forEach((re, i) => t.match(urls[i], re, `${VARIANTS[i]} is in the bucket`));
  const keys = urls.map((u) => u!.slice(base.length));
  const objects = (await peer.client.listObjectsV2(peer.bucket, `images/events/${id}/`, true).toArray())
    .map((o: { name?: string }) => o.name)
    .sort();
  t.strictSame(objects, [...keys].sort(), 'exactly the three objects');
  const readObject = async (u: string) =>
    Buffer.concat(await (await peer.client.getObject(peer.bucket, u.slice(base.length))).toArray());
  await checkVariants(
    t,
    A,
    urls,
    [
      [1300, 650],
      [500, 250],
      [75, 38],
    ],
    readObject,
  );
  t.notOk(existsSync(join(dirA, 'images/events', id)), 'nothing on local disk');
});

t.test('a private address is refused without FETCH_ALLOW_PRIVATE: the job fails, the record stays', async (t) => {
  seen.length = 0;
  const url = `${site}/photo.png`;
  const id = await create(A, userA.token, 'events', 'event', {
    ...eventAttributes('Refused'),
    'original-image-url': url,
  });
  const [before] = await A.sql`select * from events where id = ${id}`;
  const job = await failedJob(A, id);
  t.equal(job.state, 'retry', 'pg-boss will retry');
  t.match((job.output as { message?: string }).message, /127\.0\.0\.1 is not a public address/);
  const [after] = await A.sql`select * from events where id = ${id}`;
  t.strictSame({ ...after }, { ...before }, 'the row is untouched');
  t.strictSame(variantsOf(await getEvent(A, userA.token, id)), [null, null, null]);
  t.equal((await getEvent(A, userA.token, id))['original-image-url'], url);
  t.strictSame(seen, [], 'the server was never asked');
});

t.test('FETCH_ALLOW_PRIVATE: a remote image is fetched, the variants stored in the settings backend', async (t) => {
  seen.length = 0;
  const url = `${site}/photo.png`;
  const id = await create(B, userB.token, 'events', 'event', {
    ...eventAttributes('Remote'),
    'original-image-url': url,
  });
  const attrs = await waitForVariants(B, userB.token, id);
  const urls = variantsOf(attrs);
  variantPattern(MEDIA, id).forEach((re, i) => t.match(urls[i], re, `${VARIANTS[i]} is on local disk`));
  await checkVariants(t, B, urls, [
    [1300, 520],
    [500, 200],
    [75, 30],
  ]);
  t.equal(attrs['original-image-url'], url, 'the original URL is kept as given');
  t.strictSame(seen, ['/photo.png'], 'fetched once');
});

t.test('not an image, a decompression bomb, an HTTP error: the job fails, the record stays, no files', async (t) => {
  const cases: [string, RegExp][] = [
    ['/text', /unsupported image format/],
    ['/bomb.png', /pixel limit/],
    ['/missing.png', /the server answered 404/],
  ];
  const made = await Promise.all(
    cases.map(async ([path]) => {
      const id = await create(B, userB.token, 'events', 'event', {
        ...eventAttributes(`Bad ${path}`),
        'original-image-url': site + path,
      });
      const [row] = await B.sql`select * from events where id = ${id}`;
      return { id, row: { ...row } };
    }),
  );
  for (const [i, [path, message]] of cases.entries()) {
    const { id, row } = made[i]!;
    const job = await failedJob(B, id);
    t.equal(job.state, 'retry', `${path}: the job will be retried`);
    t.match((job.output as { message?: string }).message, message, `${path}: ${String(message)}`);
    const [after] = await B.sql`select * from events where id = ${id}`;
    t.strictSame({ ...after }, row, `${path}: the row is untouched`);
    t.strictSame(variantsOf(await getEvent(B, userB.token, id)), [null, null, null]);
    t.notOk(existsSync(join(dirB, 'images/events', id)), `${path}: no variant files`);
  }
});

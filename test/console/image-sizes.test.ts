/**
 * Event and speaker image sizes (`/v1/event-image-sizes`, `/v1/speaker-image-sizes`): everyone reads the one
 * record of each, administrators change it, bad values change nothing; the image jobs make their variants at
 * these sizes and this JPEG quality (a lower quality, a smaller file of the same size).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import t, { type Test } from 'tap';
import { assertDocument, assertError, buildTestApp, call, until } from '../helpers/app.js';
import { create, eventAttributes } from '../helpers/events.js';
import { makeImage, uploadImage } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';

const dir = await mkdtemp(join(tmpdir(), 'oe-image-sizes-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const app = (await buildTestApp(t, { ROLE: 'all', STORAGE_DIR: dir })).app;
const user = await seedUser(app);
const admin = await seedUser(app, { admin: true });
const superAdmin = await seedUser(app, { superAdmin: true });

const EVENT_SEED = {
  type: 'event-image',
  'full-width': 1300,
  'full-height': 500,
  'full-aspect': true,
  'full-quality': 80,
  'thumbnail-width': 500,
  'thumbnail-height': 200,
  'thumbnail-aspect': true,
  'thumbnail-quality': 80,
  'icon-width': 75,
  'icon-height': 30,
  'icon-aspect': true,
  'icon-quality': 80,
  'logo-width': 500,
  'logo-height': 200,
};
const SPEAKER_SEED = {
  type: 'speaker-image',
  'thumbnail-size-width-height': 500,
  'thumbnail-size-quality': 80,
  'small-size-width-height': 50,
  'small-size-quality': 80,
  'icon-size-width-height': 35,
  'icon-size-quality': 80,
};
const documentOf = (type: string, path: string, id: string, attributes: Record<string, unknown>) => ({
  data: { type, id, attributes, links: { self: `/v1/${path}/${id}` } },
  links: { self: `/v1/${path}/${id}` },
  jsonapi: { version: '1.0' },
});

const patchSizes = (path: string, token: string | undefined, type: string, id: string, attributes: unknown) =>
  call(app, { method: 'PATCH', url: `/v1/${path}`, token, body: { data: { type, id, attributes } } });
const patchEventSizes = (attributes: Record<string, unknown>) =>
  patchSizes('event-image-sizes', admin.token, 'event-image-size', '1', attributes);

t.test('everyone reads the seeded records, with or without their id; another id names nothing', async (t) => {
  for (const token of [undefined, user.token, admin.token]) {
    for (const url of ['/v1/event-image-sizes', '/v1/event-image-sizes/1']) {
      const res = await call(app, { url, token });
      assertDocument(t, res, 200);
      t.strictSame(res.body, documentOf('event-image-size', 'event-image-sizes', '1', EVENT_SEED), url);
    }
    for (const url of ['/v1/speaker-image-sizes', '/v1/speaker-image-sizes/2']) {
      const res = await call(app, { url, token });
      t.strictSame(res.body, documentOf('speaker-image-size', 'speaker-image-sizes', '2', SPEAKER_SEED), url);
    }
  }
  // The front end's queryRecord sends the list query of the one record.
  const listQuery = await call(app, { url: '/v1/event-image-sizes?page[size]=10&sort=type&filter=[]' });
  t.equal(listQuery.status, 200);
  for (const url of ['/v1/event-image-sizes/2', '/v1/speaker-image-sizes/1', '/v1/speaker-image-sizes/x']) {
    const res = await call(app, { url });
    assertError(t, res, 404);
  }
});

t.test('only administrators change them; every caller reads the change', async (t) => {
  const change = { 'full-quality': 70, 'logo-width': 320 };
  assertError(t, await patchSizes('event-image-sizes', undefined, 'event-image-size', '1', change), 401);
  assertError(t, await patchSizes('event-image-sizes', user.token, 'event-image-size', '1', change), 403);
  assertError(t, await patchSizes('speaker-image-sizes/2', user.token, 'speaker-image-size', '2', change), 403);
  t.equal((await call(app, { url: '/v1/event-image-sizes' })).body.data.attributes['full-quality'], 80, 'unchanged');

  const res = await patchEventSizes({ ...change, type: 'event-image' });
  assertDocument(t, res, 200);
  t.strictSame(res.body, documentOf('event-image-size', 'event-image-sizes', '1', { ...EVENT_SEED, ...change }));
  const speaker = await patchSizes('speaker-image-sizes/2', superAdmin.token, 'speaker-image-size', '2', {
    'small-size-width-height': 64,
    'thumbnail-size-quality': null,
  });
  t.equal(speaker.status, 200, 'a super administrator too, at the path with the id');
  const read = await call(app, { url: '/v1/speaker-image-sizes', token: user.token });
  t.strictSame(read.body.data.attributes, {
    ...SPEAKER_SEED,
    'small-size-width-height': 64,
    'thumbnail-size-quality': null,
  });
  const [row] = await app.sql`select full_quality, logo_width, small_size_width_height from image_sizes order by id`;
  t.strictSame({ ...row }, { full_quality: 70, logo_width: 320, small_size_width_height: null }, 'stored');
  await patchEventSizes({ 'full-quality': 80, 'logo-width': 500 });
  await patchSizes('speaker-image-sizes', admin.token, 'speaker-image-size', '2', {
    'small-size-width-height': 50,
    'thumbnail-size-quality': 80,
  });
});

t.test('bad values: a clear 4xx naming the member, nothing written', async (t) => {
  const before = await app.sql`select * from image_sizes order by id`;
  const at = (m: string) => ({ pointer: `/data/attributes/${m}` });
  const wrong: [Record<string, unknown>, string][] = [
    [{ 'full-width': 0 }, 'full-width'],
    [{ 'full-width': -5 }, 'full-width'],
    [{ 'full-width': 4097 }, 'full-width'],
    [{ 'thumbnail-height': 1.5 }, 'thumbnail-height'],
    [{ 'icon-width': '75' }, 'icon-width'],
    [{ 'full-quality': 0 }, 'full-quality'],
    [{ 'icon-quality': 101 }, 'icon-quality'],
    [{ 'full-aspect': null }, 'full-aspect'],
    [{ 'thumbnail-aspect': 'yes' }, 'thumbnail-aspect'],
    [{ type: 'speaker-image' }, 'type'],
    [{ 'small-size-width-height': 50 }, 'small-size-width-height'],
    [{ 'full-width': 800, 'full-height': 2 ** 31 }, 'full-height'],
  ];
  for (const [attributes, member] of wrong) {
    const res = await patchEventSizes(attributes);
    assertError(t, res, 422, at(member));
  }
  const speakerWrong = await patchSizes('speaker-image-sizes', admin.token, 'speaker-image-size', '2', {
    'icon-size-width-height': 0,
  });
  assertError(t, speakerWrong, 422, at('icon-size-width-height'));
  assertError(t, await patchSizes('event-image-sizes', admin.token, 'event-image-size', '2', {}), 409, {
    pointer: '/data/id',
  });
  assertError(t, await patchSizes('event-image-sizes/2', admin.token, 'event-image-size', '2', {}), 404);
  const wrongType = await patchSizes('event-image-sizes', admin.token, 'speaker-image-size', '1', {});
  t.ok([409, 422].includes(wrongType.status), `a wrong type is refused (${wrongType.status})`);
  const malformed = await call(app, {
    method: 'PATCH',
    url: '/v1/event-image-sizes',
    token: admin.token,
    body: '{"data": {',
  });
  assertError(t, malformed, 400);
  t.strictSame(await app.sql`select * from image_sizes order by id`, before, 'nothing written');
});

const variantsOf = (attrs: Record<string, unknown>, keys: string[]) => keys.map((k) => attrs[k] as string);
const bytesOf = async (url: string) => (await app.inject({ url: new URL(url).pathname })).rawPayload;
async function checkSizes(t: Test, urls: string[], sizes: [number, number][]) {
  const files: Buffer[] = [];
  for (const [i, url] of urls.entries()) {
    const bytes = await bytesOf(url);
    const meta = await sharp(bytes).metadata();
    t.strictSame([meta.format, meta.width, meta.height], ['jpeg', ...sizes[i]!], `${url}: ${sizes[i]!.join('x')}`);
    files.push(bytes);
  }
  return files;
}
const EVENT_VARIANTS = ['large-image-url', 'thumbnail-image-url', 'icon-image-url'];
async function eventVariants(fastify: FastifyInstance, token: string, id: string, url: string) {
  const path = `/v1/events/${id}`;
  const res = await call(fastify, {
    method: 'PATCH',
    url: path,
    token,
    body: { data: { type: 'event', id, attributes: { 'original-image-url': url } } },
  });
  if (res.status !== 200) throw new Error(`event image: ${res.status}`);
  const attrs = await until(`variants of ${url}`, async () => {
    const a = (await call(fastify, { url: path, token })).body.data.attributes;
    return a['large-image-url'] ? a : undefined;
  });
  return variantsOf(attrs, EVENT_VARIANTS);
}

t.test('event images: the variants take the sizes, the aspect and the quality of event-image-sizes', async (t) => {
  const id = await create(app, user.token, 'events', 'event', eventAttributes('Sized'));
  const picture = await makeImage('png', 1000, 400);
  const sizes = {
    'full-width': 600,
    'full-height': 150,
    'full-aspect': false,
    'thumbnail-width': 300,
    'thumbnail-height': 999,
    'thumbnail-aspect': true,
    'icon-width': 40,
    'icon-height': 40,
    'icon-aspect': false,
  };
  t.equal(
    (await patchEventSizes({ ...sizes, 'full-quality': 95, 'thumbnail-quality': 95, 'icon-quality': 95 })).status,
    200,
  );
  const fine = await checkSizes(
    t,
    await eventVariants(app, user.token, id, await uploadImage(app, user.token, picture, 'png')),
    [
      [600, 150],
      [300, 120],
      [40, 40],
    ],
  );
  t.equal((await patchEventSizes({ 'full-quality': 10, 'thumbnail-quality': 10, 'icon-quality': 10 })).status, 200);
  const coarse = await checkSizes(
    t,
    await eventVariants(app, user.token, id, await uploadImage(app, user.token, picture, 'png')),
    [
      [600, 150],
      [300, 120],
      [40, 40],
    ],
  );
  for (const [i, name] of EVENT_VARIANTS.entries())
    t.ok(
      coarse[i]!.length < fine[i]!.length,
      `${name}: quality 10 is smaller (${coarse[i]!.length} < ${fine[i]!.length})`,
    );
  // Cleared members fall back to the reference's defaults (1300x500, 500x200, 75x30; quality 80).
  t.equal(
    (
      await patchEventSizes({
        'full-width': null,
        'full-height': null,
        'thumbnail-width': null,
        'thumbnail-height': null,
        'icon-width': null,
        'icon-height': null,
        'full-quality': null,
      })
    ).status,
    200,
  );
  await checkSizes(t, await eventVariants(app, user.token, id, await uploadImage(app, user.token, picture, 'png')), [
    [1300, 500],
    [500, 200],
    [75, 30],
  ]);
  t.equal((await patchEventSizes(Object.fromEntries(Object.entries(EVENT_SEED).slice(1)))).status, 200);
});

t.test('speaker photos and avatars: the variants take speaker-image-sizes, the ratio kept', async (t) => {
  const speakerSizes = (attributes: Record<string, unknown>) =>
    patchSizes('speaker-image-sizes/2', admin.token, 'speaker-image-size', '2', attributes);
  const picture = await makeImage('png', 800, 400);
  const avatar = async () => {
    const url = await uploadImage(app, user.token, picture, 'png');
    const path = `/v1/users/${user.id}`;
    const res = await call(app, {
      method: 'PATCH',
      url: path,
      token: user.token,
      body: { data: { type: 'user', id: String(user.id), attributes: { 'avatar-url': url } } },
    });
    t.equal(res.status, 200);
    const attrs = await until('avatar variants', async () => {
      const a = (await call(app, { url: path, token: user.token })).body.data.attributes;
      return a['icon-image-url'] ? a : undefined;
    });
    return variantsOf(attrs, ['thumbnail-image-url', 'small-image-url', 'icon-image-url']);
  };
  t.equal(
    (
      await speakerSizes({
        'thumbnail-size-width-height': 200,
        'small-size-width-height': 100,
        'icon-size-width-height': 20,
        'thumbnail-size-quality': 95,
      })
    ).status,
    200,
  );
  const fine = await checkSizes(t, await avatar(), [
    [200, 100],
    [100, 50],
    [20, 10],
  ]);
  t.equal((await speakerSizes({ 'thumbnail-size-quality': 5 })).status, 200);
  const coarse = await checkSizes(t, await avatar(), [
    [200, 100],
    [100, 50],
    [20, 10],
  ]);
  t.ok(coarse[0]!.length < fine[0]!.length, 'the thumbnail at quality 5 is smaller');
  t.equal((await speakerSizes(Object.fromEntries(Object.entries(SPEAKER_SEED).slice(1)))).status, 200);
});

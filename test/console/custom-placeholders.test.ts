/**
 * Custom placeholders (`/v1/custom-placeholders`): administrators write them, everyone reads them; each names at
 * most one sub-topic, which links back to it; the image job makes their large, thumbnail and icon variants at the
 * event image sizes, as for an event image.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { assertDocument, assertError, buildTestApp, call, until } from '../helpers/app.js';
import { makeImage, uploadImage } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';

const dir = await mkdtemp(join(tmpdir(), 'oe-placeholders-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const app = (await buildTestApp(t, { ROLE: 'all', STORAGE_DIR: dir })).app;
const user = await seedUser(app);
const admin = await seedUser(app, { admin: true });

const post = async (path: string, type: string, attributes: Record<string, unknown>, relationships = {}) => {
  const res = await call(app, {
    method: 'POST',
    url: `/v1/${path}`,
    token: admin.token,
    body: { data: { type, attributes, relationships } },
  });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
};
const topic = await post('event-topics', 'event-topic', { name: 'Science' });
const subTopicOf = (name: string) =>
  post(
    'event-sub-topics',
    'event-sub-topic',
    { name },
    { 'event-topic': { data: { type: 'event-topic', id: topic } } },
  );
const robotics = await subTopicOf('Robotics');
const climbing = await subTopicOf('Climbing');
const link = (id: string) => ({ 'event-sub-topic': { data: { type: 'event-sub-topic', id } } });
const placeholderBody = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) => ({
  data: { type: 'custom-placeholder', attributes, relationships },
});
const VARIANTS = ['large-image-url', 'thumbnail-image-url', 'icon-image-url'];

let placeholder = '';
let image = '';

t.test('an administrator sets a sub-topic placeholder; its variants follow at the event image sizes', async (t) => {
  image = await uploadImage(app, admin.token, await makeImage('png', 2000, 800), 'png');
  const res = await call(app, {
    method: 'POST',
    url: '/v1/custom-placeholders',
    token: admin.token,
    body: placeholderBody(
      { name: 'Robots', 'original-image-url': image, copyright: 'CC-BY', origin: 'the lab' },
      link(robotics),
    ),
  });
  assertDocument(t, res, 201);
  placeholder = res.body.data.id;
  t.equal(res.headers.location, `/v1/custom-placeholders/${placeholder}`);
  t.strictSame(res.body.data.attributes, {
    name: 'Robots',
    'original-image-url': image,
    'large-image-url': null,
    'thumbnail-image-url': null,
    'icon-image-url': null,
    copyright: 'CC-BY',
    origin: 'the lab',
  });
  const attrs = await until('placeholder variants', async () => {
    const a = (await call(app, { url: `/v1/custom-placeholders/${placeholder}` })).body.data.attributes;
    return a['icon-image-url'] ? a : undefined;
  });
  const sizes = [
    [1300, 520],
    [500, 200],
    [75, 30],
  ];
  for (const [i, name] of VARIANTS.entries()) {
    const url = attrs[name] as string;
    t.match(url, new RegExp(`/static/media/images/custom-placeholders/${placeholder}/[0-9a-f]{16}/[a-z]+\\.jpg$`));
    const meta = await sharp((await app.inject({ url: new URL(url).pathname })).rawPayload).metadata();
    t.strictSame([meta.format, meta.width, meta.height], ['jpeg', ...sizes[i]!], `${name}: ${sizes[i]!.join('x')}`);
  }
});

t.test('everyone reads them, from the placeholder and from its sub-topic', async (t) => {
  for (const token of [undefined, user.token]) {
    const list = await call(app, { url: '/v1/custom-placeholders', token });
    assertDocument(t, list, 200);
    t.equal(list.body.meta.count, 1);
    t.equal(list.body.data[0].id, placeholder);
    const bySubTopic = await call(app, { url: `/v1/event-sub-topics/${robotics}/custom-placeholder`, token });
    assertDocument(t, bySubTopic, 200);
    t.equal(bySubTopic.body.data.id, placeholder, "the sub-topic's placeholder");
    const subTopic = await call(app, { url: `/v1/custom-placeholders/${placeholder}/event-sub-topic`, token });
    t.equal(subTopic.body.data.id, robotics, "the placeholder's sub-topic");
    const included = await call(app, { url: `/v1/event-sub-topics/${robotics}?include=custom-placeholder`, token });
    t.strictSame(included.body.data.relationships['custom-placeholder'].data, {
      type: 'custom-placeholder',
      id: placeholder,
    });
    t.equal(included.body.included[0].attributes.name, 'Robots');
  }
  const none = await call(app, { url: `/v1/event-sub-topics/${climbing}/custom-placeholder` });
  assertDocument(t, none, 200);
  t.equal(none.body.data, null, 'a sub-topic without one: null');
  assertError(t, await call(app, { url: '/v1/custom-placeholders/99999' }), 404);
});

t.test('only administrators write them', async (t) => {
  const body = placeholderBody({ name: 'Peaks', 'original-image-url': image }, link(climbing));
  assertError(t, await call(app, { method: 'POST', url: '/v1/custom-placeholders', body }), 401);
  assertError(t, await call(app, { method: 'POST', url: '/v1/custom-placeholders', token: user.token, body }), 403);
  const patch = { data: { type: 'custom-placeholder', id: placeholder, attributes: { name: 'Mine' } } };
  const path = `/v1/custom-placeholders/${placeholder}`;
  assertError(t, await call(app, { method: 'PATCH', url: path, token: user.token, body: patch }), 403);
  assertError(t, await call(app, { method: 'DELETE', url: path, token: user.token }), 403);
  const [row] = await app.sql`select name from custom_placeholders where id = ${placeholder}`;
  t.equal(row!.name, 'Robots', 'unchanged');
  t.equal((await app.sql`select count(*)::int as n from custom_placeholders`)[0]!.n, 1, 'none created');
});

t.test('bad input: a clear 4xx, nothing written', async (t) => {
  const before = await app.sql`select * from custom_placeholders order by id`;
  const at = (m: string) => ({ pointer: `/data/attributes/${m}` });
  const send = (body: unknown) =>
    call(app, { method: 'POST', url: '/v1/custom-placeholders', token: admin.token, body });
  assertError(t, await send(placeholderBody({ 'original-image-url': image })), 422, at('name'));
  assertError(t, await send(placeholderBody({ name: 'No image' })), 422, at('original-image-url'));
  assertError(
    t,
    await send(placeholderBody({ name: 'x', 'original-image-url': 'not a url' })),
    422,
    at('original-image-url'),
  );
  assertError(t, await send(placeholderBody({ name: '', 'original-image-url': image })), 422, at('name'));
  assertError(t, await send(placeholderBody({ name: 'n'.repeat(256), 'original-image-url': image })), 422, at('name'));
  assertError(
    t,
    await send(placeholderBody({ name: 'x', 'original-image-url': image, 'large-image-url': image })),
    422,
    at('large-image-url'),
  );
  assertError(
    t,
    await send(placeholderBody({ name: 'x', 'original-image-url': image, colour: 'red' })),
    422,
    at('colour'),
  );
  const taken = await send(placeholderBody({ name: 'Second', 'original-image-url': image }, link(robotics)));
  assertError(t, taken, 409, { pointer: '/data/relationships/event-sub-topic' });
  const missing = await send(placeholderBody({ name: 'Nowhere', 'original-image-url': image }, link('99999')));
  t.ok([404, 422].includes(missing.status), `an unknown sub-topic is refused (${missing.status})`);
  assertError(t, await send('{"data":'), 400);
  t.strictSame(await app.sql`select * from custom_placeholders order by id`, before, 'nothing written');
});

t.test('a new image clears the variants and makes new ones; delete removes the placeholder', async (t) => {
  const path = `/v1/custom-placeholders/${placeholder}`;
  const newer = await uploadImage(app, admin.token, await makeImage('jpeg', 400, 400), 'jpeg');
  const res = await call(app, {
    method: 'PATCH',
    url: path,
    token: admin.token,
    body: { data: { type: 'custom-placeholder', id: placeholder, attributes: { 'original-image-url': newer } } },
  });
  assertDocument(t, res, 200);
  t.strictSame(
    VARIANTS.map((k) => res.body.data.attributes[k]),
    [null, null, null],
    'cleared in the answer',
  );
  const attrs = await until('new variants', async () => {
    const a = (await call(app, { url: path })).body.data.attributes;
    return a['icon-image-url'] ? a : undefined;
  });
  const meta = await sharp(
    (await app.inject({ url: new URL(attrs['large-image-url']).pathname })).rawPayload,
  ).metadata();
  t.strictSame([meta.width, meta.height], [1300, 1300], 'the large variant of a square keeps its ratio');

  const deleted = await call(app, { method: 'DELETE', url: path, token: admin.token });
  assertDocument(t, deleted, 200);
  t.strictSame(deleted.body.meta, { message: 'Object successfully deleted' });
  assertError(t, await call(app, { url: path }), 404);
  const none = await call(app, { url: `/v1/event-sub-topics/${robotics}/custom-placeholder` });
  t.equal(none.body.data, null, 'the sub-topic has none any more');
});

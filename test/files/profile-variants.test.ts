/**
 * Profile image variants: a speaker's photo-url and a user's avatar-url get thumbnail, small and icon
 * JPEGs (widths from the speaker image sizes, 500/50/35 by default; the ratio kept, as the reference keeps it
 * for every size) made by the image-variants job; a user's original-image-url is a copy of avatar-url set at once.
 */
import sharp from 'sharp';
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, call, until } from '../helpers/app.js';
import { buildWorld, create, eventAttributes, rel } from '../helpers/events.js';
import { makeImage, uploadImage } from '../helpers/images.js';

const MEDIA = 'http://localhost:8080/static/media/';
const VARIANTS = ['thumbnail-image-url', 'small-image-url', 'icon-image-url'] as const;
type Sizes = [number, number][];
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const { app } = await buildTestApp(t, { ROLE: 'all' });
const world = await buildWorld(app);
const { cast } = world;
const speakerId = world.published.speaker;

const upload = async (token: string, width: number, height: number) =>
  uploadImage(app, token, await makeImage('png', width, height), 'png');

const variantsOf = (attrs: Record<string, unknown>) => VARIANTS.map((k) => attrs[k] as string | null);
const read = async (path: string, token: string) =>
  (await call(app, { url: path, token })).body.data.attributes as Record<string, unknown>;
/** The attributes once all three variants are set. */
const waitForVariants = (path: string, token: string) =>
  until(`variants of ${path}`, async () => {
    const attrs = await read(path, token);
    return variantsOf(attrs).every((u) => u) ? attrs : undefined;
  });
const jobCount = async (owner: string, id: string) =>
  (
    await app.sql`select count(*)::int as n from pgboss.job where name = 'image-variants' and data->>'owner' = ${owner} and data->>'id' = ${id}`
  )[0]!.n as number;

/** Names in `images/<owner>s/<id>/<16 hex>/`, all in one folder, each a JPEG of its size. */
async function checkVariants(
  t: Test,
  appUnder: FastifyInstance,
  owner: string,
  id: string,
  urls: (string | null)[],
  sizes: Sizes,
) {
  const folders = new Set<string>();
  for (const [i, url] of urls.entries()) {
    const name = VARIANTS[i]!.replace('-image-url', '');
    const match = new RegExp(`^${escapeRegExp(MEDIA)}(images/${owner}s/${id}/[0-9a-f]{16})/${name}\\.jpg$`).exec(
      url ?? '',
    );
    t.ok(match, `${VARIANTS[i]} ${url} is images/${owner}s/${id}/<hash>/${name}.jpg`);
    folders.add(match?.[1] ?? '');
    const res = await appUnder.inject({ url: new URL(url!).pathname });
    t.equal(res.statusCode, 200);
    t.equal(res.headers['content-type'], 'image/jpeg');
    const meta = await sharp(res.rawPayload).metadata();
    t.strictSame(
      [meta.format, meta.width, meta.height],
      ['jpeg', ...sizes[i]!],
      `${VARIANTS[i]}: JPEG ${sizes[i]!.join('x')}`,
    );
  }
  t.equal(folders.size, 1, 'one folder');
}

const patch = (path: string, token: string, type: string, id: string, attributes: Record<string, unknown>) =>
  call(app, { method: 'PATCH', url: path, token, body: { data: { type, id, attributes } } });
const setSpeakerSizes = async (attributes: Record<string, unknown>) => {
  const res = await patch('/v1/speaker-image-sizes/2', cast.admin.token, 'speaker-image-size', '2', attributes);
  if (res.status !== 200) throw new Error(`speaker image sizes: ${res.status} ${JSON.stringify(res.body)}`);
};

t.test('a speaker photo (PATCH by an organizer): thumbnail, small and icon at 500, 50 and 35 wide', async (t) => {
  const url = await upload(cast.organizer.token, 1000, 600);
  const path = `/v1/speakers/${speakerId}`;
  const res = await patch(path, cast.organizer.token, 'speaker', speakerId, { 'photo-url': url });
  t.equal(res.status, 200);
  t.equal(res.body.data.attributes['photo-url'], url);
  t.strictSame(variantsOf(res.body.data.attributes), [null, null, null], 'no variants in the answer');
  t.equal(await jobCount('speaker', speakerId), 1, 'one job sent');
  const attrs = await waitForVariants(path, cast.organizer.token);
  await checkVariants(t, app, 'speaker', speakerId, variantsOf(attrs), [
    [500, 300],
    [50, 30],
    [35, 21],
  ]);
  t.equal(attrs['photo-url'], url, 'the photo URL is kept');
  const [row] =
    await app.sql`select photo_url, thumbnail_image_url, small_image_url, icon_image_url from speakers where id = ${speakerId}`;
  t.strictSame(Object.values({ ...row }), [url, ...variantsOf(attrs)], 'stored in the table');
});

t.test('a speaker created with a photo gets its variants too', async (t) => {
  const url = await upload(cast.owner.token, 400, 800);
  const id = await create(
    app,
    cast.owner.token,
    'speakers',
    'speaker',
    { name: 'Grace', 'photo-url': url },
    { event: rel('event', world.published.event) },
  );
  t.equal(await jobCount('speaker', id), 1);
  const attrs = await waitForVariants(`/v1/speakers/${id}`, cast.owner.token);
  await checkVariants(t, app, 'speaker', id, variantsOf(attrs), [
    [500, 1000],
    [50, 100],
    [35, 70],
  ]);
});

t.test('a user avatar (PATCH own user): original-image-url at once, the variants later', async (t) => {
  const me = cast.other;
  const url = await upload(me.token, 800, 800);
  const path = `/v1/users/${me.id}`;
  const res = await patch(path, me.token, 'user', me.id, { 'avatar-url': url });
  t.equal(res.status, 200);
  t.equal(res.body.data.attributes['avatar-url'], url);
  t.equal(res.body.data.attributes['original-image-url'], url, 'original-image-url is the avatar, in the PATCH answer');
  t.strictSame(variantsOf(res.body.data.attributes), [null, null, null]);
  const [row] = await app.sql`select avatar_url, original_image_url from users where id = ${me.id}`;
  t.strictSame({ ...row }, { avatar_url: url, original_image_url: url }, 'both stored by the PATCH');
  const attrs = await waitForVariants(path, me.token);
  await checkVariants(t, app, 'user', me.id, variantsOf(attrs), [
    [500, 500],
    [50, 50],
    [35, 35],
  ]);
  t.equal(attrs['original-image-url'], url);

  // A new avatar clears the variants and the copy follows it.
  const url2 = await upload(me.token, 300, 150);
  const changed = await patch(path, me.token, 'user', me.id, { 'avatar-url': url2 });
  t.equal(changed.status, 200);
  t.equal(changed.body.data.attributes['original-image-url'], url2);
  t.strictSame(variantsOf(changed.body.data.attributes), [null, null, null], 'the old variants are cleared');
  const next = await waitForVariants(path, me.token);
  await checkVariants(t, app, 'user', me.id, variantsOf(next), [
    [500, 250],
    [50, 25],
    [35, 18],
  ]);
  t.notSame(variantsOf(next), variantsOf(attrs), 'new URLs for the new avatar');

  // No avatar: no copy, no variants, no job.
  const jobs = await jobCount('user', me.id);
  const cleared = await patch(path, me.token, 'user', me.id, { 'avatar-url': null });
  t.equal(cleared.status, 200);
  t.strictSame(
    [
      cleared.body.data.attributes['avatar-url'],
      cleared.body.data.attributes['original-image-url'],
      ...variantsOf(cleared.body.data.attributes),
    ],
    [null, null, null, null, null],
  );
  t.equal(await jobCount('user', me.id), jobs, 'no job');
  const [after] =
    await app.sql`select avatar_url, original_image_url, thumbnail_image_url, small_image_url, icon_image_url from users where id = ${me.id}`;
  t.strictSame(Object.values({ ...after }), [null, null, null, null, null]);
});

t.test('a user registered with an avatar: the copy at once, the variants later', async (t) => {
  const url = await upload(cast.owner.token, 640, 480);
  const res = await call(app, {
    method: 'POST',
    url: '/v1/users',
    body: {
      data: {
        type: 'user',
        attributes: { email: 'painted@example.com', password: 'correct horse battery', 'avatar-url': url },
      },
    },
  });
  t.equal(res.status, 201);
  const id = res.body.data.id as string;
  t.equal(res.body.data.attributes['original-image-url'], url);
  t.strictSame(variantsOf(res.body.data.attributes), [null, null, null]);
  t.equal(await jobCount('user', id), 1);
  const attrs = await waitForVariants(`/v1/users/${id}`, cast.admin.token);
  await checkVariants(t, app, 'user', id, variantsOf(attrs), [
    [500, 375],
    [50, 38],
    [35, 26],
  ]);
});

t.test('the speaker image sizes are respected by speaker photos and avatars alike, the ratio kept', async (t) => {
  await setSpeakerSizes({
    'thumbnail-size-width-height': 120,
    'small-size-width-height': 64,
    'icon-size-width-height': 20,
  });
  const path = `/v1/speakers/${speakerId}`;
  const url = await upload(cast.organizer.token, 1000, 400);
  t.equal((await patch(path, cast.organizer.token, 'speaker', speakerId, { 'photo-url': url })).status, 200);
  const attrs = await waitForVariants(path, cast.organizer.token);
  await checkVariants(t, app, 'speaker', speakerId, variantsOf(attrs), [
    [120, 48],
    [64, 26],
    [20, 8],
  ]);

  const me = cast.coorganizer;
  const avatar = await upload(me.token, 1000, 400);
  t.equal((await patch(`/v1/users/${me.id}`, me.token, 'user', me.id, { 'avatar-url': avatar })).status, 200);
  const mine = await waitForVariants(`/v1/users/${me.id}`, me.token);
  await checkVariants(t, app, 'user', me.id, variantsOf(mine), [
    [120, 48],
    [64, 26],
    [20, 8],
  ]);

  // The event sizes are not the profile ones: an event image made meanwhile.
  const eventImage = await upload(cast.owner.token, 1000, 400);
  const event = await create(app, cast.owner.token, 'events', 'event', {
    ...eventAttributes('Sized'),
    'original-image-url': eventImage,
  });
  const ev = await until('event variants', async () => {
    const a = await read(`/v1/events/${event}`, cast.owner.token);
    return a['icon-image-url'] ? a : undefined;
  });
  const icon = await app.inject({ url: new URL(ev['icon-image-url'] as string).pathname });
  const meta = await sharp(icon.rawPayload).metadata();
  t.strictSame(
    [meta.width, meta.height],
    [75, 30],
    'the event icon follows the event image sizes, not the speaker ones',
  );
});

/**
 * POST /v1/upload/image with bad input: every refusal is a JSON:API error document with the right
 * status and source, and nothing is stored (the storage folder stays empty, the bucket too).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { dataUri, makeImage } from '../helpers/images.js';
import { startS3, useS3 } from '../helpers/s3.js';
import { expectError, seedUser, type ErrorExpectation } from '../helpers/users.js';

const storageDir = await mkdtemp(join(tmpdir(), 'oe-image-bad-'));
t.teardown(() => rm(storageDir, { recursive: true, force: true }));
const { app } = await buildTestApp(t, { STORAGE_DIR: storageDir, IMAGE_MAX_BYTES: '2000', IMAGE_MAX_PIXELS: '1000' });
const user = await seedUser(app);
const URL_ = '/v1/upload/image';

/** Everything under the storage folder, folders included: nothing at all may appear. */
const stored = () => readdir(storageDir, { recursive: true });

/** The storage folder is still empty; when it is not (a defect), it is emptied so the next case starts clean. */
async function expectNothingStored(t: Test, what = 'nothing stored') {
  const found = await stored();
  t.strictSame(found, [], what);
  for (const entry of await readdir(storageDir)) await rm(join(storageDir, entry), { recursive: true, force: true });
}

/** As `user` unless `token` says otherwise (`null`: anonymous). */
const post = (
  body: unknown,
  { token = user.token as string | null, headers = {} as Record<string, string>, query = '' } = {},
) =>
  call(app, {
    method: 'POST',
    url: `${URL_}${query}`,
    token: token ?? undefined,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
  });

const [png, jpeg, gif, webp] = await Promise.all([
  makeImage('png', 8, 8),
  makeImage('jpeg', 8, 8),
  makeImage('gif', 8, 8),
  makeImage('webp', 8, 8),
]);
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
const pngB64 = b64(png);

/** A real 1x1 24-bit BMP (a format sharp cannot read and the route must not accept). */
const bmp = Buffer.alloc(58);
bmp.write('BM', 0, 'latin1');
bmp.writeUInt32LE(58, 2);
bmp.writeUInt32LE(54, 10);
bmp.writeUInt32LE(40, 14);
bmp.writeInt32LE(1, 18);
bmp.writeInt32LE(1, 22);
bmp.writeUInt16LE(1, 26);
bmp.writeUInt16LE(24, 28);
bmp.writeUInt32LE(4, 34);
bmp.set([0x00, 0x00, 0xff], 54);
const svg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const random = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 73 + 19) % 256));

const NOT_URI = 'data must be a data URI of the form data:image/<type>;base64,<data>';
const at = (detail: string | RegExp): ErrorExpectation => ({ pointer: '/data', detail });

const CASES: [what: string, body: unknown, status: number, expected: ErrorExpectation][] = [
  ['missing data', {}, 422, { pointer: '/data', detail: '/data is required' }],
  ['data is a number', { data: 42 }, 422, { pointer: '/data', detail: /string/ }],
  ['data is an object', { data: { uri: dataUri(png, 'png') } }, 422, { pointer: '/data', detail: /string/ }],
  ['data is null', { data: null }, 422, { pointer: '/data', detail: /string/ }],
  [
    'extra member',
    { data: dataUri(png, 'png'), name: 'x.png' },
    422,
    { pointer: '/name', detail: '/name is not allowed here' },
  ],
  ['the body is an array', [dataUri(png, 'png')], 422, { pointer: '' }],
  ['empty string', { data: '' }, 422, { pointer: '/data' }],
  ['not a data URI', { data: 'https://example.com/a.png' }, 422, at(NOT_URI)],
  ['bare base64', { data: pngB64 }, 422, at(NOT_URI)],
  ['data:text/plain', { data: `data:text/plain;base64,${b64('hello world')}` }, 422, at(NOT_URI)],
  [
    'data:image/svg+xml with a script',
    { data: `data:image/svg+xml;base64,${b64(svg)}` },
    422,
    at('image/svg+xml is not accepted; send png, jpeg, gif or webp'),
  ],
  [
    'data:image/bmp',
    { data: `data:image/bmp;base64,${b64(bmp)}` },
    422,
    at('image/bmp is not accepted; send png, jpeg, gif or webp'),
  ],
  ['missing ;base64', { data: `data:image/png,${pngB64}` }, 422, at(NOT_URI)],
  [
    'percent-encoded instead of base64',
    { data: `data:image/png,${encodeURIComponent(png.toString('latin1'))}` },
    422,
    at(NOT_URI),
  ],
  [
    'bad base64 characters',
    { data: `data:image/png;base64,${pngB64.slice(0, 40)}*&^%$#!${pngB64.slice(47)}` },
    422,
    at('data is not valid base64'),
  ],
  [
    'truncated base64 (length not a multiple of 4)',
    { data: `data:image/png;base64,${pngB64.slice(0, 101)}` },
    422,
    at('data is not valid base64'),
  ],
  ['empty base64', { data: 'data:image/png;base64,' }, 422, at('data is not a png image')],
  [
    'truncated image (valid base64 of half a png)',
    { data: dataUri(png.subarray(0, Math.floor(png.length / 2)), 'png') },
    422,
    at('data is not a readable png image'),
  ],
  ['png bytes declared jpeg', { data: dataUri(png, 'jpeg') }, 422, at('data is not a jpeg image')],
  ['png bytes declared jpg', { data: dataUri(png, 'jpg') }, 422, at('data is not a jpg image')],
  ['jpeg bytes declared png', { data: dataUri(jpeg, 'png') }, 422, at('data is not a png image')],
  ['random bytes declared png', { data: dataUri(random, 'png') }, 422, at('data is not a png image')],
  [
    'text declared gif',
    { data: dataUri(Buffer.from('GIF is a nice format, is it not?'), 'gif') },
    422,
    at('data is not a gif image'),
  ],
  [
    'a PNG signature followed by garbage',
    { data: dataUri(Buffer.concat([PNG_SIGNATURE, random]), 'png') },
    422,
    at('data is not a readable png image'),
  ],
  ['a gif declared webp', { data: dataUri(gif, 'webp') }, 422, at('data is not a webp image')],
  ['a webp declared gif', { data: dataUri(webp, 'gif') }, 422, at('data is not a gif image')],
];

t.test('every bad body is refused with an error document and nothing is stored', async (t) => {
  await expectNothingStored(t, 'the storage folder starts empty');
  for (const [what, body, status, expected] of CASES) {
    await t.test(what, async (t) => {
      expectError(t, await post(body), status, expected);
      await expectNothingStored(t, 'nothing stored');
    });
  }
});

t.test('too large: decoded bytes beyond IMAGE_MAX_BYTES and a body far beyond the limit are 413', async (t) => {
  const big = await makeImage('png', 40, 40);
  t.ok(big.length > 2000 && big.length < 4000, `a real png of ${big.length} bytes`);
  expectError(t, await post({ data: dataUri(big, 'png') }), 413, {
    detail: 'The image is larger than the limit of 2000 bytes',
  });
  await expectNothingStored(t, 'nothing stored (decoded too large)');

  const huge = { data: `data:image/png;base64,${'A'.repeat(200_000)}` };
  const res = await post(huge);
  expectError(t, res, 413);
  t.equal(res.body.errors[0].title, 'Payload Too Large', 'title');
  await expectNothingStored(t, 'nothing stored (body too large)');
});

t.test('more pixels than IMAGE_MAX_PIXELS is 422', async (t) => {
  for (const format of ['jpeg', 'webp'] as const) {
    const image = await makeImage(format, 100, 100);
    t.ok(image.length < 2000, `a ${format} of 100x100 under the byte limit (${image.length} bytes)`);
    expectError(t, await post({ data: dataUri(image, format) }), 422, at('The image has more than 1000 pixels'));
    await expectNothingStored(t, `${format}: nothing stored`);
  }
});

t.test('malformed JSON is 400, a text/plain body is 415', async (t) => {
  const malformed = await post('{"data": "data:image/png;base64,', { headers: { 'content-type': 'application/json' } });
  expectError(t, malformed, 400);
  t.equal(malformed.body.errors[0].title, 'Malformed JSON', 'title');
  expectError(t, await post('{"data": ', { headers: { 'content-type': JSONAPI } }), 400);
  expectError(
    t,
    await post(JSON.stringify({ data: dataUri(png, 'png') }), { headers: { 'content-type': 'text/plain' } }),
    415,
  );
  expectError(
    t,
    await post(`data=${encodeURIComponent(dataUri(png, 'png'))}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    415,
  );
  await expectNothingStored(t, 'nothing stored');
});

t.test('anonymous is 401 before the body is looked at; an invalid token is 401', async (t) => {
  const valid = { data: dataUri(png, 'png') };
  const anonymous: [string, unknown, Record<string, string>][] = [
    ['a valid body', valid, {}],
    ['a malformed body', '{"data": ', {}],
    ['a body far beyond the limit', { data: `data:image/png;base64,${'A'.repeat(200_000)}` }, {}],
    ['a text/plain body', JSON.stringify(valid), { 'content-type': 'text/plain' }],
    ['a bad data URI', { data: 'nope' }, {}],
  ];
  for (const [what, body, headers] of anonymous) {
    const res = await post(body, { token: null, headers });
    expectError(t, res, 401, { detail: 'Authentication is required' });
    t.equal(res.headers['www-authenticate'], 'JWT', `anonymous with ${what}: WWW-Authenticate`);
  }
  expectError(t, await post(valid, { token: 'not.a.token' }), 401, { detail: 'Invalid token' });
  expectError(t, await post(valid, { token: `${user.token.slice(0, -4)}AAAA` }), 401, { detail: 'Invalid token' });
  expectError(t, await post(valid, { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401);
  await expectNothingStored(t, 'nothing stored');
});

t.test('an unknown query parameter is 400 naming it', async (t) => {
  expectError(t, await post({ data: dataUri(png, 'png') }, { query: '?forceLocal=true' }), 400, {
    parameter: 'forceLocal',
  });
  expectError(t, await post({ data: dataUri(png, 'png') }, { query: '?force_local=true&size=2' }), 400, {
    parameter: 'size',
  });
  await expectNothingStored(t, 'nothing stored');
});

t.test('S3 down: 503 and nothing stored anywhere; back up: stored again', async (t) => {
  const peer = await startS3(t, 'image-bad-input');
  await peer.client.makeBucket(peer.bucket, peer.region);
  await useS3(app, peer);
  await peer.stop();
  const res = await post({ data: dataUri(png, 'png') });
  t.equal(res.status, 503, 'status 503');
  t.strictSame(res.body, {
    errors: [
      {
        status: '503',
        title: 'Service Unavailable',
        detail: 'The file storage is not available at the moment; try again later',
      },
    ],
    jsonapi: { version: '1.0' },
  });
  await expectNothingStored(t, 'nothing stored locally');
  await peer.start();
  t.strictSame(await peer.client.listObjectsV2(peer.bucket, '', true).toArray(), [], 'nothing in the bucket');

  const again = await post({ data: dataUri(png, 'png') });
  t.equal(again.status, 200, 'S3 back: 200');
  const objects = await peer.client.listObjectsV2(peer.bucket, '', true).toArray();
  t.strictSame(
    objects.map((o: { name?: string; size?: number }) => [o.name, o.size]),
    [[new URL(again.body.url).pathname.slice(`/${peer.bucket}/`.length), png.length]],
    'S3 back: the object in the bucket',
  );
  await expectNothingStored(t, 'still nothing stored locally');
});

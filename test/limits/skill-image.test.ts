/**
 * The assistant's skill images (POST /cms/createSkill.json) obey IMAGE_MAX_PIXELS and IMAGE_MAX_BYTES
 * like POST /v1/upload/image (test/files/bad-input-image-upload.test.ts): an image of exactly the
 * pixel limit is taken; a decompression bomb (few bytes, many pixels) is 422 and a file over the byte
 * limit 413, both in the assistant's format, and neither writes or commits anything.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { multipart } from '../helpers/images.js';
import { seedUser } from '../helpers/users.js';

const MAX_PIXELS = 1_000_000;
const MAX_BYTES = 200_000;
const base = await mkdtemp(join(tmpdir(), 'oe-skill-image-'));
t.teardown(() => rm(base, { recursive: true, force: true }));
const repo = join(base, 'repo');
const { app } = await buildTestApp(t, {
  SKILL_REPO_DIR: repo,
  IMAGE_MAX_PIXELS: String(MAX_PIXELS),
  IMAGE_MAX_BYTES: String(MAX_BYTES),
});
const user = await seedUser(app);

const commits = () => Number(execFileSync('git', ['rev-list', '--all', '--count'], { cwd: repo }).toString().trim());
/** A plain white PNG: a few kilobytes however many pixels it has. */
const blank = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();

async function createSkill(image: Buffer, imageName: string) {
  const form = multipart([['image', 'image.png', image]], {
    image_name: imageName,
    group: 'Limits',
    skill: imageName.replace(/\.jpg$/, ''),
  });
  const res = await app.inject({
    method: 'POST',
    url: '/cms/createSkill.json',
    payload: form.payload,
    headers: { ...form.headers, authorization: `JWT ${user.token}` },
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
}

t.test('an image of exactly IMAGE_MAX_PIXELS is taken', async (t) => {
  const before = commits();
  const res = await createSkill(await blank(1000, 1000), 'exact.jpg');
  t.equal(res.status, 200);
  t.equal(res.body.accepted, true, JSON.stringify(res.body));
  t.equal(commits(), before + 1, 'committed');
});

t.test('a decompression bomb (25 million pixels in a few kilobytes) is 422 and writes nothing', async (t) => {
  const bomb = await blank(5000, 5000);
  t.ok(bomb.length < MAX_BYTES, `${bomb.length} bytes: within the byte limit`);
  const before = commits();
  const res = await createSkill(bomb, 'bomb.jpg');
  t.equal(res.status, 422);
  t.strictSame(res.body, { accepted: false, message: 'The image could not be read' });
  t.equal(commits(), before, 'no commit');
});

t.test('a file over IMAGE_MAX_BYTES is 413 and writes nothing', async (t) => {
  const before = commits();
  const res = await createSkill(Buffer.alloc(MAX_BYTES + 1, 7), 'huge.jpg');
  t.equal(res.status, 413);
  t.match(res.headers['content-type'], /^application\/json/);
  t.strictSame(Object.keys(res.body).sort(), ['accepted', 'message']);
  t.equal(res.body.accepted, false);
  t.equal(commits(), before, 'no commit');
});

/**
 * The resize helper of the image variants: JPEG out whatever comes in, the width exact and the height
 * from the original ratio when the aspect is kept (upscaling too), exactly width x height otherwise,
 * transparency on white, EXIF orientation applied, and images over the pixel limit refused from their
 * header, before any decoding.
 */
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import t from 'tap';
import { resize } from '../../src/images/resize.js';
import { makeImage, type ImageFormat } from '../helpers/images.js';

const LIMIT = 40_000_000;
const metaOf = async (bytes: Buffer) => {
  const { format, width, height, channels, hasAlpha } = await sharp(bytes).metadata();
  return { format, width, height, channels, hasAlpha };
};
const jpeg = (width: number, height: number) => ({ format: 'jpeg', width, height, channels: 3, hasAlpha: false });

/** A PNG whose IHDR claims another size (CRC fixed, so decoders read the header as valid). */
function withClaimedSize(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  // signature (8) + length (4) + 'IHDR' (4), then width and height, then the rest of IHDR; CRC over type + data.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)) >>> 0, 29);
  return out;
}

t.test('keepAspect true: the width exact, the height from the ratio, JPEG out of every input format', async (t) => {
  const wide = await makeImage('png', 2000, 1000);
  t.strictSame(
    await metaOf(await resize(wide, { width: 1300, height: 500, keepAspect: true, quality: 80 }, LIMIT)),
    jpeg(1300, 650),
    '2000x1000 -> 1300x650',
  );
  t.strictSame(
    await metaOf(await resize(wide, { width: 500, height: 200, keepAspect: true, quality: 80 }, LIMIT)),
    jpeg(500, 250),
    '2000x1000 -> 500x250',
  );
  t.strictSame(
    await metaOf(await resize(wide, { width: 75, height: 30, keepAspect: true, quality: 80 }, LIMIT)),
    jpeg(75, 38),
    '2000x1000 -> 75x38 (37.5 rounded)',
  );
  const small = await makeImage('png', 100, 50);
  t.strictSame(
    await metaOf(await resize(small, { width: 500, height: 10, keepAspect: true, quality: 80 }, LIMIT)),
    jpeg(500, 250),
    'upscaled: 100x50 -> 500x250',
  );
  const tall = await makeImage('png', 300, 900);
  t.strictSame(
    await metaOf(await resize(tall, { width: 100, height: 100, keepAspect: true, quality: 80 }, LIMIT)),
    jpeg(100, 300),
    'portrait 300x900 -> 100x300',
  );
  for (const format of ['png', 'jpeg', 'gif', 'webp'] as ImageFormat[]) {
    const out = await resize(
      await makeImage(format, 400, 100),
      { width: 200, height: 200, keepAspect: true, quality: 80 },
      LIMIT,
    );
    t.strictSame(await metaOf(out), jpeg(200, 50), `${format} in -> 200x50 JPEG out`);
    t.strictSame([...out.subarray(0, 3)], [0xff, 0xd8, 0xff], `${format}: the bytes start with the JPEG signature`);
  }
});

t.test('keepAspect false: exactly width x height, whatever the ratio', async (t) => {
  const wide = await makeImage('png', 2000, 1000);
  t.strictSame(
    await metaOf(await resize(wide, { width: 1300, height: 500, keepAspect: false, quality: 80 }, LIMIT)),
    jpeg(1300, 500),
  );
  t.strictSame(
    await metaOf(await resize(wide, { width: 75, height: 30, keepAspect: false, quality: 80 }, LIMIT)),
    jpeg(75, 30),
  );
  t.strictSame(
    await metaOf(await resize(wide, { width: 35, height: 35, keepAspect: false, quality: 80 }, LIMIT)),
    jpeg(35, 35),
    'square',
  );
  const small = await makeImage('jpeg', 100, 50);
  t.strictSame(
    await metaOf(await resize(small, { width: 300, height: 400, keepAspect: false, quality: 80 }, LIMIT)),
    jpeg(300, 400),
    'upscaled and stretched',
  );
  // Stretching, not cropping: the gradient's corners stay where they were.
  const out = await sharp(await resize(small, { width: 300, height: 400, keepAspect: false, quality: 80 }, LIMIT))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...out.data.subarray((y * 300 + x) * 3, (y * 300 + x) * 3 + 3)];
  t.ok(at(0, 0)[0]! < 40 && at(0, 0)[1]! < 40, 'top left is the dark corner');
  t.ok(at(299, 399)[0]! > 200 && at(299, 399)[1]! > 200, 'bottom right is the bright corner: nothing cut off');
});

t.test('transparency is flattened onto white', async (t) => {
  const transparent = await sharp({
    create: { width: 40, height: 20, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
  t.equal((await sharp(transparent).metadata()).hasAlpha, true, 'the input has an alpha channel');
  const out = await resize(transparent, { width: 20, height: 10, keepAspect: true, quality: 80 }, LIMIT);
  t.strictSame(await metaOf(out), jpeg(20, 10));
  const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
  t.ok(
    [...data].every((v) => v >= 250),
    'every pixel is white (a fully transparent red is not red)',
  );

  const half = await sharp({
    create: { width: 10, height: 10, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
  })
    .webp({ lossless: true })
    .toBuffer();
  const grey = await sharp(await resize(half, { width: 10, height: 10, keepAspect: false, quality: 80 }, LIMIT))
    .raw()
    .toBuffer();
  t.ok(
    [...grey].every((v) => v > 110 && v < 145),
    'half transparent black on white is mid grey',
  );
});

t.test('EXIF orientation is applied before resizing', async (t) => {
  // Stored 200x100, displayed rotated by 90 degrees: 100x200.
  const rotated = await sharp(await makeImage('jpeg', 200, 100))
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
  t.equal((await sharp(rotated).metadata()).orientation, 6);
  const out = await resize(rotated, { width: 50, height: 50, keepAspect: true, quality: 80 }, LIMIT);
  t.strictSame(await metaOf(out), jpeg(50, 100), 'the displayed ratio is kept');
  t.equal((await sharp(out).metadata()).orientation, undefined, 'no orientation left to apply twice');
});

t.test('more pixels than the limit: refused from the header, before decoding', async (t) => {
  // 25 million pixels of one colour: a small file that would take 75 MB to decode.
  const bomb = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: '#336699' } })
    .png({ compressionLevel: 9 })
    .toBuffer();
  t.ok(bomb.length < 1_000_000, `the file is small (${bomb.length} bytes)`);
  await t.rejects(resize(bomb, { width: 100, height: 100, keepAspect: true, quality: 80 }, 1_000_000), /pixel limit/);
  await t.rejects(
    resize(bomb, { width: 100, height: 100, keepAspect: false, quality: 80 }, 1_000_000),
    /pixel limit/,
    'also when the aspect is not kept',
  );
  await t.rejects(
    resize(bomb, { width: 100, height: 100, keepAspect: true, quality: 80 }, 24_999_999),
    /pixel limit/,
    'one pixel over the limit',
  );
  t.strictSame(
    await metaOf(await resize(bomb, { width: 100, height: 100, keepAspect: true, quality: 80 }, 25_000_000)),
    jpeg(100, 100),
    'exactly at the limit: resized',
  );

  // A tiny PNG whose header claims 100000 x 100000: refused by its claim, not by its real content
  // (which could not be decoded to that size), so the limit is checked from the header, before decoding.
  const liar = withClaimedSize(await makeImage('png', 8, 8), 100_000, 100_000);
  t.strictSame(
    (await sharp(liar, { limitInputPixels: false }).metadata()).width,
    100_000,
    'the header claims 100000 pixels wide',
  );
  await t.rejects(
    resize(liar, { width: 100, height: 100, keepAspect: true, quality: 80 }, LIMIT),
    /pixel limit/,
    'the claimed 10 billion pixels are refused',
  );
  await t.rejects(resize(liar, { width: 100, height: 100, keepAspect: false, quality: 80 }, 1_000_000), /pixel limit/);
});

t.test('bytes that are not an image are refused', async (t) => {
  await t.rejects(
    resize(
      Buffer.from('just some text, not an image'),
      { width: 10, height: 10, keepAspect: true, quality: 80 },
      LIMIT,
    ),
  );
  const png = await makeImage('png', 64, 48);
  await t.rejects(
    resize(png.subarray(0, 40), { width: 10, height: 10, keepAspect: true, quality: 80 }, LIMIT),
    'a truncated PNG',
  );
});

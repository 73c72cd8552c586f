import { loadSharp } from './sharp.js';

export interface VariantSize {
  width: number;
  height: number;
  /** true: the height follows from the width and the original ratio; false: exactly width x height. */
  keepAspect: boolean;
}

/**
 * One variant of an image as JPEG (quality 80, transparency on white, EXIF orientation applied).
 * Images with more than `maxPixels` pixels are refused before they are decoded.
 */
export async function resize(
  input: Buffer,
  { width, height, keepAspect }: VariantSize,
  maxPixels: number,
): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(input, { limitInputPixels: maxPixels })
    .rotate()
    .resize(keepAspect ? { width } : { width, height, fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
}

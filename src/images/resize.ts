import { loadSharp } from './sharp.js';

export interface VariantSize {
  width: number;
  height: number;
  /** true: the height follows from the width and the original ratio; false: exactly width x height. */
  keepAspect: boolean;
  /** JPEG quality, 1 to 100. */
  quality: number;
}

/**
 * One variant of an image as JPEG at the given quality (transparency on white, EXIF orientation applied).
 * Images with more than `maxPixels` pixels are refused before they are decoded.
 */
export async function resize(
  input: Buffer,
  { width, height, keepAspect, quality }: VariantSize,
  maxPixels: number,
): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(input, { limitInputPixels: maxPixels })
    .rotate()
    .resize(keepAspect ? { width } : { width, height, fit: 'fill' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * The members of the two image-size records (open-event-server app/api/schema/image_sizes.py), bounded: a side of
 * 1 to 4096 pixels (a variant of that size is at most 16 megapixels in memory), a JPEG quality of 1 to 100.
 * null clears a member: the image jobs then use the reference's default (src/images/sizes.ts).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { imageSizes } from '../../../db/schema/index.js';
import type { ImageSizeType } from '../../images/sizes.js';

export const MAX_SIDE = 4096;

const side = (description: string, fallback: number) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: MAX_SIDE }), Type.Null()], {
    description: `${description} in pixels, 1 to ${MAX_SIDE} (null: ${fallback})`,
  });
const quality = (description: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
    description: `JPEG quality of ${description}, 1 to 100 (null: 80)`,
  });
const aspect = (description: string) =>
  Type.Boolean({ description: `true: ${description} keeps the original's ratio (its height follows from the width)` });

const EVENT: Record<string, TSchema> = {
  'full-width': side('width of the large event image', 1300),
  'full-height': side('height of the large event image when its aspect is not kept', 500),
  'full-aspect': aspect('the large event image'),
  'full-quality': quality('the large event image'),
  'thumbnail-width': side('width of the event thumbnail', 500),
  'thumbnail-height': side('height of the event thumbnail when its aspect is not kept', 200),
  'thumbnail-aspect': aspect('the event thumbnail'),
  'thumbnail-quality': quality('the event thumbnail'),
  'icon-width': side('width of the event icon', 75),
  'icon-height': side('height of the event icon when its aspect is not kept', 30),
  'icon-aspect': aspect('the event icon'),
  'icon-quality': quality('the event icon'),
  'logo-width': side('width of the event logo (kept for the front end; logos are not resized)', 500),
  'logo-height': side('height of the event logo (kept for the front end; logos are not resized)', 200),
};

const SPEAKER: Record<string, TSchema> = {
  'thumbnail-size-width-height': side('width of speaker photo and avatar thumbnails (the ratio is kept)', 500),
  'thumbnail-size-quality': quality('speaker photo and avatar thumbnails'),
  'small-size-width-height': side('width of small speaker photos and avatars (the ratio is kept)', 50),
  'small-size-quality': quality('small speaker photos and avatars'),
  'icon-size-width-height': side('width of speaker photo and avatar icons (the ratio is kept)', 35),
  'icon-size-quality': quality('speaker photo and avatar icons'),
};

export interface ImageSizeKind {
  /** The JSON:API type and the collection path. */
  type: string;
  path: string;
  /** The image_sizes row. */
  row: ImageSizeType;
  name: string;
  what: string;
  attributes: Record<string, TSchema>;
}

export const KINDS: ImageSizeKind[] = [
  {
    type: 'event-image-size',
    path: 'event-image-sizes',
    row: 'event-image',
    name: 'EventImageSize',
    what: 'event images and custom placeholders (large, thumbnail and icon variants)',
    attributes: EVENT,
  },
  {
    type: 'speaker-image-size',
    path: 'speaker-image-sizes',
    row: 'speaker-image',
    name: 'SpeakerImageSize',
    what: 'speaker photos and user avatars (thumbnail, small and icon variants)',
    attributes: SPEAKER,
  },
];

/** Wire name -> column key of image_sizes: `full-width` -> `fullWidth`. */
export const columnOf = (wire: string) =>
  wire.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof typeof imageSizes.$inferSelect;

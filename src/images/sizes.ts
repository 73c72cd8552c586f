import { eq } from 'drizzle-orm';
import { imageSizes } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import type { VariantSize } from './resize.js';

export type ImageSizeType = 'event-image' | 'speaker-image';
type SizeRow = typeof imageSizes.$inferSelect;

/** The quality of a variant whose row names none (the reference's populate_db.py value). */
export const DEFAULT_QUALITY = 80;

/**
 * The reference's defaults where a size is unset (app/api/helpers/files.py, create_save_image_sizes): the row of
 * each type is seeded, and an administrator may clear a member, which then falls back to these.
 */
const EVENT_DEFAULTS = { full: [1300, 500], thumbnail: [500, 200], icon: [75, 30] } as const;
const SPEAKER_DEFAULTS = { thumbnailSize: 500, smallSize: 50, iconSize: 35 } as const;

const eventVariant = (row: SizeRow | undefined, name: keyof typeof EVENT_DEFAULTS): VariantSize => {
  const r = (row ?? {}) as Record<string, number | boolean | null | undefined>;
  return {
    width: (r[`${name}Width`] as number | null) ?? EVENT_DEFAULTS[name][0],
    height: (r[`${name}Height`] as number | null) ?? EVENT_DEFAULTS[name][1],
    keepAspect: Boolean(r[`${name}Aspect`]),
    quality: (r[`${name}Quality`] as number | null) ?? DEFAULT_QUALITY,
  };
};

/** Speaker photos and avatars are squares by width, their height following the original's ratio (as the reference). */
const speakerVariant = (row: SizeRow | undefined, name: keyof typeof SPEAKER_DEFAULTS): VariantSize => {
  const r = (row ?? {}) as Record<string, number | null | undefined>;
  const side = r[`${name}WidthHeight`] ?? SPEAKER_DEFAULTS[name];
  return { width: side, height: side, keepAspect: true, quality: r[`${name}Quality`] ?? DEFAULT_QUALITY };
};

/** Variant column key -> its size and quality, from the image_sizes row of the type. */
export type VariantSizes = Record<string, VariantSize>;

export function variantSizes(type: ImageSizeType, row: SizeRow | undefined): VariantSizes {
  if (type === 'event-image') {
    return {
      largeImageUrl: eventVariant(row, 'full'),
      thumbnailImageUrl: eventVariant(row, 'thumbnail'),
      iconImageUrl: eventVariant(row, 'icon'),
    };
  }
  return {
    thumbnailImageUrl: speakerVariant(row, 'thumbnailSize'),
    smallImageUrl: speakerVariant(row, 'smallSize'),
    iconImageUrl: speakerVariant(row, 'iconSize'),
  };
}

/** The variant sizes an image job of `type` uses now. */
export async function loadVariantSizes(db: Db, type: ImageSizeType): Promise<VariantSizes> {
  const [row] = await db.select().from(imageSizes).where(eq(imageSizes.type, type));
  return variantSizes(type, row);
}

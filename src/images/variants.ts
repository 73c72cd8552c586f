import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { customPlaceholders, events, speakers, users } from '../../db/schema/index.js';
import type { Hooks } from '../jsonapi/index.js';
import { safeFetch, type FetchLimits } from '../net/safe-fetch.js';
import { resize } from './resize.js';
import { type ImageSizeType, loadVariantSizes, variantSizes } from './sizes.js';

export const IMAGE_VARIANTS_QUEUE = 'image-variants';

export type ImageOwner = 'event' | 'speaker' | 'user' | 'placeholder';

export interface VariantJob {
  owner: ImageOwner;
  id: number;
  /** The image URL the variants are made from; a record that moved on to another URL is left alone. */
  url: string;
}

interface Target {
  table: PgTable;
  id: PgColumn;
  /** Column key of the URL clients set, and its column. */
  source: string;
  sourceColumn: PgColumn;
  /** Column key of a read-only copy of the source URL (a user's original-image-url). */
  mirror?: string;
  /** The image_sizes row whose sizes its variants take. */
  sizes: ImageSizeType;
  /** The variants' storage folder, under `images/` (the record's id follows). */
  folder: string;
}

const TARGETS: Record<ImageOwner, Target> = {
  event: {
    table: events,
    id: events.id,
    source: 'originalImageUrl',
    sourceColumn: events.originalImageUrl,
    sizes: 'event-image',
    folder: 'events',
  },
  speaker: {
    table: speakers,
    id: speakers.id,
    source: 'photoUrl',
    sourceColumn: speakers.photoUrl,
    sizes: 'speaker-image',
    folder: 'speakers',
  },
  user: {
    table: users,
    id: users.id,
    source: 'avatarUrl',
    sourceColumn: users.avatarUrl,
    mirror: 'originalImageUrl',
    sizes: 'speaker-image',
    folder: 'users',
  },
  // A sub-topic's placeholder image takes the event image's variants and sizes (the reference's custom_placeholders.py).
  placeholder: {
    table: customPlaceholders,
    id: customPlaceholders.id,
    source: 'originalImageUrl',
    sourceColumn: customPlaceholders.originalImageUrl,
    sizes: 'event-image',
    folder: 'custom-placeholders',
  },
};

/**
 * A resource's hooks plus those that keep its image variants in step with its image URL: a new or
 * changed URL clears the variants and sends the variants job in the same transaction; none clears them.
 */
export function withImageVariants(owner: ImageOwner, base: Hooks = {}): Hooks {
  const { source, mirror, sizes } = TARGETS[owner];
  const variantColumns = Object.keys(variantSizes(sizes, undefined));
  return {
    ...base,
    async beforeCreate(ctx, values, input) {
      await base.beforeCreate?.(ctx, values, input);
      if (mirror) values[mirror] = values[source] ?? null;
    },
    async afterCreate(ctx, row, input) {
      await base.afterCreate?.(ctx, row, input);
      const url = row[source];
      if (typeof url === 'string')
        await ctx.request.server.sendJob(ctx.db, IMAGE_VARIANTS_QUEUE, { owner, id: row.id, url });
    },
    async beforeUpdate(ctx, row, values, input) {
      await base.beforeUpdate?.(ctx, row, values, input);
      if (!(source in values) || values[source] === row[source]) return;
      for (const column of variantColumns) values[column] = null;
      if (mirror) values[mirror] = values[source];
      const url = values[source];
      if (typeof url === 'string')
        await ctx.request.server.sendJob(ctx.db, IMAGE_VARIANTS_QUEUE, { owner, id: row.id, url });
    },
  };
}

export interface VariantLimits {
  fetch: FetchLimits;
  maxPixels: number;
}

/**
 * The variants job: reads the image (from our own storage when the URL is ours, otherwise through the
 * SSRF-safe fetch), writes each variant as JPEG at the administrators' image sizes and quality next to it (same backend; the settings' one for remote
 * images), and fills the variant URLs only if the record still has that image. Keys follow from the
 * record and the URL, so a job that runs twice overwrites its own files. Any failure (not an image,
 * too many pixels, a refused URL) throws before the record is touched.
 */
export async function makeVariants(app: FastifyInstance, limits: VariantLimits, { owner, id, url }: VariantJob) {
  const target = TARGETS[owner];
  const still = and(eq(target.id, id), eq(target.sourceColumn, url));
  const [current] = await app.db.select({ id: target.id }).from(target.table).where(still);
  if (!current) return { skipped: 'the record no longer has this image' };
  const sizes = await loadVariantSizes(app.db, target.sizes);
  const located = await app.storage.locate(url);
  const original = located
    ? await located.backend.read(located.key, limits.fetch.maxBytes)
    : (await safeFetch(url, limits.fetch)).body;
  const backend = located?.backend ?? (await app.storage.select());
  const folder = `images/${target.folder}/${id}/${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
  const urls: Record<string, string> = {};
  const keys: string[] = [];
  for (const [column, size] of Object.entries(sizes)) {
    const key = `${folder}/${column.replace(/ImageUrl$/, '')}.jpg`;
    urls[column] = await backend.put(key, await resize(original, size, limits.maxPixels), 'image/jpeg');
    keys.push(key);
  }
  const updated = await app.db.update(target.table).set(urls).where(still).returning({ id: target.id });
  if (updated.length === 0) {
    await Promise.allSettled(keys.map((key) => backend.remove(key)));
    return { skipped: 'the record changed its image meanwhile' };
  }
  return { variants: urls };
}

import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { events, settings, speakers, users } from '../../db/schema/index.js';
import type { Hooks } from '../jsonapi/index.js';
import { safeFetch, type FetchLimits } from '../net/safe-fetch.js';
import { resize, type VariantSize } from './resize.js';

export const IMAGE_VARIANTS_QUEUE = 'image-variants';

type Settings = typeof settings.$inferSelect;
export type ImageOwner = 'event' | 'speaker' | 'user';

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
  /** Variant column key -> its size, from the settings. */
  variants: Sizes;
}

type Sizes = Record<string, (s: Settings) => VariantSize>;

const square = (size: (s: Settings) => number) => (s: Settings) => ({
  width: size(s),
  height: size(s),
  keepAspect: s.imageKeepAspect,
});
const profile: Sizes = {
  thumbnailImageUrl: square((s) => s.profileThumbnailSize),
  smallImageUrl: square((s) => s.profileSmallSize),
  iconImageUrl: square((s) => s.profileIconSize),
};

const TARGETS: Record<ImageOwner, Target> = {
  event: {
    table: events,
    id: events.id,
    source: 'originalImageUrl',
    sourceColumn: events.originalImageUrl,
    variants: {
      largeImageUrl: (s) => ({ width: s.largeImageWidth, height: s.largeImageHeight, keepAspect: s.imageKeepAspect }),
      thumbnailImageUrl: (s) => ({
        width: s.thumbnailImageWidth,
        height: s.thumbnailImageHeight,
        keepAspect: s.imageKeepAspect,
      }),
      iconImageUrl: (s) => ({ width: s.iconImageWidth, height: s.iconImageHeight, keepAspect: s.imageKeepAspect }),
    },
  },
  speaker: { table: speakers, id: speakers.id, source: 'photoUrl', sourceColumn: speakers.photoUrl, variants: profile },
  user: {
    table: users,
    id: users.id,
    source: 'avatarUrl',
    sourceColumn: users.avatarUrl,
    mirror: 'originalImageUrl',
    variants: profile,
  },
};

/**
 * A resource's hooks plus those that keep its image variants in step with its image URL: a new or
 * changed URL clears the variants and sends the variants job in the same transaction; none clears them.
 */
export function withImageVariants(owner: ImageOwner, base: Hooks = {}): Hooks {
  const { source, mirror, variants } = TARGETS[owner];
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
      for (const column of Object.keys(variants)) values[column] = null;
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
 * SSRF-safe fetch), writes each variant as JPEG next to it (same backend; the settings' one for remote
 * images), and fills the variant URLs only if the record still has that image. Keys follow from the
 * record and the URL, so a job that runs twice overwrites its own files. Any failure (not an image,
 * too many pixels, a refused URL) throws before the record is touched.
 */
export async function makeVariants(app: FastifyInstance, limits: VariantLimits, { owner, id, url }: VariantJob) {
  const target = TARGETS[owner];
  const still = and(eq(target.id, id), eq(target.sourceColumn, url));
  const [current] = await app.db.select({ id: target.id }).from(target.table).where(still);
  if (!current) return { skipped: 'the record no longer has this image' };
  const [config] = await app.db.select().from(settings).where(eq(settings.id, 1));
  const located = await app.storage.locate(url);
  const original = located
    ? await located.backend.read(located.key, limits.fetch.maxBytes)
    : (await safeFetch(url, limits.fetch)).body;
  const backend = located?.backend ?? (await app.storage.select());
  const folder = `images/${owner}s/${id}/${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
  const urls: Record<string, string> = {};
  const keys: string[] = [];
  for (const [column, size] of Object.entries(target.variants)) {
    const key = `${folder}/${column.replace(/ImageUrl$/, '')}.jpg`;
    urls[column] = await backend.put(key, await resize(original, size(config!), limits.maxPixels), 'image/jpeg');
    keys.push(key);
  }
  const updated = await app.db.update(target.table).set(urls).where(still).returning({ id: target.id });
  if (updated.length === 0) {
    await Promise.allSettled(keys.map((key) => backend.remove(key)));
    return { skipped: 'the record changed its image meanwhile' };
  }
  return { variants: urls };
}

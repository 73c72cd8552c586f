import { type SQL, sql } from 'drizzle-orm';
import { rateLimitHits } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { JsonApiError } from '../jsonapi/index.js';

/** At most `max` per `windowSeconds` for `key` in `bucket`; this request counts `weight` (default 1). */
export interface RateLimit {
  bucket: string;
  key: string;
  max: number;
  windowSeconds: number;
  weight?: number;
}

/**
 * A refusal of a rate limit: 429 with `Retry-After`, a JSON:API error as it is; the assistant and the
 * app generator render it in their own formats.
 */
export class RateLimited extends JsonApiError {
  constructor(
    /** Seconds until the request may be made again. */
    readonly retryAfter: number,
    detail: string,
  ) {
    super(429, 'Too Many Requests', detail, undefined, { 'Retry-After': String(retryAfter) });
  }
}

/**
 * Counts this request against every limit when all of them have room, else records nothing and throws
 * RateLimited with the seconds until they have. One statement (`rate_limit_take`, migration 0011) in
 * PostgreSQL, so every API process counts the same hits; inside a transaction the keys stay locked
 * until it ends, so the check and the write it guards are one step for concurrent requests. Answers
 * the ids of the hits recorded, in the order of `limits`.
 */
export async function take(db: Db, limits: RateLimit[], message: (seconds: number) => string): Promise<string[]> {
  const column = <T>(pick: (l: RateLimit) => T) => sql.param(limits.map(pick));
  const [row] = await db.execute<{ wait: number; ids: string[] }>(sql`
    select wait, ids::text[] as ids from rate_limit_take(
      ${column((l) => l.bucket)}::text[], ${column((l) => l.key)}::text[], ${column((l) => l.max)}::int[],
      ${column((l) => l.weight ?? 1)}::int[], ${column((l) => l.windowSeconds)}::int[])`);
  if (row!.wait > 0) throw new RateLimited(row!.wait, message(row!.wait));
  return row!.ids;
}

/**
 * Forgets hits: all of a key (`bucket` and `key`, when given), and the ones `take` answered (`ids`).
 * `alongside`, a data-modifying statement, runs in the same statement (as a CTE), so a caller's own
 * write costs no round trip of its own.
 */
export async function forget(
  db: Db,
  which: { bucket?: string; key?: string; ids: string[] },
  alongside?: SQL,
): Promise<void> {
  await db.execute(sql`
    ${alongside ? sql`with alongside as (${alongside})` : sql``}
    delete from ${rateLimitHits}
     where (${rateLimitHits.bucket} = ${which.bucket ?? null} and ${rateLimitHits.key} = ${which.key ?? null})
        or ${rateLimitHits.id} = any(${sql.param(which.ids)}::bigint[])`);
}

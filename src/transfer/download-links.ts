import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { events } from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import type { Config } from '../config.js';
import { forbidden, notFound } from '../jsonapi/index.js';

/** What a download link's query says of it. */
export type LinkCheck = 'valid' | 'expired' | 'invalid';

/**
 * Signed, expiring links to export archives: `?expires=<unix seconds>&signature=<HMAC-SHA256 of the
 * path and the expiry>`. The Open Event front end fetches `download_url` without its token
 * (`app/components/events/view/export/download-zip.js`), so the link itself carries the right to it,
 * like a presigned S3 URL; whoever holds it until it expires may download the archive.
 */
export class DownloadLinks {
  private readonly key: Buffer;

  constructor(
    secret: string,
    /** How long a link works, in seconds. */
    readonly seconds: number,
  ) {
    // A key of its own, derived from the token secret: a signature of a link is never a token's.
    this.key = createHmac('sha256', secret).update('export download links').digest();
  }

  private signature(path: string, expires: number) {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('hex');
  }

  /** `origin + path` with the query that lets anyone download it until `seconds` from `now`. */
  signed(origin: string, path: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + this.seconds;
    return `${origin}${path}?expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  /**
   * The live event whose export a signed link's path names (`/v1/events/{id}/exports/...`): 403 for a link
   * that is not valid or has expired, 404 for an event gone since.
   */
  async eventOf(db: Db, path: string, expires: number, signature: string): Promise<number> {
    const check = this.check(path, expires, signature);
    if (check !== 'valid')
      throw forbidden(
        check === 'expired'
          ? 'This download link has expired: organizers download the archive signed in'
          : 'This download link is not valid',
      );
    const id = Number(/^\/v1\/events\/(\d+)\//.exec(path)?.[1]);
    const [event] = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.id, id), isNull(events.deletedAt)));
    if (!event) throw notFound('Event not found');
    return event.id;
  }

  check(path: string, expires: number, signature: string, now = Date.now()): LinkCheck {
    const wanted = Buffer.from(this.signature(path, expires), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'invalid';
    return expires * 1000 < now ? 'expired' : 'valid';
  }
}

export const downloadLinksOf = (config: Config) => new DownloadLinks(config.JWT_SECRET, config.EXPORT_LINK_SECONDS);

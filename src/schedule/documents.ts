/**
 * The schedule documents of an event as the routes serve them: rendered once per content (the digest of the
 * schedule read for the request), kept in a bounded cache of this process, one rendering at a time per event,
 * each with a strong ETag (the hash of its bytes) and the time its content was first seen (`Last-Modified`,
 * kept in schedule_stamps so every process says the same).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../plugins/db.js';
import { SCHEDULE_XML_TYPE, scheduleJson, scheduleXml } from './frab.js';
import { ICAL_TYPE, icalendar, XCAL_TYPE, xcal } from './ical.js';
import type { Schedule } from './model.js';

export type Format = 'xml' | 'json' | 'ics' | 'xcal';

/** Each document: its media type, what it is, and its file name under `/v1/events/{id}/`. */
export const FORMATS: Record<Format, { type: string; title: string; file: string }> = {
  xml: { type: SCHEDULE_XML_TYPE, title: 'frab/Pentabarf schedule XML', file: 'schedule.xml' },
  json: { type: 'application/json; charset=utf-8', title: 'schedule JSON', file: 'schedule.json' },
  ics: { type: ICAL_TYPE, title: 'iCalendar', file: 'schedule.ics' },
  xcal: { type: XCAL_TYPE, title: 'xCal', file: 'schedule.xcal' },
};

export interface Rendered {
  body: string;
  /** Strong: the hash of the body. */
  etag: string;
  /** When this content of the schedule was first seen. */
  modified: Date;
}

/** The document of `format` (`session` for one session's calendar); `url` is where it is served. */
export function render(schedule: Schedule, format: Format, url: string, session?: number): string {
  if (format === 'xml') return scheduleXml(schedule, url);
  if (format === 'json') return `${JSON.stringify(scheduleJson(schedule, url), null, 1)}\n`;
  const only = session === undefined ? undefined : schedule.sessions.find((s) => s.id === session);
  const calendar = icalendar(schedule, only);
  return format === 'ics' ? calendar : xcal(calendar);
}

/** Events whose last digest is remembered at most (the table has the rest). */
const MAX_STAMPS = 10_000;

const hash = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Renderings kept per process, least recently used first out past `maxBytes`. */
export class ScheduleDocuments {
  private kept = new Map<string, Rendered>();
  private bytes = 0;
  /** The rendering under way per event: a second request for it waits for that one. */
  private building = new Map<number, Promise<unknown>>();
  /** Renderings made so far (the others were answered from here, or waited for one under way). */
  renderings = 0;
  /** The digest of each event's schedule last seen here, and since when. */
  private stamps = new Map<number, { digest: string; at: Date }>();

  constructor(
    private readonly db: Db,
    private readonly maxBytes: number,
  ) {}

  /** The document of `format` of `schedule` (of its session `session`), served at `url`. */
  async document(schedule: Schedule, format: Format, url: string, session?: number): Promise<Rendered> {
    const eventId = schedule.event.id;
    const digest = hash(JSON.stringify(schedule));
    const key = `${eventId} ${format} ${session ?? ''} ${url} ${digest}`;
    for (;;) {
      const found = this.kept.get(key);
      if (found) {
        this.kept.delete(key);
        this.kept.set(key, found);
        return found;
      }
      const under = this.building.get(eventId);
      if (!under) break;
      await under.catch(() => {});
    }
    const build = (async () => {
      this.renderings++;
      const body = render(schedule, format, url, session);
      const rendered = { body, etag: `"${hash(body)}"`, modified: await this.stamp(eventId, digest) };
      this.keep(key, rendered);
      return rendered;
    })();
    this.building.set(eventId, build);
    try {
      return await build;
    } finally {
      this.building.delete(eventId);
    }
  }

  private keep(key: string, rendered: Rendered) {
    const size = rendered.body.length;
    if (size > this.maxBytes) return;
    this.kept.set(key, rendered);
    this.bytes += size;
    for (const [old, value] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(old);
      this.bytes -= value.body.length;
    }
  }

  /** When the schedule of `eventId` took the content `digest` (now, the first time any process saw it). */
  private async stamp(eventId: number, digest: string): Promise<Date> {
    const known = this.stamps.get(eventId);
    if (known?.digest === digest) return known.at;
    const [row] = await this.db.execute<{ changed_at: string }>(sql`
      with changed as (
        insert into schedule_stamps (event_id, digest) values (${eventId}, ${digest})
        on conflict (event_id) do update set digest = excluded.digest, changed_at = now()
        where schedule_stamps.digest <> excluded.digest
        returning changed_at
      )
      select changed_at from changed
      union all
      select changed_at from schedule_stamps where event_id = ${eventId} and not exists (select 1 from changed)`);
    // Another process inserted the same digest while this statement ran: its row, read afresh.
    const [stamp] = row
      ? [row]
      : await this.db.execute<{ changed_at: string }>(
          sql`select changed_at from schedule_stamps where event_id = ${eventId}`,
        );
    // HTTP dates have whole seconds: a client sending back Last-Modified must match it.
    const at = new Date(Math.floor(new Date(stamp!.changed_at).getTime() / 1000) * 1000);
    if (this.stamps.size >= MAX_STAMPS) this.stamps.clear();
    this.stamps.set(eventId, { digest, at });
    return at;
  }
}

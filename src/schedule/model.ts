/**
 * The public schedule of an event, read once for every format (schedule.xml and .json, iCalendar, xCal):
 * its sessions in the states the public sees (accepted, confirmed) that have a start and an end, with their
 * rooms, tracks, types and speakers, and the days they fall on in the event's time zone.
 */
import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { v5 as uuidv5 } from 'uuid';
import {
  events,
  microlocations,
  sessions,
  sessionTypes,
  settings,
  speakers,
  speakersSessions,
  tracks,
} from '../../db/schema/index.js';
import type { Db } from '../../plugins/db.js';
import { PUBLIC_STATES } from '../resources/sessions/states.js';

/** The room of a scheduled session that names none: the formats need one. */
const NO_ROOM = 'Unassigned';

export interface ScheduleSession {
  id: number;
  /** Stable across exports and systems: a name-based UUID of the session's API URL. */
  guid: string;
  /** `<acronym>-<id>-<title in ASCII>`, unique in the event. */
  slug: string;
  title: string;
  subtitle: string | null;
  abstract: string | null;
  description: string | null;
  language: string | null;
  start: DateTime;
  end: DateTime;
  /** When the session's row last changed (an update of its speakers or room does not count). */
  modified: Date;
  room: string;
  track: string | null;
  type: string;
  /** The session's page (front end, or its API URL without one). */
  url: string;
  links: { type: 'slides' | 'media' | 'web'; title: string; url: string }[];
  persons: { id: number; guid: string; name: string; biography: string | null }[];
}

interface ScheduleDay {
  /** 1, 2, ... */
  index: number;
  /** Local date, `2030-10-26`. */
  date: string;
  /** The day change before and after it: local midnight in the event's time zone. */
  start: DateTime;
  end: DateTime;
  /** By room, rooms in their order; a room with no session that day is left out. */
  rooms: { name: string; sessions: ScheduleSession[] }[];
}

export interface Schedule {
  event: {
    id: number;
    identifier: string;
    /** The identifier as the schedule formats' `acronym` (lowercase letters, digits and `_`, at least 4). */
    acronym: string;
    name: string;
    description: string | null;
    timezone: string;
    start: DateTime;
    end: DateTime;
    logo: string | null;
    /** The event's public page. */
    url: string;
  };
  rooms: { name: string; guid: string }[];
  tracks: { name: string; color: string; slug: string }[];
  sessions: ScheduleSession[];
  days: ScheduleDay[];
}

/** Lowercase ASCII words joined by `-` (accents dropped, anything else a separator); `fallback` when none is left. */
function slugify(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || fallback;
}

/** At least two characters, so `<id>-<title>` has the four the XSD's slug wants after the acronym. */
const titleSlug = (title: string) => {
  const slug = slugify(title, 'session');
  return slug.length >= 2 ? slug : 'session';
};
/** A track's slug as both formats want it: a letter first, a letter or digit last, two characters at least. */
const trackSlug = (name: string) => {
  const slug = slugify(name, 'track');
  return /^[a-z][a-z0-9-]*[a-z0-9]$/.test(slug) ? slug : `track-${slug}`;
};

const http = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

/** The live speakers of each of the sessions `ids`, in the event's speaker order (also the CSV exports'). */
export async function speakersBySession(db: Db, ids: number[]) {
  const rows = ids.length
    ? await db
        .select({
          sessionId: speakersSessions.sessionId,
          id: speakers.id,
          name: speakers.name,
          email: speakers.email,
          biography: speakers.shortBiography,
        })
        .from(speakersSessions)
        .innerJoin(speakers, eq(speakers.id, speakersSessions.speakerId))
        .where(and(inArray(speakersSessions.sessionId, ids), isNull(speakers.deletedAt)))
        .orderBy(asc(speakers.order), asc(speakers.id))
    : [];
  const bySession = new Map<number, (typeof rows)[number][]>();
  for (const row of rows)
    (bySession.get(row.sessionId) ?? bySession.set(row.sessionId, []).get(row.sessionId)!).push(row);
  return bySession;
}

/**
 * The schedule of the live event `eventId` (its visibility is the caller's business); `publicUrl` makes the
 * API URLs that name the records (and their GUIDs).
 */
export async function loadSchedule(db: Db, eventId: number, publicUrl: string): Promise<Schedule | undefined> {
  const [event] = await db
    .select({
      id: events.id,
      identifier: events.identifier,
      name: events.name,
      description: events.description,
      timezone: events.timezone,
      startsAt: events.startsAt,
      endsAt: events.endsAt,
      logoUrl: events.logoUrl,
      externalEventUrl: events.externalEventUrl,
    })
    .from(events)
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)));
  if (!event) return undefined;
  const [site] = await db.select({ frontendUrl: settings.frontendUrl }).from(settings).where(eq(settings.id, 1));
  const front = `${(site?.frontendUrl ?? publicUrl).replace(/\/+$/, '')}/e/${encodeURIComponent(event.identifier)}`;

  const [rows, roomRows, trackRows] = await Promise.all([
    db
      .select({
        id: sessions.id,
        title: sessions.title,
        subtitle: sessions.subtitle,
        shortAbstract: sessions.shortAbstract,
        longAbstract: sessions.longAbstract,
        language: sessions.language,
        startsAt: sessions.startsAt,
        endsAt: sessions.endsAt,
        slidesUrl: sessions.slidesUrl,
        videoUrl: sessions.videoUrl,
        audioUrl: sessions.audioUrl,
        lastModifiedAt: sessions.lastModifiedAt,
        room: microlocations.name,
        roomDeleted: microlocations.deletedAt,
        track: tracks.name,
        trackDeleted: tracks.deletedAt,
        type: sessionTypes.name,
        typeDeleted: sessionTypes.deletedAt,
      })
      .from(sessions)
      .leftJoin(microlocations, eq(microlocations.id, sessions.microlocationId))
      .leftJoin(tracks, eq(tracks.id, sessions.trackId))
      .leftJoin(sessionTypes, eq(sessionTypes.id, sessions.sessionTypeId))
      .where(
        and(
          eq(sessions.eventId, eventId),
          isNull(sessions.deletedAt),
          inArray(sessions.state, PUBLIC_STATES),
          isNotNull(sessions.startsAt),
          isNotNull(sessions.endsAt),
        ),
      )
      .orderBy(asc(sessions.startsAt), asc(sessions.id)),
    db
      .select({ id: microlocations.id, name: microlocations.name })
      .from(microlocations)
      .where(and(eq(microlocations.eventId, eventId), isNull(microlocations.deletedAt)))
      .orderBy(asc(microlocations.position), asc(microlocations.id)),
    db
      .select({ name: tracks.name, color: tracks.color })
      .from(tracks)
      .where(and(eq(tracks.eventId, eventId), isNull(tracks.deletedAt)))
      .orderBy(asc(tracks.position), asc(tracks.id)),
  ]);
  const ids = rows.map((r) => r.id);
  const speakersOf = await speakersBySession(db, ids);
  const zone = event.timezone;
  const local = (d: Date) => DateTime.fromJSDate(d, { zone });
  const acronym = event.identifier
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .padEnd(4, '_');
  const guidOf = (path: string) => uuidv5(`${publicUrl}${path}`, uuidv5.URL);
  const scheduled: ScheduleSession[] = rows.map((r) => {
    const links: ScheduleSession['links'] = [];
    const slides = http(r.slidesUrl);
    const video = http(r.videoUrl);
    const audio = http(r.audioUrl);
    if (slides) links.push({ type: 'slides', title: 'Slides', url: slides });
    if (video) links.push({ type: 'media', title: 'Video', url: video });
    if (audio) links.push({ type: 'media', title: 'Audio', url: audio });
    return {
      id: r.id,
      guid: guidOf(`/v1/sessions/${r.id}`),
      slug: `${acronym}-${r.id}-${titleSlug(r.title)}`,
      title: r.title,
      subtitle: r.subtitle,
      abstract: r.shortAbstract,
      description: r.longAbstract,
      language: r.language,
      start: local(r.startsAt!),
      end: local(r.endsAt!),
      modified: r.lastModifiedAt,
      room: r.room !== null && r.roomDeleted === null ? r.room : NO_ROOM,
      track: r.track !== null && r.trackDeleted === null ? r.track : null,
      type: r.type !== null && r.typeDeleted === null ? r.type : 'Talk',
      url: `${front}/session/${r.id}`,
      links,
      persons: (speakersOf.get(r.id) ?? []).map((p) => ({
        id: p.id,
        guid: guidOf(`/v1/speakers/${p.id}`),
        name: p.name,
        biography: p.biography,
      })),
    };
  });

  const rooms = roomRows.map((r) => ({ name: r.name, guid: guidOf(`/v1/microlocations/${r.id}`) }));
  if (scheduled.some((s) => s.room === NO_ROOM) && !rooms.some((r) => r.name === NO_ROOM))
    rooms.push({ name: NO_ROOM, guid: guidOf(`/v1/events/${event.id}/unassigned-room`) });
  const start = local(event.startsAt);
  const end = local(event.endsAt);
  return {
    event: {
      id: event.id,
      identifier: event.identifier,
      acronym,
      name: event.name,
      description: event.description,
      timezone: zone,
      start,
      end,
      logo: http(event.logoUrl),
      url: http(event.externalEventUrl) ?? front,
    },
    rooms,
    tracks: trackRows.map((t) => ({ name: t.name, color: t.color.toLowerCase(), slug: trackSlug(t.name) })),
    sessions: scheduled,
    days: daysOf(start, end, scheduled, rooms),
  };
}

/** Days of an event longer than this are listed only where they have sessions: a day per tab is for conferences. */
const MAX_LISTED_DAYS = 31;

/**
 * The local dates of the schedule, each with its sessions by room: every date from the event's first to its last
 * when the event lasts at most MAX_LISTED_DAYS, and every date that has a session (also outside the event's dates).
 * A session misdated by decades adds one day, not every day in between: listing those blocked the process for
 * seconds (30,000 days) while the export of one event was built.
 */
function daysOf(
  start: DateTime,
  end: DateTime,
  scheduled: ScheduleSession[],
  rooms: { name: string }[],
): ScheduleDay[] {
  const byDate = new Map<string, { start: DateTime; sessions: ScheduleSession[] }>();
  const add = (day: DateTime) => {
    const date = day.toISODate()!;
    let entry = byDate.get(date);
    if (!entry) byDate.set(date, (entry = { start: day, sessions: [] }));
    return entry;
  };
  const first = start.startOf('day');
  // An event ending at midnight ends on the day before.
  const last = DateTime.max(first, end.minus({ milliseconds: 1 }).startOf('day'));
  if (last.diff(first, 'days').days < MAX_LISTED_DAYS)
    for (let day = first; day <= last; day = day.plus({ days: 1 }).startOf('day')) add(day);
  for (const session of scheduled) add(session.start.startOf('day')).sessions.push(session);
  return [...byDate.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, day], i) => ({
      index: i + 1,
      date,
      start: day.start,
      end: day.start.plus({ days: 1 }).startOf('day'),
      rooms: rooms
        .map((room) => ({ name: room.name, sessions: day.sessions.filter((s) => s.room === room.name) }))
        .filter((room) => room.sessions.length > 0),
    }));
}

/**
 * The schedule as frab and pretalx publish it (Pentabarf's format, media type
 * `application/vnd.c3voc.schedule+xml`, checked against c3voc's schedule.xml.xsd) and its JSON twin (c3voc's
 * schema.json): conference, days, rooms, events with their persons, links and attachments.
 */
import type { DateTime } from 'luxon';
import { create } from 'xmlbuilder2';
import type { Schedule, ScheduleSession } from './model.js';

export const SCHEDULE_XML_TYPE = 'application/vnd.c3voc.schedule+xml';
const GENERATOR = { name: 'open-event-api', version: '1.0' };
/** The schedule's version: the formats want one; ours changes with every document (its ETag says when). */
const VERSION = '1.0';
/** The time grid apps draw the schedule on. */
const TIMESLOT = '00:05';

const iso = (t: DateTime) => t.toISO({ suppressMilliseconds: true })!;
const clock = (t: DateTime) => t.toFormat('HH:mm');
/** `hh:mm` (at most 99:59, the formats' two digits). */
function duration(s: ScheduleSession): string {
  const minutes = Math.min(Math.round(s.end.diff(s.start, 'minutes').minutes), 99 * 60 + 59);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** `schedule.xml`: valid against c3voc's schedule.xml.xsd. */
export function scheduleXml(schedule: Schedule, url: string): string {
  const { event } = schedule;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('schedule');
  root.ele('generator', { name: GENERATOR.name, version: GENERATOR.version });
  root.ele('url').txt(url);
  root.ele('version').txt(VERSION);
  const conference = root.ele('conference');
  conference.ele('title').txt(event.name);
  conference.ele('acronym').txt(event.acronym);
  conference.ele('start').txt(iso(event.start));
  conference.ele('end').txt(iso(event.end));
  conference.ele('days').txt(String(schedule.days.length));
  conference.ele('timeslot_duration').txt(TIMESLOT);
  if (event.logo) conference.ele('logo').txt(event.logo);
  conference.ele('url').txt(event.url);
  conference.ele('time_zone_name').txt(event.timezone);
  for (const track of schedule.tracks)
    conference.ele('track', { name: track.name, color: track.color, slug: track.slug });
  for (const day of schedule.days) {
    const dayElement = root.ele('day', { index: day.index, date: day.date, start: iso(day.start), end: iso(day.end) });
    for (const room of day.rooms) {
      const guid = schedule.rooms.find((r) => r.name === room.name)?.guid;
      const roomElement = dayElement.ele('room', { name: room.name, ...(guid ? { guid } : {}) });
      for (const s of room.sessions) {
        const e = roomElement.ele('event', { id: s.id, guid: s.guid });
        e.ele('date').txt(iso(s.start));
        e.ele('start').txt(clock(s.start));
        e.ele('duration').txt(duration(s));
        e.ele('room').txt(s.room);
        e.ele('slug').txt(s.slug);
        e.ele('url').txt(s.url);
        e.ele('title').txt(s.title);
        if (s.subtitle) e.ele('subtitle').txt(s.subtitle);
        e.ele('track').txt(s.track ?? '');
        e.ele('type').txt(s.type);
        if (s.language) e.ele('language').txt(s.language);
        e.ele('abstract').txt(s.abstract ?? '');
        if (s.description) e.ele('description').txt(s.description);
        const persons = e.ele('persons');
        for (const p of s.persons) persons.ele('person', { id: p.id, guid: p.guid }).txt(p.name);
        const links = e.ele('links');
        for (const l of s.links.filter((l) => l.type !== 'slides')) links.ele('link', { href: l.url }).txt(l.title);
        const attachments = e.ele('attachments');
        for (const l of s.links.filter((l) => l.type === 'slides'))
          attachments.ele('attachment', { href: l.url, type: 'slides' }).txt(l.title);
      }
    }
  }
  return root.end({ prettyPrint: true });
}

/** `schedule.json`: valid against c3voc's schema.json, the same content as the XML. */
export function scheduleJson(schedule: Schedule, url: string) {
  const { event } = schedule;
  const eventOf = (s: ScheduleSession) => ({
    guid: s.guid,
    id: s.id,
    date: iso(s.start),
    start: clock(s.start),
    end: iso(s.end),
    duration: duration(s),
    room: s.room,
    slug: s.slug,
    url: s.url,
    title: s.title,
    subtitle: s.subtitle,
    track: s.track,
    type: s.type,
    language: s.language,
    abstract: s.abstract,
    description: s.description,
    persons: s.persons.map((p) => ({ id: p.id, guid: p.guid, name: p.name, biography: p.biography })),
    links: s.links.filter((l) => l.type !== 'slides').map(({ type, title, url }) => ({ type, title, url })),
    attachments: s.links.filter((l) => l.type === 'slides').map(({ type, title, url }) => ({ type, title, url })),
  });
  return {
    $schema: 'https://c3voc.de/schedule/schema.json',
    generator: GENERATOR,
    schedule: {
      url,
      version: VERSION,
      conference: {
        acronym: event.acronym,
        title: event.name,
        ...(event.description ? { description: event.description } : {}),
        start: iso(event.start),
        end: iso(event.end),
        daysCount: schedule.days.length,
        timeslot_duration: TIMESLOT,
        time_zone_name: event.timezone,
        ...(event.logo ? { logo: event.logo } : {}),
        url: event.url,
        tracks: schedule.tracks.map((t) => ({ name: t.name, slug: t.slug, color: t.color })),
        rooms: schedule.rooms.map((r) => ({ name: r.name, guid: r.guid })),
        days: schedule.days.map((day) => ({
          index: day.index,
          date: day.date,
          day_start: iso(day.start),
          day_end: iso(day.end),
          rooms: Object.fromEntries(day.rooms.map((room) => [room.name, room.sessions.map(eventOf)])),
        })),
      },
    },
  };
}

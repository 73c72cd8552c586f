/**
 * The schedule as a calendar: iCalendar (RFC 5545) by ical-generator, one VEVENT per scheduled session in the
 * event's time zone (its VTIMEZONE from @touch4it/ical-timezones), and xCal (RFC 6321), the same calendar in
 * XML: the iCalendar text read back by ical.js (as jCal, RFC 7265) and written element by element, so the two
 * never say different things.
 */
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import ICAL from 'ical.js';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Schedule, ScheduleSession } from './model.js';

export const ICAL_TYPE = 'text/calendar; charset=utf-8';
export const XCAL_TYPE = 'application/calendar+xml; charset=utf-8';
const XCAL_NAMESPACE = 'urn:ietf:params:xml:ns:icalendar-2.0';

/** What a session's VEVENT describes: the abstract, then the speakers. */
function descriptionOf(s: ScheduleSession): string {
  const speakers = s.persons.map((p) => p.name).join(', ');
  return [s.subtitle, s.abstract ?? s.description, speakers && `Speakers: ${speakers}`].filter(Boolean).join('\n\n');
}

/** `schedule.ics` of the event, or of one of its sessions (`only`). */
export function icalendar(schedule: Schedule, only?: ScheduleSession): string {
  const { event } = schedule;
  const calendar = ical({
    name: event.name,
    prodId: { company: 'Open Event', product: 'Open Event API', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    timezone: { name: event.timezone, generator: getVtimezoneComponent },
    url: event.url,
  });
  for (const s of only ? [only] : schedule.sessions) {
    // A local time the change from summer time repeats (02:30 twice) means its first occurrence (RFC 5545 3.3.5),
    // so such a session is given in UTC, which names every instant once.
    const ambiguous = [s.start, s.end].some((time) => time.getPossibleOffsets().length > 1);
    calendar.createEvent({
      id: s.guid,
      // The session's last change: the same calendar twice is the same text (and ETag).
      stamp: s.modified,
      lastModified: s.modified,
      start: s.start,
      end: s.end,
      timezone: ambiguous ? 'Etc/UTC' : event.timezone,
      summary: s.title,
      description: descriptionOf(s) || undefined,
      location: s.room,
      url: s.url,
      categories: s.track ? [{ name: s.track }] : [],
    });
  }
  // RFC 5545 3.1 ends every content line with CRLF, the last one too; ical-generator leaves it off the last.
  return `${calendar.toString()}\r\n`;
}

type JCalProperty = [name: string, parameters: Record<string, string | string[]>, type: string, ...values: unknown[]];
type JCalComponent = [name: string, properties: JCalProperty[], components: JCalComponent[]];

/** One value of a property in xCal: `recur` (RRULE) as its parts, anything else as text of its type. */
function xcalValue(parent: XMLBuilder, type: string, value: unknown) {
  if (type === 'recur' && value && typeof value === 'object') {
    const recur = parent.ele('recur');
    for (const [part, v] of Object.entries(value as Record<string, unknown>))
      for (const item of Array.isArray(v) ? v : [v]) recur.ele(part).txt(String(item));
    return;
  }
  parent.ele(type).txt(String(value));
}

function xcalComponent(parent: XMLBuilder, [name, properties, components]: JCalComponent) {
  const element = parent.ele(name);
  const props = element.ele('properties');
  for (const [prop, parameters, type, ...values] of properties) {
    const p = props.ele(prop);
    const names = Object.keys(parameters);
    if (names.length) {
      const params = p.ele('parameters');
      for (const param of names)
        for (const v of [parameters[param]].flat()) params.ele(param).ele('text').txt(String(v));
    }
    for (const value of values) xcalValue(p, type, value);
  }
  if (components.length) {
    const children = element.ele('components');
    for (const child of components) xcalComponent(children, child);
  }
}

/** `schedule.xcal`: the iCalendar document as xCal. */
export function xcal(icalText: string): string {
  const jcal = ICAL.parse(icalText) as unknown as JCalComponent;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(XCAL_NAMESPACE, 'icalendar');
  xcalComponent(root, jcal);
  return root.end({ prettyPrint: true });
}

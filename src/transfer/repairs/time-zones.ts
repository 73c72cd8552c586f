import tzLookup from '@photostructure/tz-lookup';
import { DateTime } from 'luxon';
import { WINDOWS_TO_IANA_MAP } from 'windows-iana';
import { canonicalTimeZone } from '../../jsonapi/index.js';

/** What the event file tells about its zone besides the name: its dates as written, and where it takes place. */
export interface ZoneHints {
  /** The instants of the event's dates, with the UTC offset (minutes) each was written with, if any. */
  dates: { at: Date; offset?: number }[];
  latitude?: number;
  longitude?: number;
}

/** A zone, and when it is not the name as given, how it was found. */
export interface ZoneAnswer {
  zone: string;
  note?: string;
}

const offsetAt = (zone: string, at: Date) => DateTime.fromJSDate(at, { zone }).offset;

/** The zone keeps the offsets the event's dates were written with. */
const fits = (zone: string, hints: ZoneHints) =>
  hints.dates.every((d) => d.offset === undefined || offsetAt(zone, d.at) === d.offset);

/** `+08:00` for 480 minutes. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** CLDR's Windows zones: each Windows name to its main IANA zone (territory 001), by the name in lower case. */
let windowsZones: Map<string, string> | undefined;
function windowsZone(name: string): string | undefined {
  windowsZones ??= new Map(
    WINDOWS_TO_IANA_MAP.filter((w) => w.territory === '001').map((w) => [
      w.windowsName.toLowerCase(),
      canonicalTimeZone(w.iana[0]!) ?? w.iana[0]!,
    ]),
  );
  return windowsZones.get(name.toLowerCase().replace(/\s+/g, ' '));
}
/** The main zones of the Windows names: where a name fits several zones, these are preferred. */
const mainZones = () => {
  windowsZone('');
  return new Set(windowsZones!.values());
};

/** A descriptive name as a key: `Hawaii-Aleutian`, `Hawaii-Aleutian Standard Time` and `hawaii aleutian time` alike. */
const nameKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .replace(/(standard|daylight|summer)?time$/, '');

/**
 * The zones by the names CLDR gives them in English (through Intl: `Eastern Time`, `Hawaii-Aleutian
 * Standard Time`, `PST`), in winter and in summer; offsets like `GMT+2` are left to the offset rule.
 */
let zonesByName: Map<string, Set<string>> | undefined;
function zonesNamed(name: string): string[] {
  if (!zonesByName) {
    zonesByName = new Map();
    const year = new Date().getUTCFullYear();
    const dates = [new Date(Date.UTC(year, 0, 15)), new Date(Date.UTC(year, 6, 15))];
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      for (const timeZoneName of ['long', 'longGeneric', 'short', 'shortGeneric'] as const) {
        const format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName });
        for (const date of dates) {
          const shown = format.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value;
          if (!shown || /^(GMT|UTC)[+-]/.test(shown)) continue;
          const key = nameKey(shown);
          if (!zonesByName.has(key)) zonesByName.set(key, new Set());
          zonesByName.get(key)!.add(zone);
        }
      }
    }
  }
  const key = nameKey(name);
  return key ? [...(zonesByName.get(key) ?? [])] : [];
}

/** The zone at the event's place, if it has one. */
function zoneAtPlace(hints: ZoneHints): string | undefined {
  const { latitude, longitude } = hints;
  if (latitude === undefined || longitude === undefined) return undefined;
  try {
    return canonicalTimeZone(tzLookup(latitude, longitude));
  } catch {
    return undefined;
  }
}

/**
 * One of several zones a name or an offset fits: those that keep the offsets of the event's dates,
 * then the one at the event's place, then CLDR's main zone of a Windows name, then the first by name.
 */
function choose(zones: string[], hints: ZoneHints): string | undefined {
  const fitting = zones.filter((z) => fits(z, hints));
  const pool = fitting.length > 0 ? fitting : zones;
  const place = zoneAtPlace(hints);
  if (place && pool.includes(place)) return place;
  const main = mainZones();
  return pool.filter((z) => main.has(z)).sort()[0] ?? [...pool].sort()[0];
}

/** A zone for offsets alone: the event's place if it fits, else a fixed `Etc/GMT±h` zone, else a main zone that fits. */
function zoneForOffsets(hints: ZoneHints): string | undefined {
  const offsets = [...new Set(hints.dates.flatMap((d) => (d.offset === undefined ? [] : [d.offset])))];
  if (offsets.length === 0) return undefined;
  const place = zoneAtPlace(hints);
  if (place && fits(place, hints)) return place;
  if (offsets.length === 1 && offsets[0]! % 60 === 0) {
    const hours = offsets[0]! / 60;
    return hours === 0 ? 'UTC' : `Etc/GMT${hours < 0 ? '+' : '-'}${Math.abs(hours)}`;
  }
  return choose(
    [...mainZones()].filter((z) => fits(z, hints)),
    hints,
  );
}

/** `UTC+2`, `GMT +05:30`, `+0800` as minutes east of UTC. */
function offsetIn(name: string): number | undefined {
  const match = /^(?:UTC|GMT)?\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(name.trim());
  if (!match) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return minutes > 14 * 60 ? undefined : match[1] === '-' ? -minutes : minutes;
}

/**
 * The IANA zone an event's `timezone` names, in the order of these rules: an IANA name or link
 * (`US/Pacific`, any letter case: no note); the same with blanks (`US / Eastern`); a Windows name
 * (`Eastern Standard Time`, CLDR's mapping); a fixed offset (`UTC+2`); a name CLDR gives zones
 * (`Hawaii-Aleutian`, `Eastern Time`, `PST`). What fits several zones, or nothing, is settled by
 * the offsets the event's dates were written with and the event's place; without either, UTC.
 */
export function resolveTimeZone(raw: unknown, hints: ZoneHints): ZoneAnswer {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name) {
    const exact = canonicalTimeZone(name);
    if (exact) return { zone: exact };
    const spaced = canonicalTimeZone(name.replace(/\s*\/\s*/g, '/').replace(/\s+/g, '_'));
    if (spaced) return { zone: spaced, note: `read as ${spaced}` };
    const windows = windowsZone(name);
    if (windows) return { zone: windows, note: `a Windows zone name: read as ${windows}` };
    const offset = offsetIn(name);
    if (offset !== undefined) {
      const dates = hints.dates.length > 0 ? hints.dates : [{ at: new Date() }];
      const zone = zoneForOffsets({ ...hints, dates: dates.map((d) => ({ ...d, offset: d.offset ?? offset })) });
      if (zone) return { zone, note: `a fixed offset: read as ${zone}` };
    }
    const named = choose(zonesNamed(name), hints);
    if (named) return { zone: named, note: `read as ${named}` };
  }
  const what = name ? 'not a time zone' : 'missing';
  const place = zoneAtPlace(hints);
  if (place && fits(place, hints)) return { zone: place, note: `${what}: ${place}, the zone at the event's place` };
  const derived = zoneForOffsets(hints);
  if (derived) {
    const offsets = [
      ...new Set(hints.dates.flatMap((d) => (d.offset === undefined ? [] : [offsetText(d.offset)]))),
    ].join(' and ');
    return { zone: derived, note: `${what}: ${derived}, from the offset ${offsets} of the event's dates` };
  }
  return { zone: 'UTC', note: `${what}, and neither the event's dates nor its place tell one: UTC` };
}

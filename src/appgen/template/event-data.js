// The event an app shows, read from an Open Event JSON:API service (`/v1/events/<id>` and its
// lists). The build runs it on the server for the snapshot the app carries; the app runs it in the
// browser for live data. Plain JavaScript so that both can load the same file.

export const PAGE_SIZE = 100;
/** Pages read per list at most: an event with more records than this is refused, not cut. */
export const MAX_PAGES = 100;

/** Sessions the public sees. */
const SHOWN_STATES = ['accepted', 'confirmed'];

/** The event URL an endpoint names: no query, fragment or trailing slash. */
export function eventUrl(endpoint) {
  const url = new URL(endpoint);
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}

const text = (value) => (typeof value === 'string' ? value : '');
/** An instant as UTC ISO text ('' when missing or unreadable), so that sorting and formatting never fail. */
const instant = (value) => {
  const time = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
};
/** Only http(s) links and images: a `javascript:` or `data:` URL from the data never reaches the page. */
const webUrl = (value) => (typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) ? value : null);
const idsOf = (relationship) => {
  const linkage = relationship && relationship.data;
  if (!linkage) return [];
  return (Array.isArray(linkage) ? linkage : [linkage]).map((r) => String(r.id));
};
const byText = (key) => (a, b) => a[key].localeCompare(b[key]);

async function readList(base, name, include, getJson, progress) {
  const records = [];
  let seen = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = new URLSearchParams({ 'page[size]': String(PAGE_SIZE), 'page[number]': String(page) });
    if (include) query.set('include', include);
    progress(`Reading ${name} (page ${page})`);
    const doc = await getJson(`${base}/${name}?${query}`);
    if (!doc || !Array.isArray(doc.data)) throw new Error(`The ${name} of the event are not a JSON:API list`);
    // Records without attributes or marked deleted are not shown.
    records.push(...doc.data.filter((r) => r && r.attributes && !r.attributes['deleted-at']));
    seen += doc.data.length;
    // The list's count says when it ends; without one, a short page does (a server may cap pages lower).
    const count = doc.meta && typeof doc.meta.count === 'number' ? doc.meta.count : undefined;
    if (doc.data.length === 0 || (count === undefined ? doc.data.length < PAGE_SIZE : seen >= count)) return records;
  }
  throw new Error(`The event has more than ${MAX_PAGES * PAGE_SIZE} ${name}`);
}

/**
 * Reads the event and its sessions, speakers, tracks, rooms and sponsors. `getJson(url)` answers the
 * parsed JSON of a URL or throws; `progress(text)` hears each step.
 */
export async function loadEvent(endpoint, getJson, progress = () => {}) {
  const base = eventUrl(endpoint);
  progress(`Reading the event at ${base}`);
  const doc = await getJson(base);
  const data = doc && doc.data;
  if (!data || Array.isArray(data) || data.type !== 'event' || !data.attributes) {
    throw new Error('The endpoint does not answer with an event (a JSON:API document of type "event")');
  }
  const a = data.attributes;
  // One list after the other: the endpoint is someone's server, not ours to load.
  // The includes are not read: they make the server send the relationships' linkage (the ids).
  const sessions = await readList(base, 'sessions', 'speakers,track,microlocation', getJson, progress);
  const speakers = await readList(base, 'speakers', '', getJson, progress);
  const tracks = await readList(base, 'tracks', '', getJson, progress);
  const rooms = await readList(base, 'microlocations', '', getJson, progress);
  const sponsors = await readList(base, 'sponsors', '', getJson, progress);
  return {
    event: {
      id: String(data.id),
      name: text(a.name),
      description: text(a.description),
      starts_at: instant(a['starts-at']),
      ends_at: instant(a['ends-at']),
      timezone: text(a.timezone) || 'UTC',
      location: text(a['location-name']),
      logo: webUrl(a['logo-url']),
    },
    sessions: sessions
      .filter(({ attributes: s }) => typeof s.state !== 'string' || SHOWN_STATES.includes(s.state))
      .map(({ id, attributes: s, relationships: r = {} }) => ({
        id: String(id),
        title: text(s.title),
        subtitle: text(s.subtitle),
        abstract: text(s['short-abstract']) || text(s['long-abstract']),
        starts_at: instant(s['starts-at']),
        ends_at: instant(s['ends-at']),
        track: idsOf(r.track)[0] || null,
        room: idsOf(r.microlocation)[0] || null,
        speakers: idsOf(r.speakers),
      }))
      .sort((x, y) => x.starts_at.localeCompare(y.starts_at) || x.title.localeCompare(y.title)),
    speakers: speakers
      .map(({ id, attributes: s }) => ({
        id: String(id),
        name: text(s.name),
        photo: webUrl(s['thumbnail-image-url']) || webUrl(s['photo-url']),
        position: text(s.position),
        organisation: text(s.organisation),
        biography: text(s['short-biography']),
      }))
      .sort(byText('name')),
    tracks: tracks.map(({ id, attributes: t }) => ({ id: String(id), name: text(t.name), color: text(t.color) })).sort(byText('name')),
    rooms: rooms.map(({ id, attributes: m }) => ({ id: String(id), name: text(m.name) })).sort(byText('name')),
    sponsors: sponsors
      .map(({ id, attributes: s }) => ({
        id: String(id),
        name: text(s.name),
        url: webUrl(s.url),
        logo: webUrl(s['logo-url']),
        type: text(s.type),
        level: Number(s.level) || 0,
      }))
      .sort((x, y) => x.level - y.level || x.name.localeCompare(y.name)),
  };
}

/** A formatter in the event's time zone (UTC when the zone is unknown to this runtime). */
function inZone(timezone, options) {
  try {
    return new Intl.DateTimeFormat('en', { ...options, timeZone: timezone });
  } catch {
    return new Intl.DateTimeFormat('en', { ...options, timeZone: 'UTC' });
  }
}

/** `Monday, March 3, 2027` in the event's zone. */
export const dayOf = (iso, timezone) => inZone(timezone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));
/** `09:30` in the event's zone. */
export const timeOf = (iso, timezone) => inZone(timezone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));

/** The event's dates as one line: a day, or the first and the last day. */
export function datesOf(event) {
  if (!event.starts_at) return '';
  const first = dayOf(event.starts_at, event.timezone);
  const last = event.ends_at ? dayOf(event.ends_at, event.timezone) : first;
  return first === last ? first : `${first} – ${last}`;
}

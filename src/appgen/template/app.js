// The event app: shows the snapshot it was built with at once, then the live data of the event's
// API when it can be reached. Everything from the data lands through textContent and checked URLs,
// never as HTML.
import { dayOf, datesOf, loadEvent, timeOf } from './event-data.js';

/** An element with attributes and children (strings become text nodes). */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== null && value !== undefined) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== '') node.append(child);
  return node;
}

/** Text of an HTML fragment (abstracts are written in an editor); parsing here runs no script. */
const plain = (html) => new DOMParser().parseFromString(html, 'text/html').body.textContent.trim();
const COLOR = /^#[0-9a-fA-F]{6}$/;

function renderHeader({ event }) {
  document.getElementById('event-name').textContent = event.name;
  document.getElementById('event-dates').textContent = datesOf(event);
  document.getElementById('event-location').textContent = event.location;
}

function speakerNames(session, speakers) {
  return session.speakers.map((id) => speakers.get(id)).filter(Boolean);
}

function renderSession(session, data, index) {
  const tz = data.event.timezone;
  const people = speakerNames(session, index.speakers);
  const room = index.rooms.get(session.room);
  const when = session.starts_at ? `${timeOf(session.starts_at, tz)}${session.ends_at ? `–${timeOf(session.ends_at, tz)}` : ''}` : '';
  const details = el(
    'details',
    { class: 'session', id: `session-${session.id}` },
    el(
      'summary',
      {},
      el('time', { datetime: session.starts_at || null }, when),
      el('span', { class: 'title' }, session.title),
      room ? el('span', { class: 'room' }, room.name) : null,
      people.length ? el('span', { class: 'speakers' }, people.map((p) => p.name).join(', ')) : null,
    ),
  );
  if (session.subtitle) details.append(el('p', { class: 'subtitle' }, session.subtitle));
  if (session.abstract) details.append(el('p', { class: 'abstract' }, plain(session.abstract)));
  if (people.length) {
    details.append(el('ul', { class: 'session-speakers' }, ...people.map((p) => el('li', {}, el('a', { href: `#speaker-${p.id}` }, p.name), p.organisation ? ` (${p.organisation})` : ''))));
  }
  return details;
}

function renderSchedule(data, index) {
  const tz = data.event.timezone;
  const days = new Map();
  // Sessions come sorted by start; those without one ('') come first but are shown last.
  const ordered = [...data.sessions.filter((s) => s.starts_at), ...data.sessions.filter((s) => !s.starts_at)];
  for (const session of ordered) {
    const day = session.starts_at ? dayOf(session.starts_at, tz) : 'Not scheduled yet';
    if (!days.has(day)) days.set(day, new Map());
    const tracks = days.get(day);
    const track = session.track ?? '';
    if (!tracks.has(track)) tracks.set(track, []);
    tracks.get(track).push(session);
  }
  const root = document.getElementById('schedule-days');
  root.replaceChildren();
  if (days.size === 0) root.append(el('p', {}, 'No sessions have been published yet.'));
  for (const [day, tracks] of days) {
    const section = el('section', { class: 'day' }, el('h3', {}, day));
    const byTrack = [...tracks].sort(([a], [b]) => (index.tracks.get(a)?.name ?? '\uffff').localeCompare(index.tracks.get(b)?.name ?? '\uffff'));
    for (const [trackId, sessions] of byTrack) {
      const track = index.tracks.get(trackId);
      const heading = el('h4', { class: 'track' }, track ? track.name : 'Other sessions');
      if (track && COLOR.test(track.color)) heading.style.borderColor = track.color;
      section.append(el('div', { class: 'track-sessions' }, heading, ...sessions.map((s) => renderSession(s, data, index))));
    }
    root.append(section);
  }
}

function renderSpeakers(data, index) {
  const talks = new Map();
  for (const session of data.sessions) for (const id of session.speakers) talks.set(id, [...(talks.get(id) ?? []), session]);
  const root = document.getElementById('speaker-list');
  root.replaceChildren(
    ...data.speakers.map((speaker) =>
      el(
        'article',
        { class: 'speaker', id: `speaker-${speaker.id}` },
        speaker.photo ? el('img', { src: speaker.photo, alt: '', loading: 'lazy', width: '96', height: '96' }) : null,
        el('h3', {}, speaker.name),
        el('p', { class: 'affiliation' }, [speaker.position, speaker.organisation].filter(Boolean).join(', ')),
        speaker.biography ? el('p', { class: 'biography' }, plain(speaker.biography)) : null,
        el('ul', {}, ...(talks.get(speaker.id) ?? []).map((s) => el('li', {}, el('a', { href: `#session-${s.id}` }, s.title)))),
      ),
    ),
  );
  if (data.speakers.length === 0) root.append(el('p', {}, 'No speakers yet.'));
}

function renderSponsors(data) {
  const root = document.getElementById('sponsor-list');
  root.replaceChildren(
    ...data.sponsors.map((sponsor) => {
      const logo = sponsor.logo ? el('img', { src: sponsor.logo, alt: sponsor.name, loading: 'lazy' }) : el('span', {}, sponsor.name);
      return el(
        'article',
        { class: 'sponsor' },
        sponsor.url ? el('a', { href: sponsor.url, rel: 'noopener noreferrer', target: '_blank' }, logo) : logo,
        el('p', {}, [sponsor.name, sponsor.type].filter(Boolean).join(' · ')),
      );
    }),
  );
  if (data.sponsors.length === 0) root.append(el('p', {}, 'No sponsors yet.'));
}

function render(data, source) {
  const index = {
    speakers: new Map(data.speakers.map((s) => [s.id, s])),
    tracks: new Map(data.tracks.map((t) => [t.id, t])),
    rooms: new Map(data.rooms.map((r) => [r.id, r])),
  };
  renderHeader(data);
  renderSchedule(data, index);
  renderSpeakers(data, index);
  renderSponsors(data);
  document.getElementById('source').textContent = source;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: 'application/vnd.api+json' }, cache: 'no-store', signal: AbortSignal.timeout(15000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.json();
}

const [config, snapshot] = await Promise.all([fetch('config.json').then((r) => r.json()), fetch('data.json').then((r) => r.json())]);
const built = new Date(config.built_at).toLocaleString('en');
render(snapshot, `Showing the data of ${built}.`);
if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => {});
try {
  render(await loadEvent(config.endpoint, getJson), 'Showing live data.');
} catch {
  document.getElementById('source').textContent = `Offline: showing the data of ${built}.`;
}

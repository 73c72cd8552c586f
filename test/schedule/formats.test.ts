/**
 * The schedule documents as conference apps, video pipelines and calendar programs read them, over real HTTP,
 * each checked with the format's own validator: c3voc's XSD (xmllint) and JSON schema (Ajv, draft 6), ical.js
 * reading the iCalendar back, the xCal compared with it; and the exports the Open Event front end starts
 * (app/components/events/view/export/download-common.js, app/controllers/events/view/sessions.js), CSV included.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import ICAL from 'ical.js';
import t from 'tap';
import { create as parseXml } from 'xmlbuilder2';
import { ScheduleDocuments } from '../../src/schedule/documents.js';
import { loadSchedule } from '../../src/schedule/model.js';
import { buildOtherApp, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, rel } from '../helpers/events.js';
import { taskEnded } from '../helpers/service.js';

const run = promisify(execFile);
const VALIDATORS = new URL('./validators/', import.meta.url);
const PUBLIC_URL = 'https://events.example.org';

const { app, url: databaseUrl } = await buildTestApp(t, { ROLE: 'all', PUBLIC_URL });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const cast = await createCast(app);
const owner = cast.owner.token;

// Two days in Berlin across the end of summer time (2030-10-27, 03:00 CEST -> 02:00 CET).
const eventId = await create(app, owner, 'events', 'event', {
  name: 'Café & <Code> 2030 🎉',
  'starts-at': '2030-10-26T07:00:00Z',
  'ends-at': '2030-10-27T17:00:00Z',
  timezone: 'Europe/Berlin',
  state: 'published',
});
const identifier = (await call(app, { url: `/v1/events/${eventId}`, token: owner })).body.data.attributes.identifier;
const of = { event: rel('event', eventId) };
const make = (path: string, type: string, attributes: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  create(app, owner, path, type, attributes, { ...of, ...more });
const web = await make('tracks', 'track', { name: 'Web', color: '#a04b23' });
const data = await make('tracks', 'track', { name: 'Data & AI', color: '#12AB34' });
const hall = await make('microlocations', 'microlocation', { name: 'Hall A' });
const room = await make('microlocations', 'microlocation', { name: 'Room <B>' });
const zoe = await make('speakers', 'speaker', { name: 'Zoë Café', email: 'zoe@example.org' });
const ada = await make('speakers', 'speaker', { name: 'Ada "Countess" Lovelace', email: 'ada@example.org' });
const grace = await make('speakers', 'speaker', { name: 'Grace', email: '=cmd@example.org' });
const session = (attributes: Record<string, unknown>, more: Record<string, unknown> = {}) =>
  make('sessions', 'session', attributes, more);
const rock = await session(
  {
    title: 'Rock & Roll <Live> 🎸',
    'starts-at': '2030-10-26T08:00:00Z',
    'ends-at': '2030-10-26T09:00:00Z',
    state: 'accepted',
    language: 'en',
    'short-abstract': 'Loud <b>and</b> clear',
    'slides-url': 'https://slides.example.org/rock.pdf',
    'video-url': 'https://video.example.org/rock',
  },
  {
    track: rel('track', web),
    microlocation: rel('microlocation', hall),
    speakers: {
      data: [
        { type: 'speaker', id: zoe },
        { type: 'speaker', id: ada },
      ],
    },
  },
);
// 02:30 summer time to 02:30 winter time: one hour across the change.
const night = await session(
  { title: 'Über die Zeitumstellung', 'starts-at': '2030-10-27T00:30:00Z', 'ends-at': '2030-10-27T01:30:00Z' },
  {
    track: rel('track', data),
    microlocation: rel('microlocation', room),
    speakers: { data: [{ type: 'speaker', id: grace }] },
  },
);
const closing = await session(
  {
    title: 'Closing; thanks, all',
    'starts-at': '2030-10-27T15:00:00Z',
    'ends-at': '2030-10-27T16:00:00Z',
    state: 'accepted',
  },
  { microlocation: rel('microlocation', hall) },
);
const withdrawn = await session({
  title: 'Withdrawn talk',
  'starts-at': '2030-10-26T12:00:00Z',
  'ends-at': '2030-10-26T13:00:00Z',
  state: 'accepted',
});
const draft = await session({
  title: '=HYPERLINK("https://evil.example")',
  'starts-at': '2030-10-26T14:00:00Z',
  'ends-at': '2030-10-26T15:00:00Z',
});
await session({ title: 'Unscheduled', state: 'accepted' });
await app.sql`update sessions set state = 'confirmed' where id = ${Number(night)}`;
await app.sql`update sessions set state = 'withdrawn' where id = ${Number(withdrawn)}`;
const PUBLIC = [rock, night, closing];

/** A GET over HTTP as a calendar program or conference app sends it (no JSON:API Accept). */
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
const schedulePath = (file: string) => `/v1/events/${identifier}/${file}`;

async function xmllint(xml: string, ...args: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'oe-xml-'));
  try {
    await writeFile(join(dir, 'document.xml'), xml);
    return await run('xmllint', [...args, '--noout', join(dir, 'document.xml')]).then(
      () => ({ ok: true, errors: '' }),
      (err: { code?: string; stderr: string }) => ({
        ok: false,
        errors:
          err.code === 'ENOENT' ? 'xmllint is missing: apt-get install libxml2-utils (as .ci/run does)' : err.stderr,
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

t.test('schedule.xml is valid against c3voc schedule.xml.xsd and holds the public sessions only', async (t) => {
  const res = await get(schedulePath('schedule.xml'));
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/vnd.c3voc.schedule+xml');
  const xml = await res.text();
  const validity = await xmllint(xml, '--schema', new URL('schedule.xml.xsd', VALIDATORS).pathname);
  t.ok(validity.ok, `valid against the XSD ${validity.errors}`);
  const ids = [...xml.matchAll(/<event id="(\d+)"/g)].map((m) => m[1]);
  t.strictSame(ids.sort(), [...PUBLIC].sort(), 'accepted and confirmed scheduled sessions only');
  t.match(xml, '<title>Rock &amp; Roll &lt;Live&gt; 🎸</title>', 'markup characters escaped, emoji kept');
  t.match(xml, '<time_zone_name>Europe/Berlin</time_zone_name>');
  t.match(xml, /<day index="1" date="2030-10-26" start="2030-10-26T00:00:00\+02:00" end="2030-10-27T00:00:00\+02:00">/);
  t.match(xml, /<day index="2" date="2030-10-27" start="2030-10-27T00:00:00\+02:00" end="2030-10-28T00:00:00\+01:00">/);
  t.match(xml, '<date>2030-10-27T02:30:00+02:00</date>', 'local summer time before the change');
  t.match(xml, '<duration>01:00</duration>');
  t.match(xml, `<person id="${zoe}"`);
  t.match(xml, '<attachment href="https://slides.example.org/rock.pdf" type="slides">Slides</attachment>');
  t.match(xml, '<track name="Data &amp; AI" color="#12ab34" slug="data-ai"/>');
});

t.test('schedule.json is valid against c3voc schema.json (draft 6) with the same content', async (t) => {
  const res = await get(schedulePath('schedule.json'));
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  const document = await res.json();
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json'));
  (formats as unknown as typeof formats.default)(ajv);
  ajv.addFormat('color', /^#[0-9a-f]{6}$/i);
  const schema = JSON.parse(await readFile(new URL('schema.json', VALIDATORS), 'utf8'));
  const validate = ajv.compile(schema);
  t.ok(validate(document), `valid: ${ajv.errorsText(validate.errors)}`);
  const conference = document.schedule.conference;
  t.equal(conference.daysCount, 2);
  const sessions = conference.days.flatMap((d: any) => Object.values(d.rooms).flat()) as any[];
  t.strictSame(sessions.map((s) => String(s.id)).sort(), [...PUBLIC].sort());
  const night = sessions.find((s) => s.title === 'Über die Zeitumstellung');
  t.equal(night.date, '2030-10-27T02:30:00+02:00');
  t.equal(night.end, '2030-10-27T02:30:00+01:00', 'an hour later, in winter time');
  t.equal(night.room, 'Room <B>');
  t.strictSame(
    night.persons.map((p: any) => p.name),
    ['Grace'],
  );
});

/** RFC 5545 3.1: content lines end with CRLF, the last one too, and no line ends with a bare LF. */
const endsEveryLineWithCrlf = (text: string) => text.endsWith('END:VCALENDAR\r\n') && !/[^\r]\n/.test(text);

/** The calendar read back by ical.js, its time zones registered so every time converts to UTC. */
function readCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

t.test('schedule.ics is iCalendar whose every session reads back at its times in UTC', async (t) => {
  const res = await get(schedulePath('schedule.ics'));
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/calendar; charset=utf-8');
  const text = await res.text();
  t.ok(
    text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75),
    'lines folded at 75 octets',
  );
  t.ok(endsEveryLineWithCrlf(text), 'every content line ends with CRLF, the last one too (RFC 5545 3.1)');
  t.match(text, /BEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin/);
  t.match(text, 'SUMMARY:Closing\\; thanks\\, all', 'text escaped');
  const events = readCalendar(text);
  const rows = await app.sql<{ id: number; title: string; starts_at: string; ends_at: string }[]>`
    select id, title, starts_at, ends_at from sessions where id in ${app.sql(PUBLIC.map(Number))}`;
  t.equal(events.length, 3);
  for (const row of rows) {
    // Read back as written: `&`, `<`, emoji, accents, `,` and `;` (escaped in the text, RFC 5545 3.3.11).
    const event = events.find((e) => e.summary === row.title);
    t.ok(event, `${row.title} is in the calendar`);
    t.equal(event!.startDate.toJSDate().toISOString(), new Date(row.starts_at).toISOString(), `${row.title} starts`);
    t.equal(event!.endDate.toJSDate().toISOString(), new Date(row.ends_at).toISOString(), `${row.title} ends`);
  }
  const rockEvent = events.find((e) => e.summary === 'Rock & Roll <Live> 🎸')!;
  t.equal(rockEvent.location, 'Hall A');
  t.match(rockEvent.description, 'Speakers: Zoë Café, Ada "Countess" Lovelace');
  t.strictSame(rockEvent.component.getFirstPropertyValue('categories'), 'Web');
  t.equal(rockEvent.component.getFirstPropertyValue('url'), `${PUBLIC_URL}/e/${identifier}/session/${rock}`);

  const one = await get(`/v1/sessions/${night}/session.ics`);
  t.equal(one.status, 200);
  const oneText = await one.text();
  t.ok(endsEveryLineWithCrlf(oneText), 'session.ics: every content line ends with CRLF');
  const [alone] = readCalendar(oneText);
  t.equal(alone!.summary, 'Über die Zeitumstellung');
  t.equal((await get(`/v1/sessions/${draft}/session.ics`)).status, 404, 'a draft session has no calendar');
});

t.test('schedule.xcal is well-formed xCal saying what the iCalendar says', async (t) => {
  const res = await get(schedulePath('schedule.xcal'));
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/calendar+xml; charset=utf-8');
  const xml = await res.text();
  t.ok((await xmllint(xml)).ok, 'well-formed');
  t.match(xml, '<icalendar xmlns="urn:ietf:params:xml:ns:icalendar-2.0">');
  // The DOM of the document: text as the XML says it, entities read.
  const root = parseXml(xml).root().node as unknown as Element;
  const child = (parent: Element, name: string) => parent.getElementsByTagName(name)[0]!;
  const vevents = [...root.getElementsByTagName('vevent')];
  t.ok(root.getElementsByTagName('vtimezone').length > 0, 'the time zone too');
  const ics = readCalendar(await (await get(schedulePath('schedule.ics'))).text());
  t.equal(vevents.length, ics.length);
  for (const vevent of vevents) {
    const uid = child(child(vevent, 'uid'), 'text').textContent;
    const same = ics.find((e) => e.uid === uid);
    t.ok(same, `VEVENT ${uid} is in the iCalendar`);
    t.equal(child(child(vevent, 'summary'), 'text').textContent, same!.summary);
    const start = child(vevent, 'dtstart');
    t.equal(child(start, 'date-time').textContent, same!.startDate.toString(), `${same!.summary}: the same start`);
    t.equal(child(child(start, 'tzid'), 'text').textContent, same!.startDate.zone.tzid);
  }
});

t.test('a strong ETag and Last-Modified: 304 while nothing changed, a new ETag at once after a change', async (t) => {
  const first = await get(schedulePath('schedule.xml'));
  const etag = first.headers.get('etag')!;
  const modified = first.headers.get('last-modified')!;
  t.match(etag, /^"[\w-]+"$/, 'strong');
  t.ok(modified, 'Last-Modified');
  t.equal((await get(schedulePath('schedule.xml'), { 'if-none-match': etag })).status, 304);
  t.equal((await get(schedulePath('schedule.xml'), { 'if-modified-since': modified })).status, 304);
  // Another process (schedule_stamps): the same validators for the same content.
  const other = await buildOtherApp(t, databaseUrl, { PUBLIC_URL });
  const there = await other.inject({ url: schedulePath('schedule.xml') });
  t.equal(there.headers['last-modified'], modified, 'another process says the same Last-Modified');
  t.equal(there.headers.etag, etag, 'and the same ETag');
  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${closing}`,
    token: owner,
    body: { data: { type: 'session', id: closing, attributes: { title: 'Farewell' } } },
  });
  t.equal(patched.status, 200);
  const after = await get(schedulePath('schedule.xml'), { 'if-none-match': etag });
  t.equal(after.status, 200, 'the old ETag no longer matches');
  t.not(after.headers.get('etag'), etag);
  t.match(await after.text(), '<title>Farewell</title>');
  t.ok(Date.parse(after.headers.get('last-modified')!) >= Date.parse(modified));
});

t.test(
  'one rendering per content at a time per event, kept until the schedule changes or the budget is spent',
  async (t) => {
    const schedule = (await loadSchedule(app.db, Number(eventId), PUBLIC_URL))!;
    const url = (file: string) => `${PUBLIC_URL}${schedulePath(file)}`;
    const documents = new ScheduleDocuments(app.db, 2 ** 20);
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => documents.document(schedule, 'xml', url('schedule.xml'))));
    t.equal(documents.renderings, 1, 'five requests at once: one rendering, the others wait for it');
    t.equal(new Set(five.map((d) => d.etag)).size, 1, 'one answer');
    await Promise.all([
      documents.document(schedule, 'xml', url('schedule.xml')),
      documents.document(schedule, 'ics', url('schedule.ics')),
      documents.document(schedule, 'xcal', url('schedule.xcal')),
    ]);
    t.equal(documents.renderings, 3, 'the kept XML again, the calendars once each');
    const renamed = { ...schedule, event: { ...schedule.event, name: 'Renamed' } };
    t.match((await documents.document(renamed, 'xml', url('schedule.xml'))).body, '<title>Renamed</title>');
    t.equal(documents.renderings, 4, 'another content is rendered anew');
    // A budget for one document: keeping the next pushes the first out.
    const small = new ScheduleDocuments(app.db, five[0]!.body.length);
    await small.document(schedule, 'xml', url('schedule.xml'));
    await small.document(renamed, 'xml', url('schedule.xml'));
    await small.document(schedule, 'xml', url('schedule.xml'));
    t.equal(small.renderings, 3, 'the least recently used went first');
  },
);

t.test('drafts and private events are refused to strangers (404), served to their team', async (t) => {
  await app.sql`update events set state = 'draft' where id = ${Number(eventId)}`;
  t.equal((await get(schedulePath('schedule.ics'))).status, 404, 'a draft, anonymous');
  const other = { authorization: `JWT ${cast.other.token}` };
  t.equal((await get(schedulePath('schedule.ics'), other)).status, 404, 'a draft, a stranger');
  const own = await get(schedulePath('schedule.ics'), { authorization: `JWT ${owner}` });
  t.equal(own.status, 200, 'its owner');
  t.equal(own.headers.get('cache-control'), 'private, max-age=60', 'kept by no shared cache');
  await app.sql`update events set state = 'published', privacy = 'private' where id = ${Number(eventId)}`;
  t.equal((await get(schedulePath('schedule.xml'))).status, 404, 'private, anonymous');
  t.equal((await get(`/v1/sessions/${rock}/session.ics`, other)).status, 404, 'private, a stranger');
  t.equal((await get(schedulePath('schedule.xml'), { authorization: `JWT ${owner}` })).status, 200, 'its owner');
  await app.sql`update events set privacy = 'public' where id = ${Number(eventId)}`;
  const open = await get(schedulePath('schedule.xml'));
  t.equal(open.status, 200, 'public again');
  t.equal(open.headers.get('cache-control'), 'public, max-age=60', 'a shared cache may keep it a minute');
});

t.test('the event names its documents: pentabarf-url, ical-url, xcal-url (absolute)', async (t) => {
  const res = await call(app, { url: `/v1/events/${eventId}` });
  const attributes = res.body.data.attributes;
  t.equal(attributes['pentabarf-url'], `${PUBLIC_URL}${schedulePath('schedule.xml')}`);
  t.equal(attributes['ical-url'], `${PUBLIC_URL}${schedulePath('schedule.ics')}`);
  t.equal(attributes['xcal-url'], `${PUBLIC_URL}${schedulePath('schedule.xcal')}`);
});

/** Starts an export as the front end's loader does (GET, its JSON:API headers) and answers the finished task. */
async function exported(path: string, method: 'GET' | 'POST' = 'GET', body?: unknown) {
  const started = await call(app, { method, url: `/v1/events/${eventId}/export/${path}`, token: owner, body });
  if (started.status !== 200) throw new Error(`export ${path}: ${started.status} ${JSON.stringify(started.body)}`);
  return taskEnded(app, started.body.task_url, owner);
}

t.test(
  'download-common.js: GET /export/ical, /export/xcal and /export/pentabarf end with the documents to download',
  async (t) => {
    for (const [format, file, type] of [
      ['ical', 'schedule.ics', 'text/calendar'],
      ['xcal', 'schedule.xcal', 'application/calendar+xml'],
      ['pentabarf', 'schedule.xml', 'application/vnd.c3voc.schedule+xml'],
    ] as const) {
      const task = await exported(format);
      t.equal(task.state, 'SUCCESS', `${format}: ${JSON.stringify(task.result)}`);
      const download = await fetch(task.result.download_url.replace(PUBLIC_URL, base));
      t.equal(download.status, 200, `${format} downloads with its signed link`);
      t.match(download.headers.get('content-type'), type);
      t.equal(await download.text(), await (await get(schedulePath(file))).text(), `${format} is ${file}`);
    }
    const stranger = await call(app, { url: `/v1/events/${eventId}/export/ical`, token: cast.other.token });
    t.equal(stranger.status, 403, 'only organizers export');
  },
);

t.test(
  'sessions.js and speakers.js (app/controllers/events/view): CSV exports with a BOM, the reference columns, formulas neutralised',
  async (t) => {
    await app.sql`
    insert into orders (identifier, event_id, user_id, company, status)
    values ('order-1', ${Number(eventId)}, ${Number(cast.other.id)}, '+SUM(A1:A9)', 'completed')`;
    await app.sql`
    insert into attendees (event_id, order_id, firstname, lastname, email)
    select ${Number(eventId)}, id, '@attendee', '-1', 'a@example.org' from orders where identifier = 'order-1'`;
    const csvOf = async (task: any) => {
      t.equal(task.state, 'SUCCESS');
      const res = await fetch(task.result.download_url.replace(PUBLIC_URL, base));
      t.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
      return Buffer.from(await res.arrayBuffer()).toString('utf8');
    };
    const sessionsCsv = await csvOf(await exported('sessions/csv'));
    t.ok(
      sessionsCsv.startsWith('\uFEFFSession Title,Session Starts At,Session Ends At,Session Speakers,'),
      'BOM and header',
    );
    t.match(sessionsCsv, `"'=HYPERLINK(""https://evil.example"") (draft)"`, 'the formula is plain text');
    t.match(
      sessionsCsv,
      'Rock & Roll <Live> 🎸 (accepted),"October 26, 2030 10:00 +0200","October 26, 2030 11:00 +0200"',
    );
    t.match(sessionsCsv, '"October 27, 2030 02:30 +0200","October 27, 2030 02:30 +0100"', 'across the change');
    t.match(sessionsCsv, '\r\n', 'CRLF');
    const accepted = await csvOf(await exported('sessions/csv', 'POST', { status: 'accepted' }));
    t.notMatch(accepted, 'HYPERLINK', 'a status keeps the other states out');
    const unknown = await call(app, {
      method: 'POST',
      url: `/v1/events/${eventId}/export/sessions/csv`,
      token: owner,
      body: { status: 'approved' },
    });
    t.equal(unknown.status, 422, 'a state sessions never have is refused');
    const speakersCsv = await csvOf(await exported('speakers/csv'));
    t.match(speakersCsv, "Grace,'=cmd@example.org,Über die Zeitumstellung (confirmed)");
    // app/controllers/events/view/speakers.js posts {status} (a session state, all, without_session).
    const confirmed = await csvOf(await exported('speakers/csv', 'POST', { status: 'confirmed' }));
    t.match(confirmed, 'Grace,');
    t.notMatch(confirmed, 'Zoë Café', 'speakers of other states left out');
    const all = await csvOf(await exported('speakers/csv', 'POST', { status: 'all' }));
    t.match(all, 'Zoë Café');
    t.match(all, 'Grace,');
    await make('speakers', 'speaker', { name: 'Silent Sam' });
    const without = await csvOf(await exported('speakers/csv', 'POST', { status: 'without_session' }));
    t.match(without, 'Silent Sam');
    t.notMatch(without, 'Grace,', 'only speakers of no session');
    const ordersCsv = await csvOf(await exported('orders/csv'));
    t.match(ordersCsv, "'+SUM(A1:A9)");
    const attendeesCsv = await csvOf(await exported('attendees/csv'));
    t.match(attendeesCsv, "'@attendee,'-1,a@example.org");
  },
);

t.test('a long event lists the days that have sessions; a session misdated by decades adds one day', async (t) => {
  // The reference API Blueprint's examples leave an event of 2016 with sessions in 2030 and 2099: listing every day
  // in between (30,000) blocked the process for seconds while the export was built.
  const long = await create(app, owner, 'events', 'event', {
    name: 'A year of talks',
    'starts-at': '2030-01-01T09:00:00Z',
    'ends-at': '2030-12-31T17:00:00Z',
    timezone: 'UTC',
    state: 'published',
  });
  const at = (day: string) => ({
    title: `Talk on ${day}`,
    'starts-at': `${day}T10:00:00Z`,
    'ends-at': `${day}T11:00:00Z`,
    state: 'accepted',
  });
  for (const day of ['2030-03-01', '2030-03-01', '2030-07-14', '2099-12-13'])
    await create(app, owner, 'sessions', 'session', at(day), { event: rel('event', long) });
  const schedule = (await loadSchedule(app.db, Number(long), PUBLIC_URL))!;
  t.same(
    schedule.days.map((d) => [d.index, d.date, d.rooms.flatMap((r) => r.sessions).length]),
    [
      [1, '2030-03-01', 2],
      [2, '2030-07-14', 1],
      [3, '2099-12-13', 1],
    ],
  );
  const short = (await loadSchedule(app.db, Number(eventId), PUBLIC_URL))!;
  t.same(
    short.days.map((d) => d.date),
    ['2030-10-26', '2030-10-27'],
    'an event of a few days lists each of its days',
  );
});

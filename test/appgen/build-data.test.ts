/**
 * What the app build reads from a (fake) JSON:API endpoint:
 * - APPGEN_MAX_DATA_BYTES bounds the bytes all fetches of one build read together: a list larger
 *   than what is left (sent with or without Content-Length) or lists that each fit but together do
 *   not end the build FAILED, naming the budget and the URL, with the build log mailed; data of
 *   exactly the budget is built, one byte more is not;
 * - lists are read page by page until their `meta.count` records were seen, also from a server
 *   that caps its pages below the page[size] asked for; a list without meta ends at a short page;
 * - unreadable session dates do not fail the build: they are '' in data.json (valid ones UTC ISO).
 */
import type { ServerResponse } from 'node:http';
import AdmZip from 'adm-zip';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { failedBuild, json, mailWith, startBuild, startFake } from '../helpers/appgen.js';
import { taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';

const LISTS = ['sessions', 'speakers', 'tracks', 'microlocations', 'sponsors'] as const;
type Part = 'event' | (typeof LISTS)[number];
/** A body sent with its Content-Length, or an answer of its own (the URL with its query). */
type Answer = string | ((url: URL, response: ServerResponse) => void);

const send = (response: ServerResponse, body: string) =>
  response
    .writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) })
    .end(body);

/** A fake JSON:API service: `/v1/events/<name>` and its lists answer what `events[name]` says (lists empty unless said). */
const eventServer = (t: Test, events: Record<string, Partial<Record<Part, Answer>>>) =>
  startFake(t, (request, response) => {
    const url = new URL(request.url!, 'http://x');
    const [, name, part = 'event'] = /^\/v1\/events\/([^/]+)(?:\/([a-z]+))?$/.exec(url.pathname) ?? [];
    const answer =
      name !== undefined ? (events[name]?.[part as Part] ?? (part === 'event' ? undefined : '{"data":[]}')) : undefined;
    if (answer === undefined) response.writeHead(404).end();
    else if (typeof answer === 'string') send(response, answer);
    else answer(url, response);
  });

/** The URL the build reads a page of a list from. */
const pageUrl = (base: string, list: string, page: number) => {
  const query = new URLSearchParams({ 'page[size]': '100', 'page[number]': String(page) });
  if (list === 'sessions') query.set('include', 'speakers,track,microlocation');
  return `${base}/${list}?${query}`;
};

const eventDoc = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    data: {
      type: 'event',
      id,
      attributes: {
        name: `Event ${id}`,
        'starts-at': '2030-01-01T10:00:00Z',
        'ends-at': '2030-01-01T18:00:00Z',
        timezone: 'UTC',
        ...extra,
      },
    },
  });
/** A list of `n` sessions whose JSON is padded to exactly `bytes` bytes when asked. */
const sessionList = (n: number, bytes?: number) => {
  const doc = (pad: string) =>
    JSON.stringify({
      data: Array.from({ length: n }, (_, i) => ({
        type: 'session',
        id: String(i + 1),
        attributes: { title: `Talk ${i + 1}`, 'short-abstract': i === 0 ? pad : '' },
      })),
    });
  return bytes === undefined ? doc('') : doc('x'.repeat(bytes - Buffer.byteLength(doc(''))));
};
/** An empty list padded with a meta member to exactly `bytes` bytes. */
const padded = (bytes: number) => {
  const doc = (pad: string) => JSON.stringify({ data: [], meta: { pad } });
  return doc('x'.repeat(bytes - Buffer.byteLength(doc(''))));
};

t.test('APPGEN_MAX_DATA_BYTES bounds what one build reads', async (t) => {
  const BUDGET = 3000;
  const event = (id: string) => eventDoc(id);
  const E = Buffer.byteLength(event('big'));
  const EMPTY = Buffer.byteLength('{"data":[]}');
  // The event ids all have three letters: each event document has E bytes.
  const fake = await eventServer(t, {
    big: { event: event('big'), sessions: sessionList(20, 5000) },
    chk: {
      event: event('chk'),
      // No Content-Length: the limit holds while reading.
      sessions: (_url, response) => {
        response.writeHead(200, { 'content-type': 'application/vnd.api+json', 'transfer-encoding': 'chunked' });
        const body = sessionList(20, 5000);
        for (let i = 0; i < body.length; i += 500) response.write(body.slice(i, i + 500));
        response.end();
      },
    },
    // Each list fits in what is left when it is read, not all three together.
    spr: { event: event('spr'), sessions: sessionList(2, 1000), speakers: padded(1000), tracks: padded(1000) },
    // The six documents (microlocations and sponsors empty lists) make exactly the budget, and then one byte more.
    exa: {
      event: event('exa'),
      sessions: sessionList(2, 1000),
      speakers: padded(1000),
      tracks: padded(BUDGET - E - 2000 - 2 * EMPTY),
    },
    ovr: {
      event: event('ovr'),
      sessions: sessionList(2, 1000),
      speakers: padded(1000),
      tracks: padded(BUDGET - E - 2000 - 2 * EMPTY + 1),
    },
  });
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, {
    ROLE: 'all',
    SMTP_URL: smtp.url,
    FETCH_ALLOW_PRIVATE: 'true',
    APPGEN_MAX_DATA_BYTES: String(BUDGET),
  });
  const base = (id: string) => `${fake.url}/v1/events/${id}`;
  const paths = () => fake.requests.map((r) => r.split('?')[0]);

  t.test(
    'a list larger than what is left, sent with its Content-Length: FAILED naming the budget and the URL',
    async (t) => {
      fake.reset();
      const { message, steps } = await failedBuild(t, app, smtp, 'Big list', base('big'));
      t.equal(message, `The event's data is larger than ${BUDGET} bytes (at ${pageUrl(base('big'), 'sessions', 1)})`);
      t.strictSame(steps.slice(1), [
        `Reading the event at ${base('big')}`,
        'Reading sessions (page 1)',
        `The build failed: ${message}`,
      ]);
      t.strictSame(paths(), ['/v1/events/big', '/v1/events/big/sessions'], 'nothing read after the list');
    },
  );

  t.test('the same list without Content-Length: refused while it is read', async (t) => {
    fake.reset();
    const { message } = await failedBuild(t, app, smtp, 'Chunked list', base('chk'));
    t.equal(message, `The event's data is larger than ${BUDGET} bytes (at ${pageUrl(base('chk'), 'sessions', 1)})`);
    t.strictSame(paths(), ['/v1/events/chk', '/v1/events/chk/sessions']);
  });

  t.test('lists that each fit but together do not: FAILED at the list that passes the budget', async (t) => {
    fake.reset();
    const { message } = await failedBuild(t, app, smtp, 'Spread lists', base('spr'));
    t.equal(message, `The event's data is larger than ${BUDGET} bytes (at ${pageUrl(base('spr'), 'tracks', 1)})`);
    t.strictSame(paths(), [
      '/v1/events/spr',
      '/v1/events/spr/sessions',
      '/v1/events/spr/speakers',
      '/v1/events/spr/tracks',
    ]);
  });

  t.test('data of exactly the budget is built; one byte more is not', async (t) => {
    const started = await startBuild(app, {
      email: 'exact@example.org',
      app_name: 'Exact budget',
      endpoint: base('exa'),
    });
    t.equal(started.status, 202);
    const task = await taskEnded(app, started.body.task_url);
    t.equal(task.state, 'SUCCESS', JSON.stringify(task));
    await mailWith(smtp, 'Your app "Exact budget" is ready');
    const { message } = await failedBuild(t, app, smtp, 'Over budget', base('ovr'));
    // What is left for the last list is one byte less than it.
    t.equal(message, `The event's data is larger than ${BUDGET} bytes (at ${pageUrl(base('ovr'), 'sponsors', 1)})`);
  });
});

t.test('lists are read page by page as far as their meta.count says', async (t) => {
  const sessions = Array.from({ length: 5 }, (_, i) => ({
    type: 'session',
    id: String(i + 1),
    attributes: {
      title: `Talk ${i + 1}`,
      'starts-at': `2030-01-01T1${i}:00:00Z`,
      'ends-at': `2030-01-01T1${i}:30:00Z`,
    },
  }));
  const speakers = ['Ann', 'Bob', 'Cy'].map((name, i) => ({
    type: 'speaker',
    id: String(i + 1),
    attributes: { name },
  }));
  const fake = await eventServer(t, {
    paged: {
      event: eventDoc('paged'),
      // Two records a page, whatever page[size] asks for; the count says there are five.
      sessions: (url, response) => {
        const page = Number(url.searchParams.get('page[number]'));
        json(response, { data: sessions.slice((page - 1) * 2, page * 2), meta: { count: 5 } });
      },
      // No meta, and the same three records on every page: the short first page ends the list.
      speakers: (_url, response) => json(response, { data: speakers }),
    },
  });
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, FETCH_ALLOW_PRIVATE: 'true' });
  const started = await startBuild(app, {
    email: 'paged@example.org',
    app_name: 'Paged',
    endpoint: `${fake.url}/v1/events/paged`,
  });
  t.equal(started.status, 202);
  const task = await taskEnded(app, started.body.task_url);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task));
  t.strictSame(
    fake.requests.map((r) => {
      const url = new URL(r, 'http://x');
      return `${url.pathname} ${url.searchParams.get('page[number]') ?? ''}`.trim();
    }),
    [
      '/v1/events/paged',
      '/v1/events/paged/sessions 1',
      '/v1/events/paged/sessions 2',
      '/v1/events/paged/sessions 3',
      '/v1/events/paged/speakers 1',
      '/v1/events/paged/tracks 1',
      '/v1/events/paged/microlocations 1',
      '/v1/events/paged/sponsors 1',
    ],
    'three pages of sessions, one of each other list',
  );
  const mail = await mailWith(smtp, 'Your app "Paged" is ready');
  const data = JSON.parse(new AdmZip(mail.parsed.attachments[0]!.content).readAsText('data.json'));
  t.strictSame(
    data.sessions.map((s: { id: string }) => s.id),
    ['1', '2', '3', '4', '5'],
    'all five sessions',
  );
  t.strictSame(
    data.speakers.map((s: { name: string }) => s.name),
    ['Ann', 'Bob', 'Cy'],
    'the three speakers once',
  );
});

t.test('unreadable session dates: built, the dates empty in data.json', async (t) => {
  const session = (id: string, startsAt: unknown, endsAt: unknown) => ({
    type: 'session',
    id,
    attributes: { title: `Talk ${id}`, 'starts-at': startsAt, 'ends-at': endsAt },
  });
  const fake = await eventServer(t, {
    dates: {
      event: eventDoc('dates', { 'starts-at': '2030-05-01T09:00:00+02:00', 'ends-at': 'soon' }),
      sessions: JSON.stringify({
        data: [
          session('1', 'junk', 'junk'),
          session('2', '2030-05-01T09:00:00+02:00', '2030-05-01T10:00:00+02:00'),
          session('3', null, 12345),
          session('4', 1893456000000, '2030-13-45T99:00:00Z'),
        ],
      }),
    },
  });
  const smtp = await startSmtp(t);
  const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, FETCH_ALLOW_PRIVATE: 'true' });
  const started = await startBuild(app, {
    email: 'dates@example.org',
    app_name: 'Dates',
    endpoint: `${fake.url}/v1/events/dates`,
  });
  t.equal(started.status, 202);
  const task = await taskEnded(app, started.body.task_url);
  t.equal(task.state, 'SUCCESS', JSON.stringify(task));
  const mail = await mailWith(smtp, 'Your app "Dates" is ready');
  const zip = new AdmZip(mail.parsed.attachments[0]!.content);
  const data = JSON.parse(zip.readAsText('data.json'));
  t.strictSame(
    data.sessions.map((s: { id: string; starts_at: string; ends_at: string }) => [s.id, s.starts_at, s.ends_at]),
    [
      ['1', '', ''],
      ['3', '', ''],
      ['4', '', ''],
      ['2', '2030-05-01T07:00:00.000Z', '2030-05-01T08:00:00.000Z'],
    ],
    'unreadable dates are empty (first, by title), readable ones UTC ISO',
  );
  t.strictSame(
    [data.event.starts_at, data.event.ends_at],
    ['2030-05-01T07:00:00.000Z', ''],
    'the event dates likewise',
  );
  t.match(
    zip.readAsText('index.html'),
    '<p id="event-dates">Wednesday, May 1, 2030</p>',
    'the page shows the one readable date',
  );
});

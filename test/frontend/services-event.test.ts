/**
 * open-event-frontend:app/services/event.ts: the public event page shows its Speakers and Sessions tabs
 * when these answer a record: the event's speakers with an accepted or confirmed session (lines 36, 42-44;
 * the filter is SPEAKERS_FILTER, open-event-frontend:app/routes/public/speakers.js:4-29) and its accepted or
 * confirmed sessions (lines 55-72), each `?cache=true&public=true&fields[<type>]=id&page[size]=1&filter=…`,
 * written inline and fetched by the loader service for the event's identifier (the navigation bar's
 * `globalData.idEvent`, open-event-frontend:app/components/nav-bar.js:161,169). The front end reads `data.length`.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, createEvent, fillEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const full = await createEvent(app, cast, 'Full Conf', 'published');
await fillEvent(app, cast, full.id);
const quiet = await createEvent(app, cast, 'Quiet Conf', 'published');
const speaker = await create(
  app,
  cast.owner.token,
  'speakers',
  'speaker',
  { name: 'Draft Speaker', email: 'draft@example.com' },
  { event: rel('event', quiet.id) },
);
await create(
  app,
  cast.owner.token,
  'sessions',
  'session',
  { title: 'Not yet' },
  { event: rel('event', quiet.id), speakers: { data: [{ type: 'speaker', id: speaker }] } },
);

/** speakers.js:4-29 */
const SPEAKERS_FILTER = [
  {
    name: 'sessions',
    op: 'any',
    val: {
      and: [
        { name: 'deleted-at', op: 'eq', val: null },
        {
          or: [
            { name: 'state', op: 'eq', val: 'accepted' },
            { name: 'state', op: 'eq', val: 'confirmed' },
          ],
        },
      ],
    },
  },
];
/** event.ts:57-70 */
const filters = [
  {
    or: [
      { name: 'state', op: 'eq', val: 'confirmed' },
      { name: 'state', op: 'eq', val: 'accepted' },
    ],
  },
];

/**
 * The URL the loader fetches for a path with its query written inline (loader.ts:59,97): query-string
 * parses it and writes it back, keys sorted and strictly encoded (open-event-frontend:app/utils/url.ts:36-49).
 */
function loaderUrl(pathAndQuery: string): string {
  const [path, query = ''] = pathAndQuery.split('?');
  const strict = (s: string) =>
    encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const pairs = [...new URLSearchParams(query)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `/v1${path}?${pairs.map(([k, v]) => `${strict(k)}=${strict(v)}`).join('&')}`;
}

// The loader sends the session's token whatever the query says.
const hasSpeakers = (eventId: string, token?: string) =>
  frontEnd(base, token).loader(
    'GET',
    loaderUrl(
      `/events/${eventId}/speakers?cache=true&public=true&fields[speaker]=id&page[size]=1&filter=${JSON.stringify(SPEAKERS_FILTER)}`,
    ),
  );
const hasSessions = (eventId: string, token?: string) =>
  frontEnd(base, token).loader(
    'GET',
    loaderUrl(
      `/events/${eventId}/sessions?cache=true&public=true&fields[session]=id&page[size]=1&filter=${JSON.stringify(filters)}`,
    ),
  );

t.test('an event with an accepted session shows both tabs: one record, its id only', async (t) => {
  for (const token of [undefined, cast.other.token]) {
    for (const [what, res, type] of [
      ['speakers', await hasSpeakers(full.identifier, token), 'speaker'],
      ['sessions', await hasSessions(full.identifier, token), 'session'],
    ] as const) {
      t.equal(res.status, 200, `${what} ${token ? 'in a session' : 'anonymously'}`);
      t.equal(res.body.data.length, 1);
      t.strictSame(Object.keys(res.body.data[0].attributes), [], 'fields[…]=id: no attributes');
      t.match(res.body.data[0], { type, id: String });
    }
  }
});

t.test('an event whose only session is a draft shows neither, even to its organizers', async (t) => {
  for (const token of [undefined, cast.organizer.token]) {
    t.equal((await hasSpeakers(quiet.identifier, token)).body.data.length, 0, 'no speaker of an accepted session');
    t.equal((await hasSessions(quiet.identifier, token)).body.data.length, 0, 'no accepted session');
  }
});

t.test('the numeric id names the event as well', async (t) => {
  t.equal((await hasSpeakers(full.id)).body.data.length, 1);
  t.equal((await hasSessions(full.id)).body.data.length, 1);
});

/**
 * SQL statements per request of the paths `make bench` measures (issues 9 and 23): a read is one
 * statement, plus the token's account for a caller with a token, the same at page sizes 1, 20 and 100
 * and whatever the number of included records, so the cost of a request does not grow with what it returns.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';

const { app, queries, resetQueries } = await buildTestApp(t);
const cast = await createCast(app);
const owner = cast.owner.token;
const { id: event } = await createEvent(app, cast, 'Counted Conf', 'published');
const of = { event: rel('event', event) };

// 120 sessions in 6 tracks and 8 rooms, two speakers each among 150; forms, links, a copyright, pages.
await app.sql.unsafe(`
  insert into tracks (event_id, name, color, font_color) select ${event}, 'Track ' || g, '#112233', '#ffffff' from generate_series(1, 6) g;
  insert into microlocations (event_id, name) select ${event}, 'Room ' || g from generate_series(1, 8) g;
  insert into sponsors (event_id, name, level) select ${event}, 'Sponsor ' || g, g % 3 from generate_series(1, 30) g;
  insert into speakers (event_id, name, email) select ${event}, 'Speaker ' || g, 's' || g || '@example.com' from generate_series(1, 150) g;
  insert into sessions (event_id, title, state, track_id, microlocation_id, starts_at, ends_at)
    select ${event}, 'Session ' || g, 'accepted',
           (select min(id) from tracks where event_id = ${event}) + g % 6,
           (select min(id) from microlocations where event_id = ${event}) + g % 8,
           timestamptz '2030-05-01 09:00+00' + g * interval '15 minutes', timestamptz '2030-05-01 09:30+00' + g * interval '15 minutes'
    from generate_series(1, 120) g;
  insert into speakers_sessions (speaker_id, session_id)
    select sp.id, se.id from (select id, row_number() over (order by id) n from sessions where event_id = ${event}) se
      join (select id, row_number() over (order by id) n from speakers where event_id = ${event}) sp on sp.n = se.n or sp.n = se.n + 1;
  insert into custom_forms (event_id, form, field_identifier, type) select ${event}, 'speaker', 'field' || g, 'text' from generate_series(1, 40) g;
  insert into pages (name, title, url, description, place, language, index) select 'page' || g, 'Page ' || g, '/page' || g, 'About ' || g, 'footer', 'en', g from generate_series(1, 30) g;
`);
await create(app, owner, 'social-links', 'social-link', { name: 'Site', link: 'https://example.com' }, of);
await create(app, owner, 'event-copyrights', 'event-copyright', { holder: 'Counted', licence: 'CC BY 4.0' }, of);

async function statements(url: string, token?: string, method = 'GET', body?: unknown) {
  resetQueries();
  const res = await call(app, {
    method,
    url,
    token,
    body,
    ...(method === 'POST' && url.includes('/auth/') ? { headers: { 'content-type': 'application/json' } } : {}),
  });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return { count: queries.length, body: res.body };
}

/** `url` costs `expected` statements at page sizes 1, 20 and 100. */
async function constant(t: Test, url: string, expected: number, token?: string) {
  const counts = [];
  for (const size of [1, 20, 100])
    counts.push((await statements(`${url}${url.includes('?') ? '&' : '?'}page[size]=${size}`, token)).count);
  t.strictSame(counts, [expected, expected, expected], `${url}: ${expected} statements at page sizes 1, 20, 100`);
}

const READS: [name: string, url: string, expected: number, token?: string][] = [
  // The page with its count in one statement.
  ['events list', '/v1/events', 1],
  // The event, the page, its count and every included relationship: one statement.
  ['sessions with speakers, track and room', `/v1/events/${event}/sessions?include=speakers,track,microlocation`, 1],
  ["an event's speakers", `/v1/events/${event}/speakers`, 1],
  // The token's account, then the event with the caller's role in it and the page.
  ["an event's custom forms (organizer)", `/v1/events/${event}/custom-forms`, 2, owner],
  ['pages', '/v1/pages', 1],
];

for (const [name, url, expected, token] of READS) {
  t.test(`${name}: ${expected} statements whatever the page size`, async (t) => constant(t, url, expected, token));
}

t.test('the event with its social links and copyright: one statement', async (t) => {
  t.equal((await statements(`/v1/events/${event}?include=social-links,event-copyright`)).count, 1);
});

t.test('settings: one statement', async (t) => {
  t.equal((await statements('/v1/settings/1')).count, 1);
});

t.test('creating a session: 8 statements', async (t) => {
  // The token's account; in one transaction: the caller's role in the event, its role's service permissions, the
  // event's check, the insert, its line of the activity log.
  const body = {
    data: { type: 'session', attributes: { title: 'New one', state: 'accepted' }, relationships: { ...of } },
  };
  t.equal((await statements('/v1/sessions', owner, 'POST', body)).count, 8);
});

t.test(
  'login: four statements (the brute-force limits, the account, forgiving the failures, the login with its refresh token); the rest is the password hash',
  async (t) => {
    t.equal(
      (
        await statements('/v1/auth/login', undefined, 'POST', {
          email: cast.other.email,
          password: cast.other.password,
        })
      ).count,
      4,
    );
  },
);

/**
 * open-event-frontend:app/routes/public/sessions.js:44-53 (beforeModel): the public sessions page loads
 * `/events/{id}/sessions/dates` through the loader and, while the event runs, opens on today when today
 * is one of them; its model (lines 55-91) then lists the accepted and confirmed sessions of a `date`,
 * from that day's midnight in the event's time zone (`moment.tz(date, event.timezone)`) to the next. So
 * the dates are the days of the event's time zone on which such sessions start (the reference, which
 * took UTC days, offered days the list then shows empty).
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const newEvent = (name: string, state: 'published' | 'draft') =>
  create(app, cast.owner.token, 'events', 'event', { ...eventAttributes(name, state), timezone: 'Asia/Kolkata' });
const event = await newEvent('Dates Conf', 'published');
const identifier = (await call(app, { url: `/v1/events/${event}`, token: cast.owner.token })).body.data.attributes
  .identifier as string;
const draft = await newEvent('Draft Dates', 'draft');
const session = (of: string, title: string, state: string, startsAt: string | null) =>
  create(
    app,
    cast.owner.token,
    'sessions',
    'session',
    {
      title,
      state,
      ...(startsAt
        ? { 'starts-at': startsAt, 'ends-at': new Date(Date.parse(startsAt) + 1_800_000).toISOString() }
        : {}),
    },
    { event: rel('event', of) },
  );
// 20:00 UTC is 01:30 the next day in Kolkata (UTC+05:30); 04:00 UTC is 09:30 the same day.
const late = await session(event, 'Late night', 'accepted', '2030-05-01T20:00:00Z');
await session(event, 'Morning', 'confirmed', '2030-05-01T04:00:00Z');
await session(event, 'Also morning', 'accepted', '2030-05-01T04:00:00Z');
await session(event, 'Under review', 'pending', '2030-05-04T04:00:00Z');
await session(event, 'Not yet scheduled', 'accepted', null);
const gone = await session(event, 'Deleted', 'confirmed', '2030-05-06T04:00:00Z');
await call(app, { method: 'DELETE', url: `/v1/sessions/${gone}`, token: cast.owner.token });
await session(draft, 'In a draft', 'accepted', '2030-05-08T04:00:00Z');

t.test("the days of the scheduled public sessions, in the event's time zone", async (t) => {
  for (const token of [undefined, cast.other.token, cast.owner.token]) {
    const res = await frontEnd(base, token).loader('GET', `/v1/events/${event}/sessions/dates`);
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    t.strictSame(res.body, ['2030-05-01', '2030-05-02'], 'pending, unscheduled and deleted sessions have no day');
  }
  const byIdentifier = await frontEnd(base).loader('GET', `/v1/events/${identifier}/sessions/dates`);
  t.strictSame(byIdentifier.body, ['2030-05-01', '2030-05-02'], 'by identifier too');
});

t.test("each day the page offers lists that day's sessions (sessions.js:55-91)", async (t) => {
  const { body: dates } = await frontEnd(base).loader('GET', `/v1/events/${event}/sessions/dates`);
  const listed: Record<string, string[]> = {};
  for (const date of dates as string[]) {
    // moment.tz('2030-05-01', 'Asia/Kolkata') is 2030-04-30T18:30:00.000Z.
    const from = new Date(Date.parse(`${date}T00:00:00+05:30`));
    const to = new Date(from.getTime() + 86_400_000);
    const res = await frontEnd(base).adapter('GET', `/v1/events/${event}/sessions`, {
      query: {
        include: 'track,speakers,session-type,favourite',
        filter: [
          {
            and: [
              {
                or: [
                  { name: 'state', op: 'eq', val: 'confirmed' },
                  { name: 'state', op: 'eq', val: 'accepted' },
                ],
              },
            ],
          },
          {
            and: [
              { name: 'starts-at', op: 'ge', val: from.toISOString() },
              { name: 'starts-at', op: 'le', val: to.toISOString() },
            ],
          },
        ],
        sort: 'starts-at,id',
        'page[size]': 6,
        'page[number]': 1,
      },
    });
    t.equal(res.status, 200);
    listed[date] = res.body.data.map((s: { attributes: { title: string } }) => s.attributes.title);
  }
  t.strictSame(listed, { '2030-05-01': ['Morning', 'Also morning'], '2030-05-02': ['Late night'] });
});

t.test('a withdrawn session leaves the days', async (t) => {
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/sessions/${late}`,
    token: cast.owner.token,
    body: { data: { type: 'session', id: late, attributes: { state: 'withdrawn' } } },
  });
  t.equal(res.status, 200);
  t.strictSame((await frontEnd(base).loader('GET', `/v1/events/${event}/sessions/dates`)).body, ['2030-05-01']);
});

t.test("a draft's days are its team's; unknown events and parameters are refused", async (t) => {
  for (const token of [undefined, cast.other.token]) {
    const res = await frontEnd(base, token).loader('GET', `/v1/events/${draft}/sessions/dates`);
    t.equal(res.status, 404);
    t.match(res.body.errors[0], { status: '404', detail: 'Event not found' });
  }
  t.strictSame((await frontEnd(base, cast.owner.token).loader('GET', `/v1/events/${draft}/sessions/dates`)).body, [
    '2030-05-08',
  ]);
  t.equal((await frontEnd(base).loader('GET', '/v1/events/999999/sessions/dates')).status, 404);
  t.equal((await frontEnd(base).loader('GET', '/v1/events/no-such-event/sessions/dates')).status, 404);
  const bad = await frontEnd(base).loader('GET', `/v1/events/${event}/sessions/dates?date=2030-05-01`);
  t.equal(bad.status, 400);
  t.match(bad.body.errors[0], { source: { parameter: 'date' } });
  t.equal(
    (await frontEnd(base).loader('GET', `/v1/events/${event}/sessions/dates?cache=true&public=true`)).status,
    200,
  );
  const forged = await frontEnd(base, 'not.a.token').loader('GET', `/v1/events/${event}/sessions/dates`);
  t.equal(forged.status, 401);
});

/**
 * open-event-frontend:app/routes/admin/sessions/list.js:14-94: the administrator's sessions tables, one
 * `store.query('session', ...)` each with `get_trashed: true` and `include: 'event,speakers'`. The state
 * tabs (SESSION_STATES: pending, accepted, confirmed, rejected, withdrawn, canceled) want live sessions
 * of live events; `deleted` wants the deleted sessions and those of deleted events (an `or` with the
 * event's `deleted-at` through `has`); no tab wants every session of a live event, deleted ones too. The
 * route also reads the administrator's feedbacks.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: live } = await createEvent(app, cast, 'Live Conf', 'published');
const { id: doomed } = await createEvent(app, cast, 'Doomed Conf', 'published');
const session = (event: string, title: string, state: string) =>
  create(app, cast.owner.token, 'sessions', 'session', { title, state }, { event: rel('event', event) });
const accepted = await session(live, 'Accepted talk', 'accepted');
const withdrawn = await session(live, 'Withdrawn talk', 'accepted');
const removed = await session(live, 'Deleted talk', 'accepted');
const orphan = await session(doomed, 'Talk of a deleted event', 'confirmed');
const del = async (url: string) => {
  const res = await call(app, { method: 'DELETE', url, token: cast.owner.token });
  if (res.status !== 200) throw new Error(`DELETE ${url}: ${res.status}`);
};
const moved = await call(app, {
  method: 'PATCH',
  url: `/v1/sessions/${withdrawn}`,
  token: cast.organizer.token,
  body: { data: { type: 'session', id: withdrawn, attributes: { state: 'withdrawn' } } },
});
if (moved.status !== 200) throw new Error(`withdrawing: ${moved.status}`);
await del(`/v1/sessions/${removed}`);
await del(`/v1/events/${doomed}`);
const admin = frontEnd(base, cast.admin.token);

const eventLive = (op: 'eq' | 'ne') => ({ name: 'event', op: 'has', val: { name: 'deleted-at', op, val: null } });
/** The route's query for a tab's filter (lines 79-87). */
const tab = (filter: unknown[]) => ({
  get_trashed: true,
  include: 'event,speakers',
  filter,
  'page[size]': 10,
  'page[number]': 1,
});
const stateTab = (state: string) =>
  tab([
    {
      and: [eventLive('eq'), { name: 'deleted-at', op: 'eq', val: null }, { name: 'state', op: 'eq', val: state }],
    },
  ]);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((s) => s.id);

t.test('the withdrawn tab and the other state tabs', async (t) => {
  const res = await admin.adapter('GET', '/v1/sessions', { query: stateTab('withdrawn') });
  t.equal(res.status, 200);
  t.strictSame(ids(res), [withdrawn]);
  t.strictSame(res.body.data[0].relationships.event.data, { type: 'event', id: live });
  t.strictSame(ids(await admin.adapter('GET', '/v1/sessions', { query: stateTab('accepted') })), [accepted]);
  t.strictSame(
    ids(await admin.adapter('GET', '/v1/sessions', { query: stateTab('confirmed') })),
    [],
    'the session of the deleted event is in no state tab',
  );
});

t.test('the deleted tab: deleted sessions and the sessions of deleted events, with their events', async (t) => {
  const res = await admin.adapter('GET', '/v1/sessions', {
    query: tab([{ or: [eventLive('ne'), { name: 'deleted-at', op: 'ne', val: null }] }]),
  });
  t.equal(res.status, 200);
  t.strictSame(ids(res), [removed, orphan]);
  t.match(res.body.data[0].attributes['deleted-at'], /^\d{4}-/);
  t.equal(res.body.data[1].attributes['deleted-at'], null, 'a live session of a deleted event');
  const events = res.body.included.filter((r: { type: string }) => r.type === 'event');
  t.strictSame(
    events.map((e: { id: string; attributes: { 'deleted-at': string | null } }) => [
      e.id,
      e.attributes['deleted-at'] !== null,
    ]),
    [
      [live, false],
      [doomed, true],
    ],
    'the deleted event is included, deleted-at set',
  );
});

t.test('no tab: the sessions of live events, deleted ones too', async (t) => {
  const res = await admin.adapter('GET', '/v1/sessions', { query: tab([eventLive('eq')]) });
  t.strictSame(ids(res), [accepted, withdrawn, removed]);
  const feedbacks = await admin.adapter('GET', `/v1/users/${cast.admin.id}/feedbacks`);
  t.equal(feedbacks.status, 200, "the route's feedbacks");
});

t.test("the tables are the administrators': get_trashed is refused to others", async (t) => {
  for (const who of [cast.owner, cast.organizer, cast.speaker]) {
    const res = await frontEnd(base, who.token).adapter('GET', '/v1/sessions', { query: stateTab('withdrawn') });
    t.equal(res.status, 403);
    t.match(res.body.errors[0], { source: { parameter: 'get_trashed' } });
  }
  t.equal((await frontEnd(base).adapter('GET', '/v1/sessions', { query: stateTab('withdrawn') })).status, 401);
  const plain = await frontEnd(base, cast.owner.token).adapter('GET', `/v1/events/${live}/sessions`, {
    query: { filter: [{ name: 'deleted-at', op: 'ne', val: null }] },
  });
  t.strictSame(ids(plain), [], "without it, deleted sessions are nobody's");
});

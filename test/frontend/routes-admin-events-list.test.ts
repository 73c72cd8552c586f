/**
 * open-event-frontend:app/routes/admin/events/list.js:21-128: the administrator's events tables. Each tab
 * is one `store.query('event', ...)` with `get_trashed: true` and a filter on `deleted-at`: `deleted`
 * lists the deleted events (the reference's `?get_trashed=true` showed them), `live`, `past` and `draft`
 * only live ones. The route also includes `general-statistics`, which the statistics part of issue 40
 * adds; the includes below are the rest of its list.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
await createEvent(app, cast, 'Live Conf', 'published');
await createEvent(app, cast, 'Draft Conf', 'draft');
const gone = await createEvent(app, cast, 'Gone Conf', 'published');
const goneDraft = await createEvent(app, cast, 'Gone Draft', 'draft');
for (const { id } of [gone, goneDraft]) {
  const res = await call(app, { method: 'DELETE', url: `/v1/events/${id}`, token: cast.owner.token });
  if (res.status !== 200) throw new Error(`deleting event ${id}: ${res.status}`);
}
const admin = frontEnd(base, cast.admin.token);
const now = new Date().toISOString();

/** The route's query for a tab (lines 116-126), with its filter (lines 25-113); no search, no sort. */
const tab = (filter: unknown[]) => ({
  get_trashed: true,
  include: 'roles.role,roles.user',
  filter,
  'page[size]': 10,
  'page[number]': 1,
});
const names = (res: { body: { data: { attributes: { name: string } }[] } }) =>
  res.body.data.map((e) => e.attributes.name).sort();

t.test('the deleted tab: deleted events, drafts too, with deleted-at and their roles', async (t) => {
  const res = await admin.adapter('GET', '/v1/events', { query: tab([{ name: 'deleted-at', op: 'ne', val: null }]) });
  t.equal(res.status, 200);
  t.strictSame(names(res), ['Gone Conf', 'Gone Draft']);
  t.equal(res.body.meta.count, 2);
  for (const event of res.body.data) {
    t.match(event.attributes['deleted-at'], /^\d{4}-\d\d-\d\dT/, `${event.attributes.name}: deleted-at`);
    t.equal(event.relationships.roles.data.length, 3, `${event.attributes.name}: owner, organizer, coorganizer`);
  }
  const roles = res.body.included.filter((r: { type: string }) => r.type === 'users-events-roles');
  t.equal(roles.length, 6, "the deleted events' roles are included");
  t.ok(
    res.body.included.some((r: { type: string; id: string }) => r.type === 'user' && r.id === cast.owner.id),
    'and the users holding them',
  );
});

t.test('the live and draft tabs list live events only', async (t) => {
  const liveTab = tab([
    {
      and: [
        { name: 'deleted-at', op: 'eq', val: null },
        { name: 'state', op: 'eq', val: 'published' },
        {
          or: [
            { name: 'starts-at', op: 'ge', val: now },
            {
              and: [
                { name: 'starts-at', op: 'le', val: now },
                { name: 'ends-at', op: 'gt', val: now },
              ],
            },
          ],
        },
      ],
    },
  ]);
  const res = await admin.adapter('GET', '/v1/events', { query: liveTab });
  t.equal(res.status, 200);
  t.strictSame(names(res), ['Live Conf']);
  t.equal(res.body.data[0].attributes['deleted-at'], null);
  const drafts = await admin.adapter('GET', '/v1/events', {
    query: tab([
      {
        and: [
          { name: 'deleted-at', op: 'eq', val: null },
          { name: 'state', op: 'eq', val: 'draft' },
        ],
      },
    ]),
  });
  t.strictSame(names(drafts), ['Draft Conf']);
  const all = await admin.adapter('GET', '/v1/events', { query: tab([]) });
  t.strictSame(names(all), ['Draft Conf', 'Gone Conf', 'Gone Draft', 'Live Conf'], 'no tab: every event');
});

t.test(
  'the same query is refused to anyone but administrators, and a deleted event stays 404 without it',
  async (t) => {
    const query = tab([{ name: 'deleted-at', op: 'ne', val: null }]);
    const owner = await frontEnd(base, cast.owner.token).adapter('GET', '/v1/events', { query });
    t.equal(owner.status, 403);
    t.match(owner.body.errors[0], {
      source: { parameter: 'get_trashed' },
      detail: 'Only administrators read deleted records',
    });
    const anonymous = await frontEnd(base).adapter('GET', '/v1/events', { query });
    t.equal(anonymous.status, 401);
    t.equal((await admin.adapter('GET', `/v1/events/${gone.id}`)).status, 404, 'the administrator without get_trashed');
    const read = await admin.adapter('GET', `/v1/events/${gone.identifier}`, { query: { get_trashed: true } });
    t.equal(read.status, 200, 'with it, by identifier too');
    t.equal(read.body.data.id, gone.id);
    const withoutIt = await admin.adapter('GET', '/v1/events', {
      query: { filter: [{ name: 'deleted-at', op: 'ne', val: null }] },
    });
    t.equal(withoutIt.body.meta.count, 0, 'without get_trashed the deleted tab is empty');
  },
);

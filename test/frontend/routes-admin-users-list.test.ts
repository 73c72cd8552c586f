/**
 * open-event-frontend:app/routes/admin/users/list.js:28-97: the administrator's users tables, each one
 * `store.query('user', ...)` with `include: 'events'`, `get_trashed: true` and a filter on `deleted-at`;
 * the search box adds an `or` of `first-name`, `last-name` and `email`, which is `{"or": []}` while it is
 * empty (app/mixins/ember-table-route.js:33-59). The `deleted` tab lists the deleted accounts.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Users Conf', 'published');
const leaver = await seedUser(app);
await call(app, {
  method: 'PATCH',
  url: `/v1/users/${leaver.id}`,
  token: leaver.token,
  body: { data: { type: 'user', id: leaver.id, attributes: { 'first-name': 'Lea', 'last-name': 'Ver' } } },
});
// The organizer of the event leaves too: the events they hold a role in stay theirs to see here.
const deleted = [leaver, cast.organizer];
for (const user of deleted) {
  const res = await call(app, { method: 'DELETE', url: `/v1/users/${user.id}`, token: cast.admin.token });
  if (res.status !== 200) throw new Error(`deleting user ${user.id}: ${res.status}`);
}
const admin = frontEnd(base, cast.admin.token);

/** The route's query (lines 86-92) for a tab's filter and a search (empty: `{"or": []}`). */
const tab = (filter: unknown[], search?: string) => ({
  include: 'events',
  get_trashed: true,
  filter: [
    ...filter,
    {
      or: search ? ['first-name', 'last-name', 'email'].map((name) => ({ name, op: 'ilike', val: `%${search}%` })) : [],
    },
  ],
  'page[size]': 10,
  'page[number]': 1,
});
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((u) => u.id).sort((a, b) => +a - +b);

t.test('the deleted tab lists the deleted accounts, with deleted-at and their events', async (t) => {
  const res = await admin.adapter('GET', '/v1/users', { query: tab([{ name: 'deleted-at', op: 'ne', val: null }]) });
  t.equal(res.status, 200);
  t.strictSame(
    ids(res),
    [cast.organizer.id, leaver.id].sort((a, b) => +a - +b),
  );
  for (const user of res.body.data) t.match(user.attributes['deleted-at'], /^\d{4}-/, `user ${user.id}: deleted-at`);
  const organizer = res.body.data.find((u: { id: string }) => u.id === cast.organizer.id);
  t.strictSame(organizer.relationships.events.data, [{ type: 'event', id: event }], "the organizer's event");
  t.strictSame(
    res.body.included.map((r: { type: string; id: string }) => `${r.type} ${r.id}`),
    [`event ${event}`],
  );
  const searched = await admin.adapter('GET', '/v1/users', {
    query: tab([{ name: 'deleted-at', op: 'ne', val: null }], 'lea'),
  });
  t.strictSame(ids(searched), [leaver.id], 'searched by first name');
});

t.test('the all tab counts every account, the deleted ones too; an empty search is no condition', async (t) => {
  const all = await admin.adapter('GET', '/v1/users', { query: { ...tab([]), 'page[size]': 0 } });
  t.equal(all.status, 200);
  const total = Number((await app.sql`select count(*)::int as n from users`)[0]!.n);
  t.equal(all.body.meta.count, total);
  t.ok(
    deleted.every((u) => all.body.data.some((r: { id: string }) => r.id === u.id)),
    'the deleted accounts are in it',
  );
  const liveOnly = await admin.adapter('GET', '/v1/users', {
    query: tab([{ name: 'deleted-at', op: 'eq', val: null }]),
  });
  t.equal(liveOnly.body.meta.count, total - deleted.length);
});

t.test('anyone but an administrator is refused; without it a deleted account is 404', async (t) => {
  const query = tab([{ name: 'deleted-at', op: 'ne', val: null }]);
  const other = await frontEnd(base, cast.other.token).adapter('GET', '/v1/users', { query });
  t.equal(other.status, 403);
  t.match(other.body.errors[0], { source: { parameter: 'get_trashed' } });
  t.equal((await frontEnd(base).adapter('GET', '/v1/users', { query })).status, 401);
  t.equal((await admin.adapter('GET', `/v1/users/${leaver.id}`)).status, 404);
  const read = await admin.adapter('GET', `/v1/users/${leaver.id}`, { query: { get_trashed: true } });
  t.equal(read.status, 200);
  t.equal(read.body.data.attributes['first-name'], 'Lea');
});

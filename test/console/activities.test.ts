/**
 * The activity log (/v1/activities): each change the reference logs leaves its line, worded as its ACTIVITIES, by
 * its actor, in the transaction of the change (a write that fails leaves none); administrators alone read it.
 */
import t from 'tap';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes, fillEvent, rel } from '../helpers/events.js';
import { createTicket } from '../helpers/tickets.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const actor = `${cast.owner.email} (${cast.owner.id})`;

/** The lines logged since `after` (an activity id), oldest first. */
async function linesAfter(after: number) {
  return app.sql<
    { actor: string | null; action: string }[]
  >`select actor, action from activities where id > ${after} order by id`;
}
const lastId = async () =>
  (await app.sql<{ id: number }[]>`select coalesce(max(id), 0)::int as id from activities`)[0]!.id;

const patch = (
  url: string,
  type: string,
  id: string,
  attributes: Record<string, unknown>,
  token = cast.owner.token,
  relationships?: Record<string, unknown>,
) =>
  call(app, {
    method: 'PATCH',
    url,
    token,
    body: { data: { type, id, attributes, ...(relationships ? { relationships } : {}) } },
  });

t.test('events: created (with the roles it grants), updated, published, un-published, deleted', async (t) => {
  const start = await lastId();
  const id = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Logged Camp', 'draft'), {
    organizers: { data: [{ type: 'user', id: cast.organizer.id }] },
  });
  t.equal((await patch(`/v1/events/${id}`, 'event', id, { name: 'Logged Camp 2' })).status, 200);
  t.equal((await patch(`/v1/events/${id}`, 'event', id, { state: 'published' })).status, 200);
  t.equal((await patch(`/v1/events/${id}`, 'event', id, { state: 'draft' })).status, 200);
  const coorganizers = {
    coorganizers: { data: [{ type: 'user', id: cast.coorganizer.id }] },
    organizers: { data: [] },
  };
  t.equal((await patch(`/v1/events/${id}`, 'event', id, {}, cast.owner.token, coorganizers)).status, 200);
  t.equal((await call(app, { method: 'DELETE', url: `/v1/events/${id}`, token: cast.owner.token })).status, 200);
  const user = (u: { email: string; id: string }) => `"${u.email}" (${u.id})`;
  t.same(await linesAfter(start), [
    { actor, action: `Event ${id} created` },
    { actor, action: `Role "Organizer" created for user ${user(cast.organizer)} in event ${id}` },
    { actor, action: `Event ${id} updated` },
    { actor, action: `Event ${id} updated` },
    { actor, action: `Event ${id} published` },
    { actor, action: `Event ${id} updated` },
    { actor, action: `Event ${id} un-published` },
    { actor, action: `Event ${id} updated` },
    { actor, action: `User ${user(cast.organizer)} removed from role "Organizer" in event ${id}` },
    { actor, action: `Role "Co-organizer" created for user ${user(cast.coorganizer)} in event ${id}` },
    { actor, action: `Event ${id} deleted` },
  ]);
});

t.test('sessions, tracks and speakers: created, updated, deleted', async (t) => {
  const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Records Camp'));
  const start = await lastId();
  const records = await fillEvent(app, cast, event);
  const lines = (await linesAfter(start)).map((l) => l.action);
  t.ok(lines.includes(`Track "Web" (${records.track}) was created in event ${event}`), 'track created');
  t.ok(lines.includes(`Speaker "Ada" (${records.speaker}) was created in event ${event}`), 'speaker created');
  t.ok(lines.includes(`Session "Opening" (${records.session}) was created in event ${event}`), 'session created');

  const next = await lastId();
  t.equal((await patch(`/v1/tracks/${records.track}`, 'track', records.track, { name: 'Mobile' })).status, 200);
  t.equal(
    (await patch(`/v1/sessions/${records.session}`, 'session', records.session, { title: 'Keynote' })).status,
    200,
  );
  t.equal((await patch(`/v1/speakers/${records.speaker}`, 'speaker', records.speaker, { name: 'Grace' })).status, 200);
  for (const [path, id] of [
    ['sessions', records.session],
    ['speakers', records.speaker],
  ] as const)
    t.equal((await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token: cast.owner.token })).status, 200);
  t.same(
    (await linesAfter(next)).map((l) => l.action),
    [
      `Track "Mobile" (${records.track}) of event ${event} updated`,
      `Session "Keynote" (${records.session}) of event ${event} updated`,
      `Speaker "Grace" (${records.speaker}) of event ${event} updated`,
      `Session "Keynote" (${records.session}) of event ${event} deleted`,
      `Speaker "Grace" (${records.speaker}) of event ${event} deleted`,
    ],
  );
});

t.test('users: created (by nobody yet), updated, granted and revoked system admin, deleted', async (t) => {
  const start = await lastId();
  const signup = await call(app, {
    method: 'POST',
    url: '/v1/users',
    body: { data: { type: 'user', attributes: { email: 'logged@example.org', password: 'a long password 1' } } },
  });
  t.equal(signup.status, 201);
  const id = signup.body.data.id as string;
  const admin = await seedUser(app, { admin: true, superAdmin: true });
  t.equal((await patch(`/v1/users/${id}`, 'user', id, { 'is-admin': true }, admin.token)).status, 200);
  t.equal((await patch(`/v1/users/${id}`, 'user', id, { 'is-admin': false }, admin.token)).status, 200);
  t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${id}`, token: admin.token })).status, 200);
  const by = `${admin.email} (${admin.id})`;
  const user = `"logged@example.org" (${id})`;
  t.same(await linesAfter(start), [
    { actor: 'Anonymous', action: `User ${user} created` },
    { actor: by, action: `Profile of user ${user} updated` },
    { actor: by, action: `User ${user} granted system admin` },
    { actor: by, action: `Profile of user ${user} updated` },
    { actor: by, action: `User ${user} revoked system admin` },
    { actor: by, action: `User ${user} deleted` },
  ]);
});

t.test('role invites: the invitation sent', async (t) => {
  const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Invite Camp'));
  const start = await lastId();
  await create(
    app,
    cast.owner.token,
    'role-invites',
    'role-invite',
    { email: 'invitee@example.org', 'role-name': 'coorganizer' },
    { event: rel('event', event) },
  );
  t.same(await linesAfter(start), [
    { actor, action: `Invitation sent to user invitee@example.org for event ${event}` },
  ]);
});

t.test('a write that fails leaves no line: refused by the policy, or failing at its statement', async (t) => {
  const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Failing Camp'));
  const start = await lastId();
  assertError(t, await patch(`/v1/events/${event}`, 'event', event, { name: 'Nope' }, cast.other.token), 403);
  assertError(t, await call(app, { method: 'DELETE', url: `/v1/events/${event}`, token: cast.other.token }), 403);
  // The update's own statement fails (a unique address taken): its line, written before it, goes with it.
  const taken = await patch(
    `/v1/users/${cast.other.id}`,
    'user',
    cast.other.id,
    { email: cast.owner.email },
    cast.other.token,
  );
  t.equal(taken.status, 409);
  t.same(await linesAfter(start), [], 'nothing logged');
});

t.test('orders: completed', async (t) => {
  const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Order Camp'));
  const order = await create(app, cast.other.token, 'orders', 'order', {}, { event: rel('event', event) });
  const [row] = await app.sql<{ identifier: string }[]>`select identifier from orders where id = ${Number(order)}`;
  const start = await lastId();
  // A free order: its buyer completes it.
  const done = await patch(`/v1/orders/${order}`, 'order', order, { status: 'completed' }, cast.other.token);
  t.equal(done.status, 200, JSON.stringify(done.body));
  t.same(
    (await linesAfter(start)).map((l) => l.action),
    [`Order ${row!.identifier} of event ${event} completed`],
  );

  // Sold at the door: a free order is created completed.
  const ticket = await createTicket(app, cast.owner.token, event, { name: 'Door' });
  const before = await lastId();
  const door = await call(app, {
    method: 'POST',
    url: '/v1/orders?onsite=true',
    token: cast.owner.token,
    body: {
      data: {
        type: 'order',
        attributes: {
          status: 'completed',
          'on-site-tickets': [{ data: { type: 'on-site-ticket', attributes: { id: ticket, quantity: 1 } } }],
        },
        relationships: { event: rel('event', event) },
      },
    },
  });
  t.equal(door.status, 201, JSON.stringify(door.body));
  t.same(
    (await linesAfter(before)).map((l) => l.action),
    [`Order ${door.body.data.attributes.identifier} of event ${event} completed`],
  );
});

t.test('the log is for administrators: 401, 403, then the lines newest first, filtered by actor', async (t) => {
  assertError(t, await call(app, { url: '/v1/activities' }), 401);
  assertError(t, await call(app, { url: '/v1/activities', token: cast.owner.token }), 403);
  const [one] = await app.sql<{ id: number }[]>`select id from activities order by id limit 1`;
  assertError(t, await call(app, { url: `/v1/activities/${one!.id}`, token: cast.owner.token }), 403);
  const filter = encodeURIComponent(JSON.stringify([{ name: 'actor', op: 'ilike', val: `%${cast.owner.email}%` }]));
  const res = await call(app, {
    url: `/v1/activities?sort=-time&filter=${filter}&page[size]=100`,
    token: cast.admin.token,
  });
  t.equal(res.status, 200);
  t.ok(res.body.data.length > 5);
  t.ok(
    res.body.data.every((a: { attributes: { actor: string } }) => a.attributes.actor === actor),
    "the owner's lines only",
  );
  const detail = await call(app, { url: `/v1/activities/${one!.id}`, token: cast.admin.token });
  t.same(Object.keys(detail.body.data.attributes).sort(), ['action', 'actor', 'time']);
  const post = await call(app, {
    method: 'POST',
    url: '/v1/activities',
    token: cast.admin.token,
    body: { data: { type: 'activity', attributes: { action: 'forged' } } },
  });
  t.ok(post.status === 404 || post.status === 405, 'nobody writes the log');
});

/**
 * A to-many relationship that joins through a view (a user's `events`, through `user_events`) filters
 * with `has`/`any` like any other: drizzle renders an aliased view as its alias alone, which the filter
 * compiler must not send to PostgreSQL (it answered 500; found by the contract fuzzer).
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const admin = await seedUser(app, { superAdmin: true });

t.test('users filtered by their events (through the user_events view)', async (t) => {
  const q = (filter: unknown) =>
    call(app, {
      url: `/v1/users?page[size]=100&filter=${encodeURIComponent(JSON.stringify(filter))}`,
      token: admin.token,
    });
  const holders = await q([{ name: 'events', op: 'any', val: { name: 'id', op: 'eq', val: world.published.event } }]);
  t.equal(holders.status, 200);
  const { owner, organizer, coorganizer, speaker } = world.cast;
  t.same(
    holders.body.data.map((u: { id: string }) => u.id).sort(),
    [owner.id, organizer.id, coorganizer.id].sort(),
    'owner, organizer, coorganizer',
  );
  const others = await q([
    { not: { name: 'events', op: 'has', val: { name: 'id', op: 'eq', val: world.published.event } } },
  ]);
  t.equal(others.status, 200);
  t.ok(
    others.body.data.some((u: { id: string }) => u.id === speaker.id),
    'the speaker holds no role',
  );
  t.notOk(others.body.data.some((u: { id: string }) => u.id === owner.id));
});

/**
 * The speakers list of the event dashboard (app/routes/events/view/speakers/list.js): its "without session"
 * tab filters `{"name":"sessions","op":"eq","val":null}`, a null test on a to-many relationship.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const token = world.cast.owner.token;
const event = world.published.event;
const idle = await create(
  app,
  token,
  'speakers',
  'speaker',
  { name: 'Idle', email: 'idle@example.org' },
  {
    event: rel('event', event),
  },
);
const list = (filter: unknown) =>
  call(app, {
    url: `/v1/events/${event}/speakers?include=sessions&filter=${encodeURIComponent(JSON.stringify(filter))}&page[size]=10&page[number]=1&sort=name`,
    token,
  });

t.test('"without session": eq null on the to-many sessions lists the speakers linked to no session', async (t) => {
  const res = await list([{ name: 'sessions', op: 'eq', val: null }]);
  t.equal(res.status, 200);
  t.strictSame(
    res.body.data.map((s: { id: string }) => s.id),
    [idle],
  );
});

t.test('ne null lists those linked to some session', async (t) => {
  const res = await list([{ name: 'sessions', op: 'ne', val: null }]);
  t.equal(res.status, 200);
  t.strictSame(
    res.body.data.map((s: { id: string }) => s.id),
    [world.published.speaker],
  );
});

t.test('an id on a to-many stays refused: which of the sessions would it mean', async (t) => {
  const res = await list([{ name: 'sessions', op: 'eq', val: world.published.session }]);
  t.equal(res.status, 400);
  t.match(res.body.errors[0].detail, /to-many relationship: filter it with "has" or "any", or with "eq" or "ne" null/);
});

/**
 * The reference's paths that its clients and its API Blueprint still call (app/api/routes.py): the related lists
 * under their reference names (`/v1/events/{id}/users-events-roles`, `/feedbacks`, `/user-favourite-sessions`, the
 * same under a user and a session), `/v1/tax/{id}/event`, and `/v1/users/user-details/get-user-id`
 * (app/api/custom/users.py). Each answers what the canonical path answers, to the same callers.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast, published } = world;
const event = published.event;

const ids = async (url: string, token?: string) => {
  const res = await call(app, { url, token });
  t.equal(res.status, 200, url);
  return (res.body.data as { id: string; type: string }[]).map((r) => `${r.type}/${r.id}`).sort();
};

// A rating of the event by an outsider and one of its session by the organizer; favourites of both.
await create(app, cast.other.token, 'feedbacks', 'feedback', { rating: 4 }, { event: rel('event', event) });
await create(
  app,
  cast.organizer.token,
  'feedbacks',
  'feedback',
  { rating: 5 },
  {
    session: rel('session', published.session),
  },
);
for (const who of [cast.other, cast.organizer])
  await create(
    app,
    who.token,
    'user-favourite-sessions',
    'user-favourite-session',
    {},
    {
      session: rel('session', published.session),
    },
  );

t.test("an event's lists under the reference's names answer as the canonical ones", async (t) => {
  const roles = await ids(`/v1/events/${event}/roles`, cast.owner.token);
  t.ok(roles.length >= 3, 'owner, organizer, coorganizer');
  t.ok(
    roles.every((r) => r.startsWith('users-events-roles/')),
    "the reference's type, users-events-roles",
  );
  t.strictSame(await ids(`/v1/events/${event}/users-events-roles`, cast.owner.token), roles);
  t.strictSame(
    await ids(`/v1/events/${event}/user-favourite-sessions`, cast.organizer.token),
    await ids(`/v1/events/${event}/session-favourites`, cast.organizer.token),
  );
  t.equal((await ids(`/v1/events/${event}/user-favourite-sessions`, cast.organizer.token)).length, 2);
});

t.test("an event's feedbacks: all for its organizers, the caller's own for anyone else", async (t) => {
  t.equal((await ids(`/v1/events/${event}/feedbacks`, cast.organizer.token)).length, 2, 'event and session ratings');
  t.equal((await ids(`/v1/events/${event}/feedbacks`, cast.other.token)).length, 1, 'their own rating only');
  t.strictSame(await ids(`/v1/events/${event}/feedbacks`, cast.speaker.token), [], 'nothing of others');
});

t.test("a user's and a session's favourites under user-favourite-sessions", async (t) => {
  const mine = `/v1/users/${cast.other.id}`;
  t.strictSame(
    await ids(`${mine}/user-favourite-sessions`, cast.other.token),
    await ids(`${mine}/favourites`, cast.other.token),
  );
  t.equal((await ids(`${mine}/user-favourite-sessions`, cast.other.token)).length, 1);
  expectError(t, await call(app, { url: `${mine}/user-favourite-sessions`, token: cast.speaker.token }), 403);
  const session = `/v1/sessions/${published.session}`;
  t.strictSame(
    await ids(`${session}/user-favourite-sessions`, cast.other.token),
    await ids(`${session}/favourites`, cast.other.token),
    'an attendee sees their own favourite only',
  );
});

t.test("a tax's event under /v1/tax", async (t) => {
  const tax = await create(
    app,
    cast.owner.token,
    'taxes',
    'tax',
    { name: 'VAT', rate: 19 },
    {
      event: rel('event', event),
    },
  );
  const res = await call(app, { url: `/v1/tax/${tax}/event` });
  t.equal(res.status, 200);
  t.equal(res.body.data.id, event);
  t.strictSame(res.body, (await call(app, { url: `/v1/taxes/${tax}/event` })).body, 'the same document');
});

t.test('get-user-id answers the caller their own id, and nobody without a login', async (t) => {
  for (const who of [cast.other, cast.admin]) {
    const res = await call(app, { url: '/v1/users/user-details/get-user-id', token: who.token });
    t.equal(res.status, 200);
    t.strictSame(res.body, { user_id: Number(who.id) });
  }
  expectError(t, await call(app, { url: '/v1/users/user-details/get-user-id' }), 401);
});

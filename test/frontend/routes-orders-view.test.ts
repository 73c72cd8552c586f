/**
 * An order's page (app/routes/orders/view.js, pending.js): the loader first posts
 * `/v1/orders/{identifier}/verify` with the JSON:API content type and no body, then reads the order. The
 * organizers' order list (app/routes/events/view/tickets/orders/list.js) includes each buyer's user record.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const world = await buildWorld(app);
const buyer = await seedUser(app);
const order = await create(app, buyer.token, 'orders', 'order', {}, { event: rel('event', world.published.event) });
const identifier = (await call(app, { url: `/v1/orders/${order}`, token: buyer.token })).body.data.attributes
  .identifier;

const verify = (token?: string, id = identifier) =>
  fetch(`${base}/v1/orders/${id}/verify?`, {
    method: 'POST',
    headers: {
      Accept: 'application/vnd.api+json',
      'Content-Type': 'application/vnd.api+json',
      ...(token ? { Authorization: `JWT ${token}` } : {}),
    },
  });

t.test('verify answers the stored status to the buyer and the organizers, with no body sent', async (t) => {
  for (const token of [buyer.token, world.cast.organizer.token, world.cast.admin.token]) {
    const res = await verify(token);
    t.equal(res.status, 200);
    t.strictSame(await res.json(), { payment_status: 'initializing' });
  }
});

t.test('verify: nobody else learns that the order exists', async (t) => {
  t.equal((await verify(undefined)).status, 401, 'anonymous: 401');
  const other = await verify(world.cast.other.token);
  t.equal(other.status, 404, 'another user: 404, as for an order that does not exist');
  t.equal((await verify(buyer.token, 'no-such-order')).status, 404);
});

t.test("the organizers' order list includes each buyer; user records stay private", async (t) => {
  const orders = (token: string) =>
    call(app, { url: `/v1/events/${world.published.event}/orders?include=tickets,user,attendees`, token });
  for (const who of ['organizer', 'coorganizer'] as const) {
    const res = await orders(world.cast[who].token);
    t.equal(res.status, 200);
    t.strictSame(
      res.body.included.filter((r: { type: string }) => r.type === 'user').map((u: { id: string }) => u.id),
      [buyer.id],
      `the ${who} sees the buyer included`,
    );
  }
  const read = (token: string, id: string) => call(app, { url: `/v1/users/${id}`, token });
  t.equal((await read(world.cast.organizer.token, buyer.id)).status, 403, "the record itself stays the user's");
  t.equal((await read(world.cast.other.token, buyer.id)).status, 403);
});

t.test("an event's role list is read by anyone who sees the event, holding only the users they may see", async (t) => {
  const list = (token: string) => call(app, { url: `/v1/events/${world.published.event}/coorganizers`, token });
  const outsider = await list(world.cast.other.token);
  t.equal(outsider.status, 200, 'no 403 (app/models/event.js hasAccess reads it on the call-for-speakers pages)');
  t.strictSame(outsider.body.data, [], 'an outsider sees no one');
  const team = await list(world.cast.organizer.token);
  t.strictSame(
    team.body.data.map((u: { id: string }) => u.id),
    [world.cast.coorganizer.id],
    'the team sees its coorganizers',
  );
});

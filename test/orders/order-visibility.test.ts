/**
 * The order visibility matrix. Three orders: P1 (the buyer's, on the published event), P2 (another
 * buyer's, same event) and S1 (the buyer's, on a second event owned by `other`). Every read route of
 * orders is asked by every kind of caller, and the answer is checked against one table: the status,
 * and for 200 exactly which orders (or which linkage) the caller gets.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, eventAttributes, expectCell, rel } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const WHO = [
  'anonymous',
  'buyer',
  'other user',
  'owner',
  'organizer',
  'coorganizer',
  'organizer of another event',
  'admin',
] as const;
type Who = (typeof WHO)[number];
type Key = 'P1' | 'P2' | 'S1';
/** A status, or exactly these orders (200). */
type Cell = number | Key[];

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const buyer = await seedUser(app);
const buyer2 = await seedUser(app);
const pub = world.published.event;
// `cast.other` owns a second event; `cast.speaker` holds no role in any event and bought nothing.
const second = await create(app, cast.other.token, 'events', 'event', eventAttributes('Other Fest'));
const order = (token: string, event: string, name: string) =>
  create(
    app,
    token,
    'orders',
    'order',
    { attendees: [{ name, email: `${name.toLowerCase()}@example.org` }] },
    { event: rel('event', event) },
  );
const ORDERS: Record<Key, string> = {
  P1: await order(buyer.token, pub, 'Ada'),
  P2: await order(buyer2.token, pub, 'Grace'),
  S1: await order(buyer.token, second, 'Alan'),
};
const identifierOf = async (id: string) =>
  (await call(app, { url: `/v1/orders/${id}`, token: cast.admin.token })).body.data.attributes.identifier as string;
const P1_IDENTIFIER = await identifierOf(ORDERS.P1);

const TOKENS: Record<Who, string | undefined> = {
  anonymous: undefined,
  buyer: buyer.token,
  'other user': cast.speaker.token,
  owner: cast.owner.token,
  organizer: cast.organizer.token,
  coorganizer: cast.coorganizer.token,
  'organizer of another event': cast.other.token,
  admin: cast.admin.token,
};

interface Route {
  url: string;
  /** 'list': data is a list of orders; 'one': data is the given order; 'linkage': data is this identifier. */
  kind: 'list' | 'one' | 'linkage';
  want?: { type: string; id: string };
  /** One cell per entry of WHO, in that order. */
  cells: Cell[];
}

const P1 = ORDERS.P1;
const S1 = ORDERS.S1;
const pubOrders: Key[] = ['P1', 'P2'];
// prettier-ignore
const TABLE: Route[] = [
  //                                                                      anonymous buyer          other user owner     organizer coorganizer other event admin
  {
    url: '/v1/orders',
    kind: 'list',
    cells: [401, ['P1', 'S1'], [], pubOrders, pubOrders, pubOrders, ['S1'], ['P1', 'P2', 'S1']],
  },
  {
    url: `/v1/orders/${P1}`,
    kind: 'one',
    want: { type: 'order', id: P1 },
    cells: [401, 200, 403, 200, 200, 200, 403, 200],
  },
  {
    url: `/v1/orders/${P1_IDENTIFIER}`,
    kind: 'one',
    want: { type: 'order', id: P1 },
    cells: [401, 200, 403, 200, 200, 200, 403, 200],
  },
  {
    url: `/v1/orders/${S1}`,
    kind: 'one',
    want: { type: 'order', id: S1 },
    cells: [401, 200, 403, 403, 403, 403, 200, 200],
  },
  {
    url: `/v1/events/${pub}/orders`,
    kind: 'list',
    cells: [401, 403, 403, pubOrders, pubOrders, pubOrders, 403, pubOrders],
  },
  { url: `/v1/events/${second}/orders`, kind: 'list', cells: [401, 403, 403, 403, 403, 403, ['S1'], ['S1']] },
  {
    url: `/v1/users/${buyer.id}/orders`,
    kind: 'list',
    cells: [401, ['P1', 'S1'], 403, 403, 403, 403, 403, ['P1', 'S1']],
  },
  {
    url: `/v1/orders/${P1}/relationships/user`,
    kind: 'linkage',
    want: { type: 'user', id: buyer.id },
    cells: [401, 200, 403, 200, 200, 200, 403, 200],
  },
  {
    url: `/v1/orders/${P1}/relationships/event`,
    kind: 'linkage',
    want: { type: 'event', id: pub },
    cells: [401, 200, 403, 200, 200, 200, 403, 200],
  },
  {
    url: `/v1/orders/${S1}/relationships/event`,
    kind: 'linkage',
    want: { type: 'event', id: second },
    cells: [401, 200, 403, 403, 403, 403, 200, 200],
  },
  // The event is public; its orders, included, are only those the caller may see anyway.
  {
    url: `/v1/events/${pub}?include=orders`,
    kind: 'list',
    cells: [[], ['P1'], [], pubOrders, pubOrders, pubOrders, [], pubOrders],
  },
];

const idsOf = (keys: Key[]) => keys.map((k) => ORDERS[k]).sort();
const sorted = (list: { id: string }[] | undefined) => (list ?? []).map((d) => d.id).sort();

t.test('the table covers every caller on every route', async (t) => {
  for (const route of TABLE) t.equal(route.cells.length, WHO.length, route.url);
});

t.test('order visibility, per route and caller', async (t) => {
  for (const route of TABLE) {
    for (const [i, who] of WHO.entries()) {
      const cell = route.cells[i]!;
      const label = `GET ${route.url} as ${who}`;
      const res = await call(app, {
        url: route.kind === 'list' && !route.url.includes('?') ? `${route.url}?page[size]=100` : route.url,
        token: TOKENS[who],
      });
      expectCell(t, res, typeof cell === 'number' ? cell : 200, label);
      if (typeof cell === 'number' && cell !== 200) continue;
      if (route.kind === 'list' && route.url.includes('include=orders')) {
        const included = (res.body.included ?? []).filter((r: { type: string }) => r.type === 'order');
        t.same(sorted(included), idsOf(cell as Key[]), `${label}: exactly these orders included`);
        t.same(sorted(res.body.data.relationships.orders.data), idsOf(cell as Key[]), `${label}: and no other linkage`);
        if (!(cell as Key[]).includes('P2'))
          t.notOk(JSON.stringify(res.body).includes(`/v1/orders/${ORDERS.P2}`), `${label}: P2 never named`);
      } else if (route.kind === 'list') {
        t.same(sorted(res.body.data), idsOf(cell as Key[]), `${label}: exactly these orders`);
        t.equal(res.body.meta?.count, (cell as Key[]).length, `${label}: meta.count counts only those`);
        t.ok(
          res.body.data.every((d: { type: string }) => d.type === 'order'),
          `${label}: orders only`,
        );
      } else if (route.kind === 'one') {
        t.match(res.body.data, { ...route.want!, attributes: { identifier: String } }, `${label}: the order`);
      } else {
        t.same(res.body.data, route.want, `${label}: the linkage`);
      }
    }
  }
});

t.test('what a visible order shows: the buyer and the event, the same by id and by identifier', async (t) => {
  const byId = await call(app, { url: `/v1/orders/${P1}`, token: cast.organizer.token });
  const byIdentifier = await call(app, { url: `/v1/orders/${P1_IDENTIFIER}`, token: cast.organizer.token });
  t.same(byIdentifier.body.data, byId.body.data, 'one record under both names');
  t.same(byId.body.data.relationships.user.data, { type: 'user', id: buyer.id });
  t.same(byId.body.data.relationships.event.data, { type: 'event', id: pub });
  t.equal(byId.body.links.self, `/v1/orders/${P1}`);
  t.same(byId.body.data.attributes.attendees, [{ name: 'Ada', email: 'ada@example.org' }]);
});

t.test('a user id that is not the caller: 403 even with no orders; unknown order ids: 404', async (t) => {
  const res = await call(app, { url: `/v1/users/${buyer2.id}/orders`, token: buyer.token });
  expectCell(t, res, 403, "another buyer's orders as the buyer");
  const own = await call(app, { url: `/v1/users/${buyer2.id}/orders`, token: buyer2.token });
  t.same(sorted(own.body.data), idsOf(['P2']), 'the second buyer sees only P2');
  for (const id of ['424242', '00000000-0000-4000-8000-000000000000']) {
    expectCell(
      t,
      await call(app, { url: `/v1/orders/${id}`, token: cast.admin.token }),
      404,
      `GET /v1/orders/${id} as admin`,
    );
  }
});

/** GET /v1/users as an administrator: pagination, meta.count, sort, filter and sparse fieldsets. */
import t from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

const SEEDED = 25;
const filterParam = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;

t.test('user list', async (t) => {
  const { app } = await buildTestApp(t);
  const admin = await seedUser(app, { admin: true });
  // Seeded rows are older than the admin, one minute apart, so created-at orders them strictly.
  await app.sql`
    insert into users (email, password_hash, name, created_at)
    select 'seed' || lpad(i::text, 2, '0') || case when i % 5 = 0 then '@Five.example.org' else '@example.com' end,
           'not a usable hash', 'Seed ' || (100 - i), now() - make_interval(mins => 100 - i)
    from generate_series(1, ${SEEDED}) as i`;
  await app.sql`insert into users (email, password_hash, deleted_at) values ('gone@example.com', 'x', now())`;
  const total = SEEDED + 1;
  const get = async (query: string) => {
    const res = await call(app, { url: `/v1/users?${query}`, token: admin.token });
    t.equal(res.status, 200, query);
    t.equal(res.headers['content-type'], JSONAPI);
    return res.body;
  };
  const emails = (body: { data: { attributes: { email: string } }[] }) => body.data.map((u) => u.attributes.email);

  t.test('default page: 20 rows, meta.count of all live users, and the links', async (t) => {
    const body = await get('');
    t.same(Object.keys(body).sort(), ['data', 'jsonapi', 'links', 'meta']);
    t.equal(body.data.length, 20);
    t.same(body.meta, { count: total }, 'the deleted user is not counted');
    t.same(body.jsonapi, { version: '1.0' });
    const links = Object.fromEntries(
      Object.entries(body.links as Record<string, string | null>).map(([k, v]) => [k, v && decodeURIComponent(v)]),
    );
    t.same(links, {
      self: '/v1/users?page[size]=20&page[number]=1',
      first: '/v1/users?page[size]=20&page[number]=1',
      last: '/v1/users?page[size]=20&page[number]=2',
      prev: null,
      next: '/v1/users?page[size]=20&page[number]=2',
    });
    for (const user of body.data) {
      t.equal(user.type, 'user');
      t.match(user.id, /^\d+$/);
      t.same(user.links, { self: `/v1/users/${user.id}` });
    }
    t.notOk(emails(body).includes('gone@example.com'));
  });

  t.test('page[size] and page[number] walk every row exactly once', async (t) => {
    const seen: string[] = [];
    for (let number = 1; number <= 3; number++) {
      const body = await get(`page[size]=10&page[number]=${number}&sort=created-at`);
      t.equal(body.meta.count, total);
      t.equal(body.data.length, number < 3 ? 10 : 6);
      t.equal(body.links.prev === null, number === 1, 'prev only after page 1');
      t.equal(body.links.next === null, number === 3, 'next only before the last page');
      seen.push(...emails(body));
    }
    t.equal(new Set(seen).size, total, 'no row twice, none missing');
    const past = await get('page[size]=10&page[number]=9');
    t.same([past.data, past.meta], [[], { count: total }], 'past the end: empty page, same count');
    t.match(decodeURIComponent(past.links.prev), /page\[number\]=3$/, 'prev from past the end points at the last page');
  });

  t.test('sort by -created-at puts the newest first', async (t) => {
    const body = await get('sort=-created-at&page[size]=100');
    t.equal(body.data.length, total);
    const times = body.data.map((u: { attributes: Record<string, string> }) => Date.parse(u.attributes['created-at']));
    t.same(
      times,
      [...times].sort((a, b) => b - a),
      'descending',
    );
    t.equal(body.data[0].id, admin.id, 'the admin registered last');
    const ascending = await get('sort=created-at&page[size]=100');
    t.same(emails(ascending), emails(body).reverse(), 'created-at is the exact reverse');
  });

  t.test('sort by several keys', async (t) => {
    const body = await get('sort=-is-admin,email&page[size]=5');
    t.equal(body.data[0].id, admin.id, 'admins first');
    t.same(emails(body).slice(1), [
      'seed01@example.com',
      'seed02@example.com',
      'seed03@example.com',
      'seed04@example.com',
    ]);
    const byName = await get('sort=name,-email&page[size]=2');
    t.same(emails(byName), ['seed25@Five.example.org', 'seed24@example.com'], 'Seed 75 < Seed 76 < ...');
  });

  t.test('filter by email: eq is exact, ilike ignores case', async (t) => {
    const eq = await get(filterParam([{ name: 'email', op: 'eq', val: 'seed07@example.com' }]));
    t.same(emails(eq), ['seed07@example.com']);
    t.same(eq.meta, { count: 1 });
    const eqCase = await get(filterParam([{ name: 'email', op: 'eq', val: 'SEED07@example.com' }]));
    t.same(eqCase.meta, { count: 0 }, 'eq compares exactly');
    const ilike = await get(`${filterParam([{ name: 'email', op: 'ilike', val: '%@five.EXAMPLE.org' }])}&sort=email`);
    t.same(emails(ilike), [
      'seed05@Five.example.org',
      'seed10@Five.example.org',
      'seed15@Five.example.org',
      'seed20@Five.example.org',
      'seed25@Five.example.org',
    ]);
    t.same(ilike.meta, { count: 5 });
    const like = await get(filterParam([{ name: 'email', op: 'like', val: '%@five.example.org' }]));
    t.same(like.meta, { count: 0 }, 'like keeps case');
  });

  t.test('filter with pagination: count and links follow the filter', async (t) => {
    const filter = [
      {
        or: [
          { name: 'email', op: 'ilike', val: '%five%' },
          { name: 'is-admin', op: 'eq', val: true },
        ],
      },
    ];
    const body = await get(`${filterParam(filter)}&page[size]=4&page[number]=2&sort=-created-at`);
    t.same(body.meta, { count: 6 });
    t.same(emails(body), ['seed10@Five.example.org', 'seed05@Five.example.org']);
    const next = new URLSearchParams(body.links.first.split('?')[1]);
    t.same(JSON.parse(next.get('filter')!), filter, 'links keep the filter');
    t.equal(next.get('sort'), '-created-at', 'and the sort');
    const notFilter = await get(filterParam([{ not: { name: 'email', op: 'ilike', val: 'seed%' } }]));
    t.same(emails(notFilter), [admin.email]);
  });

  t.test('fields[user]=email returns only the email', async (t) => {
    const body = await get('fields[user]=email&page[size]=3');
    t.equal(body.data.length, 3);
    for (const user of body.data) {
      t.same(Object.keys(user.attributes), ['email']);
      t.same(Object.keys(user).sort(), ['attributes', 'id', 'links', 'relationships', 'type']);
    }
    const two = await get('fields[user]=email,created-at&page[size]=1');
    t.same(Object.keys(two.data[0].attributes).sort(), ['created-at', 'email']);
    const one = await call(app, { url: `/v1/users/${admin.id}?fields[user]=is-admin`, token: admin.token });
    t.same(one.body.data.attributes, { 'is-admin': true });
  });
});

/**
 * `is-admin` and `is-super-admin` change only by a super admin's hand, on PATCH and on POST alike;
 * sending back the current value is harmless.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { countUsers, expectError, seedUser, type TestUser } from '../helpers/users.js';

type Who = 'anonymous' | 'other' | 'self' | 'admin' | 'super';
type Flag = 'is-admin' | 'is-super-admin';

/** [flag, value sent, target kind, caller, expected status] for PATCH /v1/users/{id}. */
const PATCHES: [Flag, boolean, 'user' | 'admin', Who, number][] = [
  ['is-admin', true, 'user', 'anonymous', 401],
  ['is-admin', true, 'user', 'other', 403],
  ['is-admin', true, 'user', 'self', 403],
  ['is-admin', true, 'user', 'admin', 403],
  ['is-admin', true, 'user', 'super', 200],
  ['is-super-admin', true, 'user', 'self', 403],
  ['is-super-admin', true, 'user', 'admin', 403],
  ['is-super-admin', true, 'user', 'super', 200],
  ['is-super-admin', true, 'admin', 'self', 403],
  ['is-admin', false, 'admin', 'self', 403],
  ['is-admin', false, 'admin', 'admin', 403],
  ['is-admin', false, 'admin', 'super', 200],
  // The unchanged value.
  ['is-admin', false, 'user', 'self', 200],
  ['is-super-admin', false, 'user', 'self', 200],
  ['is-admin', true, 'admin', 'self', 200],
  ['is-admin', false, 'user', 'admin', 200],
];

/** [flag, value, caller, expected status] for POST /v1/users (registration). */
const POSTS: [Flag, boolean, Exclude<Who, 'self'>, number][] = [
  ['is-admin', true, 'anonymous', 403],
  ['is-admin', true, 'other', 403],
  ['is-admin', true, 'admin', 403],
  ['is-admin', true, 'super', 201],
  ['is-super-admin', true, 'anonymous', 403],
  ['is-super-admin', true, 'admin', 403],
  ['is-super-admin', true, 'super', 201],
  ['is-admin', false, 'anonymous', 201],
  ['is-super-admin', false, 'other', 201],
];

const column = (flag: Flag) => (flag === 'is-admin' ? 'is_admin' : 'is_super_admin');

t.test('role flags', async (t) => {
  const { app } = await buildTestApp(t);
  const shared = {
    other: await seedUser(app),
    admin: await seedUser(app, { admin: true }),
    super: await seedUser(app, { superAdmin: true }),
  };
  const tokenOf = (who: Who, target?: TestUser) =>
    who === 'anonymous' ? undefined : who === 'self' ? target!.token : shared[who].token;
  const flags = async (id: string) => {
    const [row] = await app.sql<{ is_admin: boolean; is_super_admin: boolean }[]>`
      select is_admin, is_super_admin from users where id = ${Number(id)}`;
    return row!;
  };

  for (const [flag, value, kind, who, expected] of PATCHES) {
    await t.test(`PATCH ${flag}=${value} on ${kind} as ${who} -> ${expected}`, async (t) => {
      const target = await seedUser(app, { admin: kind === 'admin' });
      const before = await flags(target.id);
      const res = await call(app, {
        method: 'PATCH',
        url: `/v1/users/${target.id}`,
        token: tokenOf(who, target),
        body: { data: { type: 'user', id: target.id, attributes: { [flag]: value, name: 'changed' } } },
      });
      const after = await flags(target.id);
      if (expected === 200) {
        t.equal(res.status, 200);
        t.equal(res.body.data.attributes[flag], value);
        t.equal(after[column(flag)], value, 'stored');
      } else {
        // A caller who may not touch the account at all is refused before the flags are looked at.
        const flagRefusal = expected === 403 && who !== 'other';
        expectError(
          t,
          res,
          expected,
          flagRefusal ? { pointer: `/data/attributes/${flag}`, detail: 'Super admin access is required' } : {},
        );
        t.same(after, before, 'flags unchanged');
        const [row] = await app.sql`select name from users where id = ${Number(target.id)}`;
        t.equal(row!.name, null, 'nothing else written either');
      }
    });
  }

  for (const [flag, value, who, expected] of POSTS) {
    await t.test(`POST ${flag}=${value} as ${who} -> ${expected}`, async (t) => {
      const email = `flag-${flag}-${value}-${who}@example.com`;
      const rows = await countUsers(app);
      const res = await call(app, {
        method: 'POST',
        url: '/v1/users',
        token: tokenOf(who),
        body: { data: { type: 'user', attributes: { email, password: 'long enough', [flag]: value } } },
      });
      if (expected === 201) {
        t.equal(res.status, 201);
        t.equal(res.body.data.attributes[flag], value);
        t.equal((await flags(res.body.data.id))[column(flag)], value, 'stored');
      } else {
        expectError(t, res, 403, { pointer: `/data/attributes/${flag}`, detail: 'Super admin access is required' });
        t.equal(await countUsers(app), rows, 'no account created');
      }
    });
  }

  t.test('a promoted user acts as an admin with the same token', async (t) => {
    const user = await seedUser(app);
    t.equal((await call(app, { url: '/v1/users', token: user.token })).status, 403);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: shared.super.token,
      body: { data: { type: 'user', id: user.id, attributes: { 'is-admin': true } } },
    });
    t.equal(res.status, 200);
    t.equal((await call(app, { url: '/v1/users', token: user.token })).status, 200, 'flags are read per request');
  });
});

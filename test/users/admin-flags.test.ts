/**
 * `is-blocked`, `is-sales-admin` and `is-marketer` change only by an administrator's hand, on PATCH and
 * on POST alike (the reference: app/api/users.py before_update_object); sending back the stored value
 * is harmless, since the web front end sends every flag on every save.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { countUsers, expectError, seedUser, type TestUser } from '../helpers/users.js';

type Who = 'anonymous' | 'other' | 'self' | 'admin' | 'super';
const FLAGS = { 'is-blocked': 'is_blocked', 'is-sales-admin': 'is_sales_admin', 'is-marketer': 'is_marketer' } as const;
type Flag = keyof typeof FLAGS;

/** [value sent, caller, expected status] for PATCH /v1/users/{id} of a plain user, per flag. */
const PATCHES: [boolean, Who, number][] = [
  [true, 'anonymous', 401],
  [true, 'other', 403],
  [true, 'self', 403],
  [true, 'admin', 200],
  [true, 'super', 200],
  [false, 'self', 200],
  [false, 'admin', 200],
];

/** [value, caller, expected status] for POST /v1/users. */
const POSTS: [boolean, Exclude<Who, 'self'>, number][] = [
  [true, 'anonymous', 403],
  [true, 'other', 403],
  [true, 'admin', 201],
  [false, 'anonymous', 201],
];

t.test('administrator flags', async (t) => {
  const { app } = await buildTestApp(t);
  const shared = {
    other: await seedUser(app),
    admin: await seedUser(app, { admin: true }),
    super: await seedUser(app, { superAdmin: true }),
  };
  const tokenOf = (who: Who, target?: TestUser) =>
    who === 'anonymous' ? undefined : who === 'self' ? target!.token : shared[who].token;
  const stored = async (id: string, flag: Flag) =>
    (await app.sql`select ${app.sql(FLAGS[flag])} as v from users where id = ${Number(id)}`)[0]!.v;

  for (const flag of Object.keys(FLAGS) as Flag[]) {
    for (const [value, who, expected] of PATCHES) {
      await t.test(`PATCH ${flag}=${value} as ${who} -> ${expected}`, async (t) => {
        const target = await seedUser(app);
        const res = await call(app, {
          method: 'PATCH',
          url: `/v1/users/${target.id}`,
          token: tokenOf(who, target),
          body: { data: { type: 'user', id: target.id, attributes: { [flag]: value, company: 'Changed' } } },
        });
        if (expected === 200) {
          t.equal(res.status, 200);
          t.equal(res.body.data.attributes[flag], value);
          t.equal(await stored(target.id, flag), value, 'stored');
        } else {
          const flagRefusal = expected === 403 && who === 'self';
          expectError(
            t,
            res,
            expected,
            flagRefusal
              ? { pointer: `/data/attributes/${flag}`, detail: 'Admin access is required to update this information' }
              : {},
          );
          t.equal(await stored(target.id, flag), false, 'unchanged');
          t.equal(
            (await app.sql`select company from users where id = ${Number(target.id)}`)[0]!.company,
            null,
            'nothing else written',
          );
        }
      });
    }
    for (const [value, who, expected] of POSTS) {
      await t.test(`POST ${flag}=${value} as ${who} -> ${expected}`, async (t) => {
        const rows = await countUsers(app);
        const res = await call(app, {
          method: 'POST',
          url: '/v1/users',
          token: tokenOf(who),
          body: {
            data: {
              type: 'user',
              attributes: { email: `${flag}-${value}-${who}@example.com`, password: 'long enough', [flag]: value },
            },
          },
        });
        if (expected === 201) {
          t.equal(res.status, 201);
          t.equal(await stored(res.body.data.id, flag), value, 'stored');
        } else {
          expectError(t, res, 403, { pointer: `/data/attributes/${flag}` });
          t.equal(await countUsers(app), rows, 'no account created');
        }
      });
    }
  }

  t.test('an administrator cannot block a super admin', async (t) => {
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${shared.super.id}`,
      token: shared.admin.token,
      body: { data: { type: 'user', id: shared.super.id, attributes: { 'is-blocked': true } } },
    });
    expectError(t, res, 403);
    t.equal(await stored(shared.super.id, 'is-blocked'), false);
  });
});

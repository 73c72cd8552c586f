/**
 * Who may call which user route: every route × anonymous / other user / self / admin / super admin.
 * Each case gets a fresh target account, so a DELETE or PATCH in one row never affects another.
 */
import t from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { expectError, seedUser, type TestUser } from '../helpers/users.js';

type Who = 'anonymous' | 'other' | 'self' | 'admin' | 'super';
type Target = 'user' | 'admin' | 'super';
type Route = 'list' | 'create' | 'get' | 'patch' | 'delete' | 'login' | 'session';

const WHO: Who[] = ['anonymous', 'other', 'self', 'admin', 'super'];

/** Expected status per caller, in WHO order. */
const MATRIX: [Route, Target, number[]][] = [
  ['list', 'user', [401, 403, 403, 200, 200]],
  ['create', 'user', [201, 201, 201, 201, 201]],
  ['get', 'user', [401, 403, 200, 200, 200]],
  ['patch', 'user', [401, 403, 200, 200, 200]],
  ['delete', 'user', [401, 403, 200, 200, 200]],
  ['login', 'user', [200, 200, 200, 200, 200]],
  ['session', 'user', [200, 200, 200, 200, 200]],
  // Administrators manage each other; only a super admin touches a super admin's account.
  ['get', 'admin', [401, 403, 200, 200, 200]],
  ['patch', 'admin', [401, 403, 200, 200, 200]],
  ['delete', 'admin', [401, 403, 200, 200, 200]],
  ['get', 'super', [401, 403, 200, 200, 200]],
  ['patch', 'super', [401, 403, 200, 403, 200]],
  ['delete', 'super', [401, 403, 200, 403, 200]],
];

t.test('user routes × callers', async (t) => {
  const { app } = await buildTestApp(t);
  const shared = {
    other: await seedUser(app),
    admin: await seedUser(app, { admin: true }),
    super: await seedUser(app, { superAdmin: true }),
  };
  const tokenOf = (who: Who, target: TestUser) =>
    who === 'anonymous' ? undefined : who === 'self' ? target.token : shared[who].token;

  for (const [route, targetKind, statuses] of MATRIX) {
    for (const [i, who] of WHO.entries()) {
      const expected = statuses[i]!;
      await t.test(`${route} ${targetKind} as ${who} -> ${expected}`, async (t) => {
        const target = await seedUser(app, { admin: targetKind === 'admin', superAdmin: targetKind === 'super' });
        const token = tokenOf(who, target);
        const detail = `/v1/users/${target.id}`;
        let res: Awaited<ReturnType<typeof call>>;
        switch (route) {
          case 'list':
            res = await call(app, { url: '/v1/users', token });
            break;
          case 'create':
            res = await call(app, {
              method: 'POST',
              url: '/v1/users',
              token,
              body: {
                data: { type: 'user', attributes: { email: `new-${target.id}@example.com`, password: 'long enough' } },
              },
            });
            break;
          case 'get':
            res = await call(app, { url: detail, token });
            break;
          case 'patch':
            res = await call(app, {
              method: 'PATCH',
              url: detail,
              token,
              body: { data: { type: 'user', id: target.id, attributes: { name: `renamed by ${who}` } } },
            });
            break;
          case 'delete':
            res = await call(app, { method: 'DELETE', url: detail, token });
            break;
          case 'login':
          case 'session': {
            const r = await app.inject({
              method: 'POST',
              url: route === 'login' ? '/v1/auth/login' : '/auth/session',
              headers: token ? { authorization: `JWT ${token}` } : {},
              payload: { email: target.email, password: target.password },
            });
            res = { status: r.statusCode, headers: r.headers, body: r.json() };
            break;
          }
        }
        if (expected >= 400) {
          expectError(t, res, expected);
          if (expected === 401) t.equal(res.headers['www-authenticate'], 'JWT');
        } else {
          t.equal(res.status, expected);
          if (route !== 'login' && route !== 'session') t.equal(res.headers['content-type'], JSONAPI);
          t.same(res.body.jsonapi ?? { version: '1.0' }, { version: '1.0' });
        }
        // The row tells whether a refused write changed anything.
        const after = await call(app, { url: detail, token: shared.super.token });
        if (route === 'patch') {
          t.equal(
            after.body.data.attributes.name,
            expected === 200 ? `renamed by ${who}` : null,
            'name written only when allowed',
          );
        } else if (route === 'delete') {
          t.equal(after.status, expected === 200 ? 404 : 200, 'deleted only when allowed');
        } else if (route === 'get' && expected === 200) {
          t.equal(res.body.data.id, target.id);
          t.equal(res.body.data.attributes.email, target.email);
        } else if (route === 'list' && expected === 200) {
          t.ok(
            res.body.data.some((u: { id: string }) => u.id === target.id),
            'list holds the target',
          );
        } else if (route === 'create' && expected === 201) {
          t.equal(res.body.data.attributes['is-admin'], false);
        } else if (expected === 200) {
          t.type(res.body.access_token, 'string');
        }
      });
    }
  }
});

/** DELETE /v1/users/{id} keeps the row, sets deleted_at, and makes the account vanish everywhere. */
import t from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { expectAuthError } from '../helpers/auth.js';
import { countUsers, expectError, login, seedUser } from '../helpers/users.js';

t.test('soft delete', async (t) => {
  const { app } = await buildTestApp(t);
  const admin = await seedUser(app, { admin: true });

  const listed = async () => {
    const res = await call(app, { url: '/v1/users?page[size]=100', token: admin.token });
    t.equal(res.status, 200);
    return { ids: res.body.data.map((u: { id: string }) => u.id) as string[], count: res.body.meta.count as number };
  };

  t.test('a user deletes their own account', async (t) => {
    const user = await seedUser(app);
    const before = await listed();
    t.ok(before.ids.includes(user.id));
    const rows = await countUsers(app);

    const res = await call(app, { method: 'DELETE', url: `/v1/users/${user.id}`, token: user.token });
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], JSONAPI);
    t.same(
      res.body,
      { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } },
      'exactly the delete document',
    );

    t.equal(await countUsers(app), rows, 'the row is kept');
    const [row] = await app.sql<{ deleted_at: string | null; email: string }[]>`
      select deleted_at, email from users where id = ${Number(user.id)}`;
    t.type(row!.deleted_at, 'string', 'deleted_at is set');
    t.ok(Math.abs(Date.parse(row!.deleted_at!) - Date.now()) < 60_000, 'to the time of deletion');
    t.equal(row!.email, user.email, 'the record is otherwise intact');

    expectError(t, await call(app, { url: `/v1/users/${user.id}`, token: admin.token }), 404, {
      detail: 'Object not found.',
    });
    const after = await listed();
    t.notOk(after.ids.includes(user.id), 'hidden from the admin list');
    t.equal(after.count, before.count - 1, 'and from meta.count');
    const filtered = await call(app, {
      url: `/v1/users?filter=${encodeURIComponent(JSON.stringify([{ name: 'email', op: 'eq', val: user.email }]))}`,
      token: admin.token,
    });
    t.same([filtered.body.data, filtered.body.meta], [[], { count: 0 }], 'a filter cannot find it either');
    const byDeletedAt = await call(app, {
      url: `/v1/users?filter=${encodeURIComponent(JSON.stringify([{ name: 'deleted-at', op: 'isnot', val: null }]))}`,
      token: admin.token,
    });
    t.same(byDeletedAt.body.meta, { count: 0 }, 'nor a filter on deleted-at');

    const stale = await call(app, { url: `/v1/users/${admin.id}`, token: user.token });
    expectError(t, stale, 401, { detail: 'The account of this token no longer exists' });
    const stalePublic = await call(app, {
      method: 'POST',
      url: '/v1/users',
      token: user.token,
      body: { data: { type: 'user', attributes: { email: 'via-stale@example.com', password: 'long enough' } } },
    });
    expectError(t, stalePublic, 401, { detail: 'The account of this token no longer exists' });

    const relogin = await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: user.email, password: user.password },
    });
    expectAuthError(t, { status: relogin.statusCode, headers: relogin.headers, body: relogin.json() }, 401, {
      detail: 'Invalid credentials',
    });
  });

  t.test('the address can be registered again, as a new account', async (t) => {
    const user = await seedUser(app);
    t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${user.id}`, token: admin.token })).status, 200);
    const res = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: { data: { type: 'user', attributes: { email: user.email.toUpperCase(), password: 'second life' } } },
    });
    t.equal(res.status, 201);
    t.not(res.body.data.id, user.id, 'a new id');
    const token = await login(app, user.email, 'second life');
    const self = await call(app, { url: `/v1/users/${res.body.data.id}`, token });
    t.equal(self.status, 200, 'the new token names the new account');
    const [{ n }] = await app.sql<
      { n: number }[]
    >`select count(*)::int as n from users where lower(email) = lower(${user.email})`;
    t.equal(n, 2, 'the deleted row is still there beside the new one');
    const oldLogin = await app.inject({
      method: 'POST',
      url: '/auth/session',
      payload: { email: user.email, password: user.password },
    });
    t.equal(oldLogin.statusCode, 401, 'the old password belongs to the deleted account');
  });

  t.test('a deleted account cannot be deleted, changed or read again', async (t) => {
    const user = await seedUser(app);
    t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${user.id}`, token: admin.token })).status, 200);
    const [{ deleted_at: first }] = await app.sql<
      { deleted_at: string }[]
    >`select deleted_at from users where id = ${Number(user.id)}`;
    expectError(t, await call(app, { method: 'DELETE', url: `/v1/users/${user.id}`, token: admin.token }), 404);
    const patch = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: admin.token,
      body: { data: { type: 'user', id: user.id, attributes: { name: 'zombie' } } },
    });
    expectError(t, patch, 404);
    const [row] = await app.sql`select deleted_at, name from users where id = ${Number(user.id)}`;
    t.same(row, { deleted_at: first, name: null }, 'the deleted row is left alone');
  });

  t.test('a super admin deletes an administrator; the admin token dies with it', async (t) => {
    const sup = await seedUser(app, { superAdmin: true });
    const other = await seedUser(app, { admin: true });
    t.equal((await call(app, { url: '/v1/users', token: other.token })).status, 200);
    t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${other.id}`, token: sup.token })).status, 200);
    expectError(t, await call(app, { url: '/v1/users', token: other.token }), 401);
  });
});

/** `password` is write-only: hashed, never returned, never queryable; changing it changes the login. */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { expectError, login, seedUser } from '../helpers/users.js';

/** No member named like a password and no trace of the secret or its hash anywhere in the text. */
function assertNoPassword(t: Test, body: unknown, secret: string) {
  const text = JSON.stringify(body);
  t.notMatch(text, /password/i, 'no password member');
  t.notOk(text.includes(secret), 'the plain password is absent');
  t.notMatch(text, /\$argon2/, 'the hash is absent');
}

t.test('password', async (t) => {
  const { app } = await buildTestApp(t);
  const admin = await seedUser(app, { admin: true });

  t.test('is stored as an argon2id hash, never as sent', async (t) => {
    const user = await seedUser(app);
    const [row] = await app.sql<
      { password_hash: string }[]
    >`select password_hash from users where id = ${Number(user.id)}`;
    t.match(row!.password_hash, /^\$argon2id\$/);
    t.notOk(row!.password_hash.includes(user.password));
  });

  t.test('never appears in create, get, list or patch responses', async (t) => {
    const secret = 'a very secret passphrase';
    const created = await call(app, {
      method: 'POST',
      url: '/v1/users',
      body: { data: { type: 'user', attributes: { email: 'secret@example.com', password: secret } } },
    });
    t.equal(created.status, 201);
    assertNoPassword(t, created.body, secret);
    const id = created.body.data.id as string;
    const token = await login(app, 'secret@example.com', secret);

    const self = await call(app, { url: `/v1/users/${id}`, token });
    t.equal(self.status, 200);
    assertNoPassword(t, self.body, secret);

    const list = await call(app, { url: '/v1/users?page[size]=100', token: admin.token });
    t.equal(list.status, 200);
    t.ok(list.body.data.length >= 2);
    assertNoPassword(t, list.body, secret);

    const sparse = await call(app, { url: `/v1/users/${id}?fields[user]=email,name`, token });
    t.same(Object.keys(sparse.body.data.attributes).sort(), ['email', 'name']);

    const renewed = 'a brand new passphrase';
    // An administrator's reset: the user's own PATCH of a password is refused (see below).
    const patched = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${id}`,
      token: admin.token,
      body: { data: { type: 'user', id, attributes: { password: renewed, name: 'Secretive' } } },
    });
    t.equal(patched.status, 200);
    t.equal(patched.body.data.attributes.name, 'Secretive');
    assertNoPassword(t, patched.body, renewed);
  });

  t.test('is neither filterable, sortable, selectable nor includable (400)', async (t) => {
    const filters = [
      [{ name: 'password', op: 'eq', val: 'x' }],
      [{ name: 'password-hash', op: 'like', val: '$argon2%' }],
      [{ name: 'passwordHash', op: 'like', val: '$argon2%' }],
      [{ name: 'password_hash', op: 'isnot', val: null }],
      [{ or: [{ name: 'email', op: 'eq', val: 'a@b.c' }, { not: { name: 'password', op: 'eq', val: 'x' } }] }],
    ];
    for (const filter of filters) {
      const res = await call(app, {
        url: `/v1/users?filter=${encodeURIComponent(JSON.stringify(filter))}`,
        token: admin.token,
      });
      expectError(t, res, 400, { parameter: 'filter' });
    }
    for (const sort of ['password', '-password', 'password-hash', 'passwordHash', 'email,password']) {
      const res = await call(app, { url: `/v1/users?sort=${sort}`, token: admin.token });
      expectError(t, res, 400, { parameter: 'sort' });
    }
    for (const fields of ['password', 'email,password', 'password-hash']) {
      const res = await call(app, { url: `/v1/users?fields[user]=${fields}`, token: admin.token });
      expectError(t, res, 400, { parameter: 'fields[user]' });
      const one = await call(app, { url: `/v1/users/${admin.id}?fields[user]=${fields}`, token: admin.token });
      expectError(t, one, 400, { parameter: 'fields[user]' });
    }
    const include = await call(app, { url: '/v1/users?include=password', token: admin.token });
    expectError(t, include, 400, { parameter: 'include' });
  });

  t.test(
    'a PATCH by the user themself is refused: the password changes where the current one is asked for',
    async (t) => {
      const user = await seedUser(app);
      const res = await call(app, {
        method: 'PATCH',
        url: `/v1/users/${user.id}`,
        token: user.token,
        body: { data: { type: 'user', id: user.id, attributes: { password: 'my new password', name: 'Taken' } } },
      });
      expectError(t, res, 403, { pointer: '/data/attributes/password', detail: /POST \/v1\/auth\/change-password/ });
      t.type(await login(app, user.email, user.password), 'string', 'the old password still works');
      const [row] = await app.sql<{ name: string | null }[]>`select name from users where id = ${Number(user.id)}`;
      t.equal(row!.name, null, 'nothing of the request was written');
    },
  );

  t.test("an administrator may reset another user's password", async (t) => {
    const user = await seedUser(app);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: admin.token,
      body: { data: { type: 'user', id: user.id, attributes: { password: 'reset by admin' } } },
    });
    t.equal(res.status, 200);
    t.type(await login(app, user.email, 'reset by admin'), 'string');
  });

  t.test('another user may not change it', async (t) => {
    const user = await seedUser(app);
    const other = await seedUser(app);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: other.token,
      body: { data: { type: 'user', id: user.id, attributes: { password: 'taken over!' } } },
    });
    expectError(t, res, 403);
    t.type(await login(app, user.email, user.password), 'string', 'the old password still works');
  });
});

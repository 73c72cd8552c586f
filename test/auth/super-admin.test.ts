/** ensureSuperAdmin: the start-up bootstrap of SUPER_ADMIN_EMAIL / SUPER_ADMIN_PASSWORD. */
import t from 'tap';
import { ensureSuperAdmin } from '../../src/auth/super-admin.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, call } from '../helpers/app.js';
import { expectError, login, seedUser } from '../helpers/users.js';

interface Account {
  id: number;
  email: string;
  password_hash: string;
  is_admin: boolean;
  is_super_admin: boolean;
  deleted_at: string | null;
}

t.test('ensureSuperAdmin', async (t) => {
  const { app } = await buildTestApp(t);
  const accounts = (email: string) =>
    app.sql<Account[]>`select * from users where lower(email) = lower(${email}) order by id`;
  const loginStatus = async (email: string, password: string) =>
    (await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } })).statusCode;

  t.test('creates the account when it is missing', async (t) => {
    t.equal(await ensureSuperAdmin(app.db, 'root@example.com', 'root password'), 'created');
    const rows = await accounts('root@example.com');
    t.equal(rows.length, 1);
    t.match(rows[0], { email: 'root@example.com', is_admin: true, is_super_admin: true, deleted_at: null });
    t.match(rows[0]!.password_hash, /^\$argon2id\$/);
    const token = await login(app, 'root@example.com', 'root password');
    const self = await call(app, { url: `/v1/users/${rows[0]!.id}`, token });
    t.match(self.body.data.attributes, { 'is-admin': true, 'is-super-admin': true });
    t.equal((await call(app, { url: '/v1/users', token })).status, 200, 'acts as an administrator');
  });

  t.test('is idempotent: a second call leaves one account, still super admin, same password', async (t) => {
    const [before] = await accounts('root@example.com');
    t.equal(await ensureSuperAdmin(app.db, 'root@example.com', 'a different password'), 'promoted');
    t.equal(await ensureSuperAdmin(app.db, 'ROOT@example.com', 'root password'), 'promoted');
    const rows = await accounts('root@example.com');
    t.equal(rows.length, 1, 'still one account');
    t.same(rows[0], before, 'the row is unchanged, hash included');
    t.equal(await loginStatus('root@example.com', 'root password'), 200);
    t.equal(await loginStatus('root@example.com', 'a different password'), 401);
  });

  t.test('promotes an existing account and keeps its password', async (t) => {
    const user = await seedUser(app);
    t.equal((await call(app, { url: '/v1/users', token: user.token })).status, 403);
    const [before] = await accounts(user.email);
    t.equal(await ensureSuperAdmin(app.db, user.email.toUpperCase(), 'the configured password'), 'promoted');
    const rows = await accounts(user.email);
    t.equal(rows.length, 1, 'no second account');
    t.match(rows[0], { id: before!.id, is_admin: true, is_super_admin: true });
    t.equal(rows[0]!.password_hash, before!.password_hash, 'password unchanged on promotion');
    t.equal(await loginStatus(user.email, user.password), 200);
    t.equal(await loginStatus(user.email, 'the configured password'), 401);
    t.equal(
      (await call(app, { url: '/v1/users', token: user.token })).status,
      200,
      'the old token now carries the new rights',
    );
    t.equal(await ensureSuperAdmin(app.db, user.email, 'the configured password'), 'promoted');
    t.equal((await accounts(user.email)).length, 1);
  });

  t.test('a deleted account of that email is not revived: a new one is created', async (t) => {
    const user = await seedUser(app);
    t.equal((await call(app, { method: 'DELETE', url: `/v1/users/${user.id}`, token: user.token })).status, 200);
    t.equal(await ensureSuperAdmin(app.db, user.email, 'fresh root password'), 'created');
    const rows = await accounts(user.email);
    t.equal(rows.length, 2);
    t.match(rows[0], { id: Number(user.id), is_super_admin: false });
    t.not(rows[0]!.deleted_at, null, 'the deleted row stays deleted');
    t.match(rows[1], { is_super_admin: true, deleted_at: null });
    t.equal(await loginStatus(user.email, 'fresh root password'), 200);
    expectError(t, await call(app, { url: `/v1/users/${user.id}`, token: user.token }), 401);
  });

  t.test('concurrent start-ups leave exactly one super admin', async (t) => {
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => ensureSuperAdmin(app.db, 'race@example.com', 'race password')),
    );
    t.ok(outcomes.every((o) => o === 'created' || o === 'promoted'));
    const rows = await accounts('race@example.com');
    t.equal(rows.length, 1);
    t.match(rows[0], { is_admin: true, is_super_admin: true });
    t.equal(await loginStatus('race@example.com', 'race password'), 200);
  });

  t.test('the super admin may grant is-admin; the admin it grants may not', async (t) => {
    const token = await login(app, 'root@example.com', 'root password');
    const user = await seedUser(app);
    const grant = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token,
      body: { data: { type: 'user', id: user.id, attributes: { 'is-admin': true } } },
    });
    t.equal(grant.status, 200);
    t.equal(grant.body.data.attributes['is-admin'], true);
    const other = await seedUser(app);
    const regrant = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${other.id}`,
      token: user.token,
      body: { data: { type: 'user', id: other.id, attributes: { 'is-admin': true } } },
    });
    expectError(t, regrant, 403, { pointer: '/data/attributes/is-admin' });
  });
});

t.test('the configuration refuses a weak or malformed bootstrap account', async (t) => {
  t.throws(
    () => loadConfig({ SUPER_ADMIN_EMAIL: 'root@example.com', SUPER_ADMIN_PASSWORD: 'short' }),
    /SUPER_ADMIN_PASSWORD/,
  );
  t.throws(
    () => loadConfig({ SUPER_ADMIN_EMAIL: 'not an email', SUPER_ADMIN_PASSWORD: 'long enough' }),
    /SUPER_ADMIN_EMAIL/,
  );
  const config = loadConfig({ SUPER_ADMIN_EMAIL: 'root@example.com', SUPER_ADMIN_PASSWORD: 'long enough' });
  t.equal(config.SUPER_ADMIN_EMAIL, 'root@example.com');
  t.equal(config.JWT_EXPIRES_IN, 86400, 'token lifetime defaults to 24 hours');
});

/**
 * The assistant settings folder: accounting/authorization/groups, listSettings, /data/settings, first
 * admin; two processes with folders of their own answer the same files, produced from the database.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, call, TEST_SECRET } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { seedUser } from '../helpers/users.js';

type Params = Record<string, string>;

async function get(app: FastifyInstance, url: string, params: Params = {}) {
  const q = new URLSearchParams(params).toString();
  const res = await app.inject({ method: 'GET', url: q ? `${url}?${q}` : url });
  return {
    status: res.statusCode,
    headers: res.headers,
    raw: res.rawPayload,
    body: (() => {
      try {
        return JSON.parse(res.body);
      } catch {
        return undefined;
      }
    })() as any,
  };
}
const post = async (app: FastifyInstance, url: string, params: Params) =>
  app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(params).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

const root = await mkdtemp(join(tmpdir(), 'oe-settings-test-'));
t.teardown(() => rm(root, { recursive: true, force: true }));
const dir = join(root, 'settings');
const readJson = async (name: string, folder = dir): Promise<any> =>
  JSON.parse(await readFile(join(folder, name), 'utf8'));

const { app, url } = await buildTestApp(t, { ASSISTANT_SETTINGS_DIR: dir, SKILL_REPO_DIR: join(root, 'skills') });
const admin = await seedUser(app, { admin: true });
const su = await seedUser(app, { superAdmin: true });

t.test('the three files exist from start-up, groups.json is {}', async (t) => {
  t.same(await readJson('groups.json'), {});
  t.type(await readJson('accounting.json'), 'object');
  t.type(await readJson('authorization.json'), 'object');
});

t.test('accounting and authorization follow login, store and role changes', async (t) => {
  const u = await seedUser(app);
  const key = `email:${u.email}`;
  const before = Date.now();
  const login = await post(app, '/aaa/login.json', { login: u.email, password: u.password });
  t.equal(login.statusCode, 200);
  let acc = await readJson('accounting.json');
  t.ok(acc[key], 'login writes the account into accounting.json');
  t.same(Object.keys(acc[key]).sort(), ['lastLoginTime', 'signupTime', 'stores']);
  t.ok(Date.parse(acc[key].signupTime) > 0, 'signupTime is a date');
  t.ok(Date.parse(acc[key].lastLoginTime) >= before - 1000, 'lastLoginTime is the login');
  t.same(acc[key].stores, {});
  t.same((await readJson('authorization.json'))[key], { permissions: {}, userRole: 'user' });
  t.same((await readJson('authorization.json'))[`email:${admin.email}`], { permissions: {}, userRole: 'admin' });
  t.same((await readJson('authorization.json'))[`email:${su.email}`], { permissions: {}, userRole: 'superadmin' });

  t.equal(
    (await post(app, '/aaa/storePersonalInfo.json', { access_token: u.token, storeName: 'colour', value: 'blue' }))
      .statusCode,
    200,
  );
  t.equal(
    (await post(app, '/aaa/storePersonalInfo.json', { access_token: u.token, storeName: 'pet', value: 'cat' }))
      .statusCode,
    200,
  );
  acc = await readJson('accounting.json');
  t.same(acc[key].stores, { colour: 'blue', pet: 'cat' }, 'stores appear after each write');

  t.equal(
    (await post(app, '/aaa/changeRoles.json', { access_token: admin.token, user: u.email, role: 'reviewer' }))
      .statusCode,
    200,
  );
  t.same((await readJson('authorization.json'))[key], { permissions: {}, userRole: 'reviewer' }, 'role change written');
  t.equal(
    (await post(app, '/aaa/changeRoles.json', { access_token: su.token, user: u.email, role: 'admin' })).statusCode,
    200,
  );
  t.same((await readJson('authorization.json'))[key], { permissions: {}, userRole: 'admin' });
  t.equal(
    (await post(app, '/aaa/changeRoles.json', { access_token: su.token, user: u.email, role: 'operator' })).statusCode,
    200,
  );
  t.same((await readJson('authorization.json'))[key], { permissions: {}, userRole: 'operator' });
  t.same(await readJson('groups.json'), {});
});

t.test('listSettings: admin lists the files, others get 401', async (t) => {
  const res = await get(app, '/aaa/listSettings.json', { access_token: admin.token });
  t.equal(res.status, 200);
  t.equal(res.headers['access-control-allow-origin'], '*');
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(res.body.accepted, true);
  t.equal(res.body.message, 'Success: Fetched all files');
  t.same([...res.body.files].sort(), ['accounting.json', 'authorization.json', 'groups.json']);
  t.same(res.body.session.identity, { type: 'email', name: admin.email, anonymous: false });
  const u = await seedUser(app);
  const refused = await get(app, '/aaa/listSettings.json', { access_token: u.token });
  t.equal(refused.status, 401);
  t.same(refused.body, {
    accepted: false,
    message: "Base user role not sufficient. Your base user role is 'USER', minimum user role required is 'admin'",
  });
  t.equal((await get(app, '/aaa/listSettings.json')).status, 401, 'anonymous');
});

t.test('/data/settings: attachment with headers and the exact bytes', async (t) => {
  // Accounts seeded straight into the database since the last change: a login rewrites the folder,
  // which then holds what the database does (the answer is produced from the database).
  t.equal((await post(app, '/aaa/login.json', { login: admin.email, password: admin.password })).statusCode, 200);
  for (const [params, name] of [
    [{}, 'accounting'],
    [{ file: 'accounting' }, 'accounting'],
    [{ file: 'authorization' }, 'authorization'],
    [{ file: 'groups' }, 'groups'],
  ] as const) {
    const res = await get(app, '/data/settings', { ...params, access_token: admin.token });
    const bytes = await readFile(join(dir, `${name}.json`));
    t.equal(res.status, 200, name);
    t.equal(res.headers['content-disposition'], `attachment; filename=${name}.json`);
    t.match(String(res.headers['content-type']), /^application\/json\b/, 'detected type');
    t.equal(
      Number(res.headers['content-length']),
      (await stat(join(dir, `${name}.json`))).size,
      'content length is the file size',
    );
    t.equal(res.headers['access-control-allow-origin'], '*');
    t.ok(res.raw.equals(bytes), 'the file bytes');
  }
  const byHeader = await app.inject({
    method: 'GET',
    url: '/data/settings?file=groups',
    headers: { authorization: `JWT ${admin.token}` },
  });
  t.equal(byHeader.statusCode, 200, 'Authorization header works');
  const u = await seedUser(app);
  const user = await get(app, '/data/settings', { access_token: u.token });
  t.equal(user.status, 401, 'a user is refused');
  t.equal(user.body?.accepted, false);
  t.notOk(user.raw.toString().includes('email:'), 'no file content leaks');
  t.equal((await get(app, '/data/settings')).status, 401, 'anonymous is refused');
});

t.test('/data/settings: unknown names and traversal are 404', async (t) => {
  await writeFile(join(root, 'secret.json'), '{"secret": true}\n');
  await writeFile(join(dir, '.x.json'), '{"hidden": true}\n');
  const q = `access_token=${admin.token}`;
  for (const file of [
    '../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '..%252f..%252fetc%252fpasswd',
    '%2Fetc%2Fpasswd',
    '/etc/passwd',
    'accounting.json',
    '.x',
    '../secret',
    '..%2Fsecret',
    'nothing',
  ]) {
    const res = await app.inject({ method: 'GET', url: `/data/settings?file=${file}&${q}` });
    t.equal(res.statusCode, 404, `file=${file}`);
    t.equal(res.json().accepted, false, `file=${file} accepted false`);
    t.notOk(res.body.includes('secret') || res.body.includes('hidden') || res.body.includes('root:'), 'nothing served');
  }
});

/** An app on `dbUrl` with the shared settings folder, as a restart would build it. */
async function start(t: Test, dbUrl: string, folder: string) {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ROLE: 'api',
    ASSISTANT_SETTINGS_DIR: folder,
    SKILL_REPO_DIR: join(root, 'skills2'),
    STORAGE_DIR: join(root, 'storage'),
    MAIL_OUTBOX_DIR: join(root, 'outbox'),
  });
  const a = await buildApp({ ...config, DATABASE_URL: dbUrl, JWT_SECRET: TEST_SECRET });
  t.teardown(() => a.close());
  await a.ready();
  return a;
}

t.test('first admin: hand-edited authorization.json is applied at restart', async (t) => {
  const db = await createTestDatabase();
  t.teardown(() => db.drop());
  const folder = join(root, 'first-admin');
  const first = await start(t, db.url, folder);
  const boss = await seedUser(first);
  const helper = await seedUser(first);
  t.equal((await post(first, '/aaa/login.json', { login: boss.email, password: boss.password })).statusCode, 200);
  const auth = await readJson('authorization.json', folder);
  t.same(auth[`email:${boss.email}`], { permissions: {}, userRole: 'user' });
  t.equal((await get(first, '/aaa/listSettings.json', { access_token: boss.token })).status, 401, 'not yet admin');
  await first.close();

  auth[`email:${boss.email}`].userRole = 'admin';
  auth[`email:${helper.email}`] = { permissions: {}, userRole: 'reviewer' };
  auth['email:ghost@example.com'] = { permissions: {}, userRole: 'admin' };
  await writeFile(join(folder, 'authorization.json'), JSON.stringify(auth, null, 2));

  const second = await start(t, db.url, folder);
  const list = await get(second, '/aaa/listSettings.json', { access_token: boss.token });
  t.equal(list.status, 200, 'the edited user may now list the settings');
  t.equal(list.body.accepted, true);
  const v1 = await call(second, { url: `/v1/users/${boss.id}`, token: boss.token });
  t.equal(v1.status, 200);
  t.match(v1.body.data.attributes, { 'is-admin': true, 'is-super-admin': false }, '/v1 shows is-admin');
  const v1h = await call(second, { url: `/v1/users/${helper.id}`, token: boss.token });
  t.match(v1h.body.data.attributes, { 'is-admin': false }, 'reviewer is no admin');
  const after = await readJson('authorization.json', folder);
  t.same(
    after[`email:${boss.email}`],
    { permissions: {}, userRole: 'admin' },
    'rewritten at start with the applied role',
  );
  t.same(after[`email:${helper.email}`], { permissions: {}, userRole: 'reviewer' });
  t.notOk(after['email:ghost@example.com'], 'unknown accounts are not invented');
  const s = await get(second, '/data/settings', { file: 'authorization', access_token: boss.token });
  t.equal(s.status, 200, 'and download them');
});

t.test('another process with a folder of its own answers the same files, as the database holds them now', async (t) => {
  const otherFolder = join(root, 'other-machine');
  const other = await start(t, url, otherFolder);
  // A hand-placed file in this process's folder only: each lists what its folder holds besides.
  await writeFile(join(otherFolder, 'notes.json'), '{}\n');
  const u = await seedUser(app);
  t.equal(
    (await post(app, '/aaa/changeRoles.json', { access_token: admin.token, user: u.email, role: 'reviewer' }))
      .statusCode,
    200,
  );
  t.equal((await post(app, '/aaa/login.json', { login: u.email, password: u.password })).statusCode, 200);
  for (const name of ['accounting', 'authorization', 'groups']) {
    const here = await get(app, '/data/settings', { file: name, access_token: admin.token });
    const there = await get(other, '/data/settings', { file: name, access_token: admin.token });
    t.equal(there.status, 200, name);
    t.ok(there.raw.equals(here.raw), `${name}: the same bytes from both processes`);
    t.equal(Number(there.headers['content-length']), there.raw.length);
  }
  const there = await get(other, '/data/settings', { file: 'authorization', access_token: admin.token });
  t.same(
    there.body[`email:${u.email}`],
    { permissions: {}, userRole: 'reviewer' },
    'the change made through the first process',
  );
  t.ok(
    (await get(other, '/data/settings', { file: 'accounting', access_token: admin.token })).body[`email:${u.email}`]
      .lastLoginTime,
    'and its login',
  );
  const listed = (a: FastifyInstance) =>
    get(a, '/aaa/listSettings.json', { access_token: admin.token }).then((r) => r.body.files as string[]);
  t.same(await listed(app), ['accounting.json', 'authorization.json', 'groups.json']);
  t.same(await listed(other), ['accounting.json', 'authorization.json', 'groups.json', 'notes.json']);
  t.equal(
    (await get(other, '/data/settings', { file: 'notes', access_token: admin.token })).raw.toString(),
    '{}\n',
    'a file of the folder is served as it is',
  );
});

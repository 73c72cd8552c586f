/**
 * What stops `npm start` ends it within seconds with exit code 1 and one line saying what to do
 * (issue 25): the embedded PostgreSQL's port taken (EMBEDDED_PG_PORT), a data folder PostgreSQL may
 * not use, another PostgreSQL already running on the same data folder (a second start of one
 * checkout), a DATABASE_URL whose server refuses the connection or the login, and separate API and
 * worker processes (ROLE) on files kept on one machine's disk, unless LOCAL_STORAGE_SHARED says the
 * folder is every process's (the admin settings cannot switch such a deployment to local storage).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startEmbeddedPostgres } from '../../db/embedded.js';
import { buildTestApp, call, TEST_SECRET } from '../helpers/app.js';
import { createCast } from '../helpers/events.js';
import { createTestDatabase } from '../helpers/database.js';
import { freePort } from '../helpers/postgres.js';
import { startServerProcess } from '../helpers/server-process.js';

/** Seconds a failed start may take (the embedded server's own start included). */
const LIMIT_SECONDS = 30;

/** A folder for DATA_DIR that PostgreSQL's system user may enter (mkdtemp makes it 0700). */
async function dataFolder(t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'oe-start-fault-'));
  await chmod(dir, 0o755);
  t.teardown(async () => {
    await chmod(dir, 0o755);
    await rm(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Starts the service with `env`; resolves with its exit code, what it printed and how long it ran. */
async function failedStart(t: Test, env: Record<string, string>) {
  const started = performance.now();
  const server = startServerProcess({
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'warn',
    ...env,
  });
  // It never listens: `urls` rejects once it has exited.
  server.urls.catch(() => {});
  const killer = setTimeout(() => server.child.kill('SIGKILL'), LIMIT_SECONDS * 1000);
  t.teardown(() => void server.child.kill('SIGKILL'));
  const code = await server.exited;
  clearTimeout(killer);
  const seconds = (performance.now() - started) / 1000;
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  t.equal(code, 1, `exit code 1 (${seconds.toFixed(1)} s)`);
  t.ok(seconds < LIMIT_SECONDS, `ended within ${LIMIT_SECONDS} s`);
  t.equal(lines.length, 1, `one line: ${server.output()}`);
  t.notMatch(server.output(), /undefined|\n\s+at /, 'no "undefined", no stack');
  return lines[0] ?? '';
}

t.test('the embedded PostgreSQL’s port taken by another program', async (t) => {
  const port = await freePort();
  const holder = createServer().listen(port, '127.0.0.1');
  t.teardown(() => void holder.close());
  const dir = await dataFolder(t);
  const line = await failedStart(t, { DATA_DIR: join(dir, 'data'), EMBEDDED_PG_PORT: String(port) });
  t.match(line, `port ${port} is taken`);
  t.match(line, 'EMBEDDED_PG_PORT');
});

t.test('a data folder PostgreSQL may not use', async (t) => {
  const dir = await dataFolder(t);
  // Not writable by this user, and not enterable by PostgreSQL's system user when this one is root.
  await chmod(dir, 0o500);
  const line = await failedStart(t, { DATA_DIR: join(dir, 'data'), EMBEDDED_PG_PORT: String(await freePort()) });
  t.match(line, join(dir, 'data'));
  t.match(line, 'DATA_DIR');
});

t.test('a second start on a data folder whose PostgreSQL runs', async (t) => {
  const dir = await dataFolder(t);
  const first = await startEmbeddedPostgres(join(dir, 'data', 'postgres'), { port: await freePort() });
  t.teardown(() => first.stop());
  const line = await failedStart(t, { DATA_DIR: join(dir, 'data'), EMBEDDED_PG_PORT: String(await freePort()) });
  t.match(line, `Another PostgreSQL already runs on the data folder ${join(dir, 'data', 'postgres')}`);
});

t.test('a DATABASE_URL nothing listens on', async (t) => {
  const port = await freePort();
  const line = await failedStart(t, {
    DATABASE_URL: `postgres://someone:secret@127.0.0.1:${port}/events`,
    DATA_DIR: await dataFolder(t),
  });
  t.match(line, `The database at 127.0.0.1:${port}/events (DATABASE_URL) refused the connection (ECONNREFUSED`);
  t.notMatch(line, 'secret', 'the password is not printed');
});

t.test('a DATABASE_URL with a wrong password', async (t) => {
  const db = await createTestDatabase({ migrated: false });
  t.teardown(() => db.drop());
  const url = new URL(db.url);
  url.password = 'not-the-password';
  const line = await failedStart(t, { DATABASE_URL: url.toString(), DATA_DIR: await dataFolder(t) });
  t.match(line, '(28P01: password authentication failed');
  t.match(line, 'correct the user, password or database in DATABASE_URL');
});

t.test('separate API and worker processes on local storage, unless the folder is shared', async (t) => {
  const db = await createTestDatabase({ migrated: false });
  t.teardown(() => db.drop());
  const dir = await dataFolder(t);
  for (const role of ['api', 'worker']) {
    const line = await failedStart(t, {
      DATABASE_URL: db.url,
      DATA_DIR: dir,
      STORAGE_DIR: join(dir, 'storage'),
      ROLE: role,
    });
    t.match(
      line,
      "Files are kept on this machine's disk (storage-place local in the admin settings), but ROLE=api and ROLE=worker",
    );
    t.match(line, 'LOCAL_STORAGE_SHARED=true');
  }
});

t.test('nor do the admin settings switch such a deployment to local storage', async (t) => {
  const { app } = await buildTestApp(t, { LOCAL_STORAGE_SHARED: 'false' });
  const admin = await createCast(app);
  const res = await call(app, {
    method: 'PATCH',
    url: '/v1/settings/1',
    token: admin.admin.token,
    body: { data: { type: 'setting', id: '1', attributes: { 'storage-place': 'local' } } },
  });
  t.equal(res.status, 422);
  t.match(res.body, {
    errors: [{ source: { pointer: '/data/attributes/storage-place' }, detail: /LOCAL_STORAGE_SHARED=true/ }],
  });
});

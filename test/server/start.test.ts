import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import t from 'tap';
import { createTestDatabase } from '../helpers/database.js';
import { JSONAPI, TEST_SECRET } from '../helpers/app.js';
import { startServerProcess } from '../helpers/server-process.js';

const ADMIN = { email: 'root@example.com', password: 'a long bootstrap password' };

async function login(api: string) {
  const res = await fetch(`${api.replace(/\/v1$/, '')}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return { status: res.status, body: (await res.json()) as { access_token?: string } };
}

t.test('npm start migrates an empty database, bootstraps the super admin, serves, and stops cleanly', async (t) => {
  const db = await createTestDatabase({ migrated: false });
  const dataDir = await mkdtemp(join(tmpdir(), 'oe-start-'));
  t.teardown(async () => {
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const env = {
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: 'warn',
    SUPER_ADMIN_EMAIL: ADMIN.email,
    SUPER_ADMIN_PASSWORD: ADMIN.password,
  };

  for (const round of ['first start', 'second start (idempotent)']) {
    const server = startServerProcess(env, [], { source: true });
    t.teardown(() => void server.child.kill('SIGKILL'));
    const urls = await server.urls;
    t.match(urls.API, /^http:\/\/localhost:\d+\/v1$/, `${round}: prints the API URL`);
    t.equal(urls['Swagger UI'], urls.API!.replace(/\/v1$/, '/docs'), 'prints the Swagger UI URL');
    t.equal(urls['OpenAPI document'], urls.API!.replace(/\/v1$/, '/docs/json'), 'prints the OpenAPI document URL');
    t.equal((await fetch(urls['Swagger UI']!)).status, 200, 'Swagger UI answers');
    const doc = (await (await fetch(urls['OpenAPI document']!)).json()) as { openapi: string };
    t.equal(doc.openapi, '3.1.0', 'the OpenAPI document answers');

    const { status, body } = await login(urls.API!);
    t.equal(status, 200, `${round}: the bootstrapped super admin logs in`);
    const users = await fetch(`${urls.API}/users`, {
      headers: { accept: JSONAPI, authorization: `JWT ${body.access_token}` },
    });
    t.equal(users.status, 200, 'and may list users');
    const list = (await users.json()) as { meta: { count: number }; data: { attributes: Record<string, unknown> }[] };
    t.equal(list.meta.count, 1, 'exactly one account');
    t.match(list.data[0]!.attributes, { email: ADMIN.email, 'is-admin': true, 'is-super-admin': true });

    server.child.kill('SIGTERM');
    t.equal(await server.exited, 0, `${round}: a graceful shutdown exits with 0`);
    await t.rejects(fetch(urls.API!), `${round}: after SIGTERM the process has exited and released its port`);
  }

  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  t.teardown(() => sql.end());
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
  t.ok(n >= 1, 'migrations were recorded once and not re-applied');
});

/**
 * Request logs never hold a secret: the assistant's `access_token` and any `password` or `token`
 * query value are redacted from logged URLs, and the Authorization header is never logged, both with
 * a logger the caller passes to buildApp and in the service as `npm start` runs it at LOG_LEVEL=info.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { JSONAPI, TEST_SECRET, until } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { startService } from '../helpers/service.js';
import { seedUser } from '../helpers/users.js';

const PASSWORD = 'query-string-password-42';

t.test('a logger passed to buildApp: its level and stream kept, no secret in any line', async (t) => {
  const db = await createTestDatabase();
  const dir = await mkdtemp(join(tmpdir(), 'oe-log-redaction-'));
  const lines: string[] = [];
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    ROLE: 'api',
    READ_CACHE_MB: '0',
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
    STORAGE_DIR: join(dir, 'storage'),
    ASSISTANT_SETTINGS_DIR: join(dir, 'settings'),
    SKILL_REPO_DIR: join(dir, 'skills'),
  });
  const app = await buildApp(
    { ...config, DATABASE_URL: db.url, JWT_SECRET: TEST_SECRET },
    { logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } },
  );
  t.teardown(async () => {
    await app.close();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });
  await app.ready();
  const user = await seedUser(app);
  const signature = user.token.split('.')[2]!;

  const requests = [
    { url: `/cms/getModel.json?access_token=${user.token}`, status: 200 },
    { url: `/cms/getModel.json?model=general&Access%5FToken=${user.token}&x=1`, status: 200 },
    { url: `/aaa/login.json?login=${encodeURIComponent(user.email)}&password=${PASSWORD}`, status: 422 },
    { url: `/v1/users/${user.id}`, headers: { authorization: `JWT ${user.token}`, accept: JSONAPI }, status: 200 },
    { url: `/v1/no-such-route?token=${user.token}`, headers: { authorization: `Bearer ${user.token}` }, status: 404 },
  ];
  for (const r of requests)
    t.equal(
      (await app.inject({ method: 'GET', url: r.url, headers: r.headers })).statusCode,
      r.status,
      r.url.split('?')[0],
    );

  const log = lines.join('');
  t.ok(lines.length >= 2 * requests.length, 'every request was logged at info, through the stream given');
  t.notOk(log.includes(signature), 'no token, in the query or in the Authorization header');
  t.notOk(log.includes(PASSWORD), 'no password');
  t.notOk(/authorization/i.test(log), 'no Authorization header');
  const urls = lines.map((l) => JSON.parse(l) as { req?: { url: string } }).flatMap((l) => (l.req ? [l.req.url] : []));
  t.same(
    urls,
    [
      '/cms/getModel.json?access_token=[REDACTED]',
      '/cms/getModel.json?model=general&Access%5FToken=[REDACTED]&x=1',
      `/aaa/login.json?login=${encodeURIComponent(user.email)}&password=[REDACTED]`,
      `/v1/users/${user.id}`,
      '/v1/no-such-route?token=[REDACTED]',
    ],
    'the URLs are logged with only the secret values replaced',
  );
});

t.test('npm start at LOG_LEVEL=info logs no token and no password', async (t) => {
  const service = await startService(t, { LOG_LEVEL: 'info' });
  const api = await service.api();
  const email = 'logged@example.com';
  const registered = await fetch(`${api.origin}/v1/users`, {
    method: 'POST',
    headers: { 'content-type': JSONAPI },
    body: JSON.stringify({ data: { type: 'user', attributes: { email, password: PASSWORD } } }),
  });
  t.equal(registered.status, 201);
  const id = ((await registered.json()) as { data: { id: string } }).data.id;
  const login = await fetch(`${api.origin}/aaa/login.json?login=${encodeURIComponent(email)}&password=${PASSWORD}`);
  const token = ((await login.json()) as { access_token: string }).access_token;
  t.type(token, 'string', 'logged in through the query string');
  t.equal((await fetch(`${api.origin}/cms/getModel.json?access_token=${token}`)).status, 200);
  t.equal((await fetch(`${api.origin}/v1/users/${id}`, { headers: { authorization: `JWT ${token}` } })).status, 200);

  await until('the last request logged', async () => (api.output().includes(`/v1/users/${id}`) ? true : undefined));
  const out = api.output();
  t.ok(out.includes('/cms/getModel.json?access_token=[REDACTED]'), 'the URL is logged, redacted');
  t.ok(out.includes(`password=[REDACTED]`), 'the password query value is redacted');
  t.notOk(out.includes(token.split('.')[2]!), 'no token anywhere in the output');
  t.notOk(out.includes(PASSWORD), 'no password anywhere in the output');
});

/**
 * The bench baselines answer what the service answers, through hand-written SQL that skips the engine's
 * checks (the settings with their secrets, to an administrator). With BENCH_ROUTES=true they serve only
 * callers on this machine; anyone else gets the 404 of a route that is not there, with no row in it.
 * Without BENCH_ROUTES they are not mounted at all: test/security/deployment-defaults.test.ts.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, eventAttributes } from '../helpers/events.js';
import { seedUser } from '../helpers/users.js';

const SECRET = `bench-secret-${process.pid}`;

/** Every bench route, with what it serves: the settings row, login, a list, a record, a related list. */
const routes = (event: string) =>
  [
    { method: 'GET', url: '/bench/baseline/settings/1' },
    {
      method: 'POST',
      url: '/bench/baseline/login',
      payload: { email: 'nobody@example.com', password: 'whatever it is' },
    },
    { method: 'GET', url: '/bench/baseline/events' },
    { method: 'GET', url: `/bench/baseline/events/${event}` },
    { method: 'GET', url: `/bench/baseline/events/${event}/sessions` },
  ] as const;

t.test('with BENCH_ROUTES: loopback callers only', async (t) => {
  const { app } = await buildTestApp(t, { BENCH_ROUTES: 'true' });
  const admin = await seedUser(app, { admin: true });
  const event = await create(app, admin.token, 'events', 'event', eventAttributes('Bench'));
  const saved = await call(app, {
    method: 'PATCH',
    url: '/v1/settings/1',
    token: admin.token,
    body: { data: { type: 'setting', id: '1', attributes: { 'smtp-password': SECRET } } },
  });
  t.equal(saved.status, 200, 'a secret in the settings');

  for (const route of routes(event)) {
    const name = `${route.method} ${route.url}`;
    for (const remoteAddress of ['203.0.113.5', '2001:db8::5', '10.0.0.7']) {
      const res = await app.inject({ ...route, remoteAddress, headers: { 'x-forwarded-for': '127.0.0.1' } });
      t.equal(res.statusCode, 404, `${name} from ${remoteAddress}: 404`);
      t.equal(
        res.json().errors?.[0]?.detail,
        `No route for ${route.method} ${route.url}`,
        'as if there were no such route',
      );
      t.notOk(
        res.body.includes(SECRET) || res.body.includes('"rows"') || res.body.includes('"row"'),
        `${name} from ${remoteAddress}: no row`,
      );
    }
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await app.inject({ ...route, remoteAddress });
      t.equal(res.statusCode, 200, `${name} from ${remoteAddress}: served`);
    }
  }
  const settings = await app.inject({
    url: '/bench/baseline/settings/1',
    headers: { authorization: `JWT ${admin.token}` },
  });
  t.ok(settings.body.includes(SECRET), 'what the loopback administrator gets is the full settings, secrets and all');
  const anonymous = await app.inject({ url: '/bench/baseline/settings/1' });
  t.equal(anonymous.statusCode, 200, 'anyone on this machine reads the settings');
  t.notOk(anonymous.body.includes(SECRET), 'but, as from the service, without the secrets');
});

t.test('behind a proxy on this machine (TRUST_PROXY), the client it forwards for must be local too', async (t) => {
  const { app } = await buildTestApp(t, { BENCH_ROUTES: 'true', TRUST_PROXY: '127.0.0.1' });
  const url = '/bench/baseline/settings/1';
  const forwarded = (client: string) =>
    app.inject({ url, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
  t.equal((await forwarded('203.0.113.5')).statusCode, 404, 'a remote client through the local proxy: 404');
  t.equal((await forwarded('127.0.0.1')).statusCode, 200, 'a local client through it: served');
});

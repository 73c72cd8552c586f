/**
 * Configuration defaults that keep a deployment safe: the bench baselines (undocumented, no rate
 * limit on their login) are not mounted unless BENCH_ROUTES asks for them; X-Forwarded-For names the
 * client only when it comes from the TRUST_PROXY address, so a client cannot pick a fresh address per
 * request to escape the app generator's per-address limit, while behind the proxy each forwarded
 * client has its own budget.
 */
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { expectError, seedUser } from '../helpers/users.js';

const BENCH = [
  '/bench/baseline/users',
  '/bench/baseline/settings/1',
  '/bench/baseline/events/1',
  '/bench/baseline/events/1/sessions',
];

t.test('without BENCH_ROUTES the bench baselines are 404, for anyone from anywhere', async (t) => {
  const { app } = await buildTestApp(t);
  const admin = await seedUser(app, { superAdmin: true });
  for (const url of BENCH) {
    for (const remoteAddress of ['127.0.0.1', '203.0.113.5']) {
      for (const token of [undefined, admin.token]) {
        const res = await app.inject({
          method: 'GET',
          url,
          remoteAddress,
          headers: token ? { authorization: `JWT ${token}` } : {},
        });
        const parsed = { status: res.statusCode, headers: res.headers, body: res.json() };
        expectError(t, parsed, 404, { detail: `No route for GET ${url}` });
      }
    }
  }
  const login = await call(app, {
    method: 'POST',
    url: '/bench/baseline/login',
    headers: { 'content-type': 'application/json' },
    body: { email: admin.email, password: admin.password },
  });
  expectError(t, login, 404, { detail: 'No route for POST /bench/baseline/login' });

  // The control: the same paths exist when the operator asks for them.
  const { app: bench } = await buildTestApp(t, { BENCH_ROUTES: 'true' });
  const benchAdmin = await seedUser(bench, { superAdmin: true });
  const mounted = await bench.inject({
    method: 'GET',
    url: '/bench/baseline/users',
    headers: { authorization: `JWT ${benchAdmin.token}` },
  });
  t.not(mounted.statusCode, 404, `with BENCH_ROUTES the route is mounted (${mounted.statusCode})`);
});

const ENDPOINT = 'https://api.example.org/v1/events/1';
const LIMITS = { APPGEN_RATE_PER_IP: '2', APPGEN_RATE_PER_EMAIL: '100', APPGEN_RATE_WINDOW_SECONDS: '3600' };
let builds = 0;
/** One app build request from `remoteAddress`, with that X-Forwarded-For when given; answers the status. */
async function build(app: FastifyInstance, remoteAddress: string, forwardedFor?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/api.php',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    payload: { email: `builder${++builds}@example.org`, app_name: 'Summit', endpoint: ENDPOINT },
  });
  return res.statusCode;
}
/** The client address each build was counted against, sorted (two builds may share a millisecond). */
const clients = async (app: FastifyInstance) =>
  (
    await app.sql<
      { client: string }[]
    >`select options->>'client' as client from tasks where kind = 'app' order by client`
  ).map((r) => r.client);

t.test('without TRUST_PROXY a varying X-Forwarded-For does not escape the per-address limit', async (t) => {
  const { app } = await buildTestApp(t, LIMITS);
  const statuses = [];
  for (let i = 1; i <= 4; i++) statuses.push(await build(app, '203.0.113.7', `198.51.100.${i}`));
  t.same(statuses, [202, 202, 429, 429], 'the third and fourth builds are refused, whatever the header says');
  t.same(await clients(app), ['203.0.113.7', '203.0.113.7'], 'the builds are counted against the connecting address');
  t.same(
    [await build(app, '203.0.113.8', '203.0.113.7')],
    [202],
    'another connecting address has its own budget, whatever it forwards',
  );
});

t.test('with TRUST_PROXY, the address the proxy forwards is the one counted', async (t) => {
  const proxy = '10.0.0.1';
  const { app } = await buildTestApp(t, { ...LIMITS, TRUST_PROXY: proxy });
  t.same(
    [
      await build(app, proxy, '198.51.100.1'),
      await build(app, proxy, '198.51.100.1'),
      await build(app, proxy, '198.51.100.1'),
    ],
    [202, 202, 429],
    'one forwarded client: its budget of two',
  );
  t.same(
    [
      await build(app, proxy, '198.51.100.2'),
      await build(app, proxy, '198.51.100.2'),
      await build(app, proxy, '198.51.100.2'),
    ],
    [202, 202, 429],
    'another forwarded client: a budget of its own',
  );
  // A client's own X-Forwarded-For, before the proxy's, changes nothing: the proxy appends the address it saw.
  t.same([await build(app, proxy, '192.0.2.99, 198.51.100.1')], [429], 'a spoofed first hop is ignored');
  // Anyone but the proxy is counted by the address it connects from.
  t.same(
    [
      await build(app, '203.0.113.9', '198.51.100.3'),
      await build(app, '203.0.113.9', '198.51.100.4'),
      await build(app, '203.0.113.9', '198.51.100.5'),
    ],
    [202, 202, 429],
    'a client that is not the proxy cannot forward for itself',
  );
  t.same(await clients(app), [
    '198.51.100.1',
    '198.51.100.1',
    '198.51.100.2',
    '198.51.100.2',
    '203.0.113.9',
    '203.0.113.9',
  ]);
});

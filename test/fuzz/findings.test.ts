/**
 * What the contract fuzzer (contract.test.ts) found, each as the request that showed it: the answer a
 * client now gets, that it is in the OpenAPI contract, and that nothing was written.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { conformanceErrors } from '../helpers/conformance.js';
import { buildWorld, rel, snapshotOf } from '../helpers/events.js';
import { multipart } from '../helpers/images.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const admin = await seedUser(app, { superAdmin: true });
const token = admin.token;
const snapshot = snapshotOf(app, ['events', 'event_roles', 'orders', 'mails', 'tasks', 'pages']);
const order = await call(app, {
  method: 'POST',
  url: '/v1/orders',
  token,
  body: { data: { type: 'order', attributes: { status: 'completed' }, relationships: { event: rel('event', world.published.event) } } },
});
const before = await snapshot();

/** The answer conforms to the document for the route it reached. */
function inContract(t: Test, method: string, route: string, res: { status: number; headers: Record<string, unknown>; body: unknown }) {
  const body = res.body === undefined ? undefined : JSON.stringify(res.body);
  t.same(conformanceErrors({ method, route, status: res.status, contentType: String(res.headers['content-type']), body }), [], `${method} ${route} ${res.status} is in the contract`);
}

t.test('a NUL in a path id that may be an identifier is 404, not a database error (was 500)', async (t) => {
  for (const [method, url, route] of [
    ['GET', '/v1/events/%00', '/v1/events/:id'],
    ['PATCH', '/v1/events/a%00b', '/v1/events/:id'],
    ['DELETE', '/v1/events/%00', '/v1/events/:id'],
    ['GET', '/v1/events/a%00b/sessions', '/v1/events/:id/sessions'],
    ['POST', '/v1/events/%00/relationships/coorganizers', '/v1/events/:id/relationships/coorganizers'],
    ['GET', '/v1/orders/%00', '/v1/orders/:id'],
  ] as const) {
    const body = method === 'PATCH' ? { data: { type: 'event', id: world.published.event, attributes: {} } } : method === 'POST' ? { data: [] } : undefined;
    const res = await call(app, { method, url, token, body });
    expectError(t, res, 404, { detail: 'Object not found.' });
    inContract(t, method, route, res);
  }
  const exported = await call(app, { method: 'POST', url: '/v1/events/%00/export/json', token, body: {}, headers: { 'content-type': 'application/json' } });
  expectError(t, exported, 404, { detail: 'Event not found' });
  inContract(t, 'POST', '/v1/events/:event_id/export/json', exported);
  t.same(await snapshot(), before, 'nothing written');
});

t.test('a NUL in the order identifier of a receipt is 404, not a database error (was 500)', async (t) => {
  const res = await call(app, { method: 'POST', url: '/v1/attendees/send-receipt', token, body: { 'order-identifier': '\u0000' }, headers: { 'content-type': 'application/json' } });
  expectError(t, res, 404, { detail: 'Order not found' });
  inContract(t, 'POST', '/v1/attendees/send-receipt', res);
  t.equal(order.status, 201, 'a completed order exists, so only the NUL stands between the request and a mail');
  t.same(await snapshot(), before, 'no mail recorded');
});

t.test('a GET with a body of another media type is 415, as the document now says (was undeclared)', async (t) => {
  for (const [url, route] of [
    ['/v1/users', '/v1/users'],
    [`/v1/events/${world.published.event}/relationships/coorganizers`, '/v1/events/:id/relationships/coorganizers'],
    [`/v1/sessions/${world.published.session}/track`, '/v1/sessions/:id/track'],
  ]) {
    const res = await call(app, { url: url!, token, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expectError(t, res, 415);
    inContract(t, 'GET', route!, res);
  }
});

t.test('a DELETE with a malformed or oversized body is 400 or 413, as the document now says (was undeclared)', async (t) => {
  const url = `/v1/pages/999`;
  const malformed = await call(app, { method: 'DELETE', url, token, body: '{', headers: { 'content-type': JSONAPI } });
  expectError(t, malformed, 400);
  inContract(t, 'DELETE', '/v1/pages/:id', malformed);
  const huge = await call(app, { method: 'DELETE', url, token, body: `"${'x'.repeat(1_100_000)}"`, headers: { 'content-type': JSONAPI } });
  expectError(t, huge, 413);
  inContract(t, 'DELETE', '/v1/pages/:id', huge);
  t.same(await snapshot(), before, 'nothing written');
});

t.test('a stored file keeps its own media type, which the document now allows (was application/octet-stream only)', async (t) => {
  const form = multipart([['file', 'notes.txt', 'hello']]);
  const stored = await app.inject({ method: 'POST', url: '/v1/upload/file?force_local=true', headers: { ...form.headers, authorization: `JWT ${token}` }, payload: form.payload });
  t.equal(stored.statusCode, 200, 'stored');
  const res = await app.inject({ method: 'GET', url: new URL(stored.json().url).pathname });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/plain/, 'served as text');
  t.same(conformanceErrors({ method: 'GET', route: '/static/media/:path', status: 200, contentType: res.headers['content-type'] as string, body: res.body }), [], 'in the contract');
});

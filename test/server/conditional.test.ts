/**
 * Conditional GETs: 200 answers to GET and HEAD carry a weak ETag of their body; `If-None-Match`
 * naming it (as sent, without W/, in a list, or `*`) is answered 304 without a body; a change gives
 * a new tag; other methods, other statuses and bodies not in memory are left alone. Polling a task
 * URL costs a 304 while nothing changes.
 */
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
await createEvent(app, cast, 'Etag Conf', 'published');
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const WEAK = /^W\/"[A-Za-z0-9_-]{27}"$/;

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

t.test('a list answers a weak ETag, the same while nothing changes', async (t) => {
  const first = await get('/v1/events');
  const second = await get('/v1/events');
  t.equal(first.statusCode, 200);
  t.match(first.headers.etag, WEAK);
  t.equal(second.headers.etag, first.headers.etag);
});

t.test('If-None-Match naming the tag is 304 without a body; anything else is the document', async (t) => {
  const { etag } = (await get('/v1/events')).headers as { etag: string };
  for (const header of [etag, etag.slice(2), `"nope", ${etag}`, '*']) {
    const res = await get('/v1/events', { 'if-none-match': header });
    t.equal(res.statusCode, 304, `If-None-Match: ${header}`);
    t.equal(res.body, '', 'no body');
    t.equal(res.headers.etag, etag, 'the tag is sent again');
  }
  const other = await get('/v1/events', { 'if-none-match': 'W/"something-else"' });
  t.equal(other.statusCode, 200);
  t.equal(other.json().data.length, 1);
});

t.test('a change gives a new tag, and the old one no longer matches', async (t) => {
  const { etag } = (await get('/v1/events')).headers as { etag: string };
  await createEvent(app, cast, 'Second Conf', 'published');
  const res = await get('/v1/events', { 'if-none-match': etag });
  t.equal(res.statusCode, 200);
  t.not(res.headers.etag, etag);
  t.equal(res.json().data.length, 2);
});

t.test('HEAD is tagged and answered 304 too', async (t) => {
  const head = await app.inject({ method: 'HEAD', url: '/v1/events' });
  const { etag } = (await get('/v1/events')).headers as { etag: string };
  t.equal(head.headers.etag, etag);
  const res = await app.inject({ method: 'HEAD', url: '/v1/events', headers: { 'if-none-match': etag } });
  t.equal(res.statusCode, 304);
});

t.test('writes and failures are never 304', async (t) => {
  const created = await call(app, {
    method: 'POST',
    url: '/v1/event-topics',
    token: cast.admin.token,
    body: { data: { type: 'event-topic', attributes: { name: 'Tagged' } } },
    headers: { 'if-none-match': '*' },
  });
  t.equal(created.status, 201, 'a POST with If-None-Match: * is still created');
  t.notOk(created.headers.etag, 'and carries no tag');
  const missing = await get('/v1/events/999999', { 'if-none-match': '*' });
  t.equal(missing.statusCode, 404);
  t.notOk(missing.headers.etag);
});

t.test('over HTTP: polling a task URL while it waits is 304, no body', async (t) => {
  const started = await call(app, {
    method: 'POST',
    url: '/api/api.php',
    body: { email: 'poller@example.org', app_name: 'Poll', endpoint: 'https://api.example.org/v1/events/1' },
    headers: { 'content-type': 'application/json' },
  });
  t.equal(started.status, 202);
  const first = await fetch(`${base}${started.body.task_url}`);
  t.equal(first.status, 200);
  t.same(await first.json(), { state: 'WAITING', status: null, result: null });
  const etag = first.headers.get('etag')!;
  t.match(etag, WEAK);
  const again = await fetch(`${base}${started.body.task_url}`, { headers: { 'if-none-match': etag } });
  t.equal(again.status, 304);
  t.equal(again.headers.get('etag'), etag);
  t.equal(await again.text(), '');
  t.equal(again.headers.get('content-length'), null, 'no length of a body that is not sent');
});

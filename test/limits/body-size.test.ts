/**
 * Request bodies are at most 1 MiB (README, "Using the API"): on /v1 a body of exactly 1 MiB is read
 * and judged on its content, one byte more is 413 as a JSON:API error document and writes nothing,
 * also when it arrives chunked without a Content-Length; the assistant's form bodies have the same
 * limit and answer in the assistant's format. (Uploads have their own limits: UPLOAD_*, IMAGE_*,
 * test/files; the app generator takes 16 KiB: test/appgen/api.test.ts.)
 */
import { Readable } from 'node:stream';
import t from 'tap';
import { assertError, buildTestApp, JSONAPI } from '../helpers/app.js';
import { countUsers } from '../helpers/users.js';

const MIB = 1024 * 1024;
const { app } = await buildTestApp(t);

/** A registration document of exactly `bytes` bytes: the name is what pads it. */
function registration(bytes: number): string {
  const around = (name: string) =>
    JSON.stringify({ data: { type: 'user', attributes: { email: 'big@example.org', password: 'long enough', name } } });
  const body = around('n'.repeat(bytes - around('').length));
  if (Buffer.byteLength(body) !== bytes) throw new Error('the padding is off');
  return body;
}

const register = async (payload: string | Readable) => {
  const chunked = payload instanceof Readable ? { 'transfer-encoding': 'chunked' } : {};
  const res = await app.inject({
    method: 'POST',
    url: '/v1/users',
    headers: { 'content-type': JSONAPI, accept: JSONAPI, ...chunked },
    payload,
  });
  return { status: res.statusCode, headers: res.headers, body: res.json() };
};

t.test('/v1: exactly 1 MiB is read and judged on its content', async (t) => {
  const before = await countUsers(app);
  const res = await register(registration(MIB));
  assertError(t, res, 422, { pointer: '/data/attributes/name' });
  t.equal(await countUsers(app), before, 'the over-long name is refused, nothing written');
});

t.test('/v1: one byte over 1 MiB is 413 as a JSON:API error document, and nothing is written', async (t) => {
  const before = await countUsers(app);
  const res = await register(registration(MIB + 1));
  assertError(t, res, 413);
  t.equal(res.body.errors[0].title, 'Payload Too Large');
  t.equal(await countUsers(app), before);
});

t.test('/v1: a chunked body without Content-Length is cut off at 1 MiB too', async (t) => {
  const before = await countUsers(app);
  const body = registration(4 * MIB);
  const chunks = Array.from({ length: 64 }, (_, i) => body.slice((i * body.length) / 64, ((i + 1) * body.length) / 64));
  const res = await register(Readable.from(chunks));
  assertError(t, res, 413);
  t.equal(await countUsers(app), before);
});

t.test('the assistant: a form body over 1 MiB is 413 in its own format', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/aaa/login.json',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `login=a%40example.org&password=${'p'.repeat(MIB)}`,
  });
  t.equal(res.statusCode, 413);
  t.match(res.headers['content-type'], /^application\/json/);
  const body = res.json();
  t.strictSame(Object.keys(body).sort(), ['accepted', 'message']);
  t.equal(body.accepted, false);
  const [hits] = await app.sql`select count(*)::int as n from rate_limit_hits`;
  t.equal(hits!.n, 0, 'refused before it was read: no login attempt counted');
});

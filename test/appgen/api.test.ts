/**
 * The app generator's front door, `POST /api/api.php`, as a client sees it (no workers: jobs stay
 * queued). Every other method is the reference's 405 with `Allow: POST`; a missing field or a body
 * that is not an object is 422 `Unprocessable entity`; an invalid field is 422 naming it (members it
 * does not know are ignored: droidgen-v1-api-php.test.ts); malformed JSON and an oversized body are 400
 * and 413; every refusal is
 * `{"status":"error","code":N,"message"}` with HTTP status N and writes neither a task nor a job.
 * A good request is 202 with a 16-hex identifier and a task URL readable without a token, records an
 * `app` task (e-mail lower-cased, name verbatim, however hostile) and queues one `app-build` job.
 * The per-e-mail and per-client-address limits answer 429 with `Retry-After`, also under concurrent
 * requests, count `+tag` addresses as their mailbox and IPv6 clients by their /64, and CORS lets any
 * origin call the endpoint.
 */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';

const URL = '/api/api.php';
const ENDPOINT = 'https://api.example.org/v1/events/42';
const METHOD_NOT_ALLOWED = { status: 'error', code: 405, message: 'Method Not Allowed' };
const UNPROCESSABLE = { status: 'error', code: 422, message: 'Unprocessable entity' };

const { app } = await buildTestApp(t);
const { app: limited } = await buildTestApp(t, {
  APPGEN_RATE_PER_EMAIL: '2',
  APPGEN_RATE_PER_IP: '3',
  APPGEN_RATE_WINDOW_SECONDS: '3600',
});

interface Post {
  /** sent as is when a string, else JSON-encoded; no payload at all when undefined */
  payload?: unknown;
  contentType?: string | null;
  remoteAddress?: string;
  headers?: Record<string, string>;
}

/** A POST to the generator as a browser or curl sends it; answers status, headers, raw and parsed body. */
async function post(
  on: FastifyInstance,
  { payload, contentType = 'application/json', remoteAddress, headers = {} }: Post,
) {
  const res = await on.inject({
    method: 'POST',
    url: URL,
    ...(remoteAddress ? { remoteAddress } : {}),
    headers: { ...(contentType ? { 'content-type': contentType } : {}), ...headers },
    ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, headers: res.headers, raw: res.body, body };
}

type Answer = Awaited<ReturnType<typeof post>>;

/** A refusal in the generator's own shape: HTTP status = code, JSON media type, exactly three members. */
function assertFailure(t: Test, res: Answer, code: number, message: string | RegExp) {
  t.equal(res.status, code, `status ${code}`);
  t.match(res.headers['content-type'], /^application\/json/, 'JSON media type');
  const body = res.body as Record<string, unknown>;
  t.strictSame(Object.keys(body ?? {}).sort(), ['code', 'message', 'status'], `only status, code, message: ${res.raw}`);
  t.equal(body?.status, 'error');
  t.equal(body?.code, code, 'code is the HTTP status');
  if (typeof message === 'string') t.equal(body?.message, message, 'message');
  else t.match(body?.message, message, 'message');
}

/** Task rows of kind 'app' and queued 'app-build' jobs: what a refused request must leave alone. */
async function written(on: FastifyInstance) {
  const [tasks] = await on.sql`select count(*)::int as n from tasks where kind = 'app'`;
  const [jobs] = await on.sql`select count(*)::int as n from pgboss.job where name = 'app-build'`;
  return { tasks: tasks!.n as number, jobs: jobs!.n as number };
}

let clients = 0;
/** A fresh client address, so that the default per-address limit never interferes with the main app's tests. */
const nextClient = () => `198.51.100.${++clients}`;
let mailboxes = 0;
const nextEmail = () => `builder${++mailboxes}@example.org`;
const good = (overrides: Record<string, unknown> = {}) => ({
  email: nextEmail(),
  app_name: 'My Event',
  endpoint: ENDPOINT,
  ...overrides,
});

t.test('every method but POST is 405 Method Not Allowed with Allow: POST', async (t) => {
  const before = await written(app);
  for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
    const res = await app.inject({ method, url: URL });
    t.equal(res.statusCode, 405, `${method} status`);
    t.equal(res.headers.allow, 'POST', `${method} Allow`);
    t.match(res.headers['content-type'], /^application\/json/, `${method} content type`);
    t.strictSame(JSON.parse(res.body), METHOD_NOT_ALLOWED, `${method} body`);
  }
  // A body (even a valid one) changes nothing, and a malformed one is not parsed at all.
  for (const payload of [JSON.stringify(good()), '{"email": "a@b.c",', 'not json at all']) {
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await app.inject({ method, url: URL, headers: { 'content-type': 'application/json' }, payload });
      t.equal(res.statusCode, 405, `${method} with ${payload} status`);
      t.equal(res.headers.allow, 'POST', `${method} with ${payload} Allow`);
      t.strictSame(JSON.parse(res.body), METHOD_NOT_ALLOWED, `${method} with ${payload} body`);
    }
  }
  const head = await app.inject({ method: 'HEAD', url: URL });
  t.equal(head.statusCode, 405, 'HEAD status');
  t.equal(head.headers.allow, 'POST', 'HEAD Allow');
  t.match(head.headers['content-type'], /^application\/json/, 'HEAD content type');
  t.equal(head.body, '', 'HEAD has no body');
  // A method no route names gets the service-wide 405, whose Allow names what really works.
  const trace = await app.inject({ method: 'TRACE' as 'GET', url: URL });
  t.equal(trace.statusCode, 405, 'TRACE status');
  t.equal(trace.headers.allow, 'POST', 'TRACE Allow');
  t.strictSame(await written(app), before, 'nothing written');
});

t.test('a missing field or a body that is not an object is 422 Unprocessable entity', async (t) => {
  const before = await written(app);
  const complete = good();
  for (const field of ['email', 'app_name', 'endpoint'] as const) {
    const { [field]: _dropped, ...rest } = complete;
    assertFailure(t, await post(app, { payload: rest, remoteAddress: nextClient() }), 422, UNPROCESSABLE.message);
  }
  for (const payload of ['{}', '[]', JSON.stringify([complete]), '"a string"', 'null', '42', 'true']) {
    const res = await post(app, { payload, remoteAddress: nextClient() });
    t.strictSame(res.body, UNPROCESSABLE, `body ${payload}`);
    assertFailure(t, res, 422, UNPROCESSABLE.message);
  }
  const empty = await post(app, { contentType: null, remoteAddress: nextClient() });
  t.strictSame(empty.body, UNPROCESSABLE, `no body at all: ${empty.status} ${empty.raw}`);
  assertFailure(t, empty, 422, UNPROCESSABLE.message);
  // What `curl -X POST -H 'Content-Type: application/json'` sends: the type, no body.
  const typedEmpty = await post(app, { remoteAddress: nextClient() });
  t.strictSame(typedEmpty.body, UNPROCESSABLE, `a JSON type and no body: ${typedEmpty.status} ${typedEmpty.raw}`);
  assertFailure(t, typedEmpty, 422, UNPROCESSABLE.message);
  t.strictSame(await written(app), before, 'nothing written');
});

t.test('an invalid field is 422 whose message starts with the field name', async (t) => {
  const before = await written(app);
  const local = 'a'.repeat(64);
  const cases: [string, Record<string, unknown>][] = [
    ['email', { email: 'not-an-address' }],
    ['email', { email: 'two@@example.org' }],
    ['email', { email: '' }],
    ['email', { email: `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(39)}.org` }], // 300 chars
    ['email', { email: 42 }],
    ['email', { email: null }],
    ['email', { email: ['a@b.org'] }],
    ['app_name', { app_name: '' }],
    ['app_name', { app_name: '   ' }],
    ['app_name', { app_name: '\t' }],
    ['app_name', { app_name: 'x'.repeat(101) }],
    ['app_name', { app_name: '🎉'.repeat(101) }],
    ['app_name', { app_name: '\u00a0\u00a0' }],
    ['app_name', { app_name: 'two\nlines' }],
    ['app_name', { app_name: 'nul\u0000byte' }],
    ['app_name', { app_name: 'delete\u007f' }],
    ['app_name', { app_name: 'next\u0085line' }],
    ['app_name', { app_name: 'line\u2028separator' }],
    ['app_name', { app_name: 'right\u202eto left' }],
    ['app_name', { app_name: 'isolate\u2067d' }],
    ['app_name', { app_name: 7 }],
    ['app_name', { app_name: { name: 'x' } }],
    ['endpoint', { endpoint: 'ftp://x/y' }],
    ['endpoint', { endpoint: 'not a url' }],
    ['endpoint', { endpoint: 'javascript:alert(1)' }],
    ['endpoint', { endpoint: 'file:///etc/passwd' }],
    ['endpoint', { endpoint: 'http://user:pw@host/v1/events/1' }],
    ['endpoint', { endpoint: 'https://user@host/v1/events/1' }],
    ['endpoint', { endpoint: 'https://user%40x:pw@host/v1/events/1' }],
    ['endpoint', { endpoint: 'https://evil.example\\@api.example.org/v1/events/1' }],
    ['endpoint', { endpoint: 'http:///v1/events/1' }],
    ['endpoint', { endpoint: `https://api.example.org/v1/events/${'1'.repeat(3000)}` }],
    ['endpoint', { endpoint: '' }],
    ['endpoint', { endpoint: 'https://api.example.org:99999/v1/events/1' }],
    ['endpoint', { endpoint: "https://a;b'c.example/v1/events/1" }],
    ['endpoint', { endpoint: 'https://a_b.example/v1/events/1' }],
    ['endpoint', { endpoint: 12 }],
  ];
  t.equal((cases[3]![1].email as string).length, 300, 'the long address is 300 characters');
  for (const [field, change] of cases) {
    const res = await post(app, { payload: good(change), remoteAddress: nextClient() });
    // Test names are TAP lines: control and line-separator characters are shown escaped.
    const shown = JSON.stringify(change[field]).replace(
      /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    t.test(`${field} = ${shown.slice(0, 60)}`, async (t) => {
      assertFailure(t, res, 422, new RegExp(`^${field}\\b`));
    });
  }
  t.strictSame(await written(app), before, 'nothing written');
});

t.test('malformed JSON and a Content-Type of no media type are 400, a body over 16 KiB 413', async (t) => {
  const before = await written(app);
  for (const payload of ['{"email": "a@b.org",', '{email: "a@b.org"}', "{'a': 1}", '{"a": 1}}']) {
    assertFailure(t, await post(app, { payload, remoteAddress: nextClient() }), 400, /\S/);
    assertFailure(t, await post(app, { payload, contentType: 'text/plain', remoteAddress: nextClient() }), 400, /\S/);
  }
  // A Content-Type header that names no media type (what the fuzzer sent) is a body the generator cannot read.
  const readable = JSON.stringify({ email: 'a@b.org', app_name: 'x', endpoint: 'https://example.org' });
  assertFailure(
    t,
    await post(app, { payload: readable, contentType: ';;;', remoteAddress: nextClient() }),
    400,
    /^The Content-Type header is not a media type$/,
  );
  // A urlencoded body that is not JSON is a form: this one lacks two fields.
  assertFailure(
    t,
    await post(app, {
      payload: 'email=a@b.org',
      contentType: 'application/x-www-form-urlencoded',
      remoteAddress: nextClient(),
    }),
    422,
    UNPROCESSABLE.message,
  );
  const big = JSON.stringify(good({ app_name: 'x'.repeat(17 * 1024) }));
  t.ok(big.length > 16 * 1024, 'the big body is over 16 KiB');
  assertFailure(t, await post(app, { payload: big, remoteAddress: nextClient() }), 413, /\S/);
  assertFailure(
    t,
    await post(app, { payload: big, contentType: 'text/plain', remoteAddress: nextClient() }),
    413,
    /\S/,
  );
  t.strictSame(await written(app), before, 'nothing written');
});

t.test(
  'values at the limits are accepted: 100-character names, a 254-character address, a 2048-character URL',
  async (t) => {
    const email254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.org`;
    const endpoint2048 = `https://api.example.org/${'a'.repeat(2048 - 24)}`;
    t.equal(email254.length, 254);
    t.equal(endpoint2048.length, 2048);
    for (const change of [
      { app_name: 'x'.repeat(100) },
      { app_name: '🎉'.repeat(100) },
      { email: email254 },
      { endpoint: endpoint2048 },
      { endpoint: 'HTTP://API.EXAMPLE.ORG/v1/events/42' },
      { endpoint: 'https://api.example.org:8443/v1/events/42?include=x#top' },
    ]) {
      const payload = good(change);
      const res = await post(app, { payload, remoteAddress: nextClient() });
      t.equal(res.status, 202, `${JSON.stringify(change).slice(0, 80)}: ${res.raw}`);
      const id = /[0-9a-f-]{36}$/.exec((res.body as { task_url?: string })?.task_url ?? '')?.[0] ?? '';
      const [row] =
        await app.sql`select options->>'app_name' as app_name, options->>'email' as email, options->>'endpoint' as endpoint from tasks where id::text = ${id}`;
      t.strictSame(
        { ...row },
        { app_name: payload.app_name, email: payload.email, endpoint: payload.endpoint },
        'stored as sent',
      );
    }
  },
);

t.test('a good request is 202, records the task, queues one job, and the task URL answers WAITING', async (t) => {
  const before = await written(app);
  const ip = nextClient();
  const res = await post(app, {
    payload: { email: 'Mixed.Case@Example.ORG', app_name: '  Open Summit 2030  ', endpoint: ENDPOINT },
    remoteAddress: ip,
  });
  t.equal(res.status, 202, res.raw);
  t.match(res.headers['content-type'], /^application\/json/);
  const body = res.body as { status: string; identifier: string; task_url: string };
  t.strictSame(Object.keys(body).sort(), ['identifier', 'status', 'task_url']);
  t.equal(body.status, 'ok');
  t.match(body.identifier, /^[0-9a-f]{16}$/);
  const match = /^\/v1\/tasks\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(body.task_url);
  t.ok(match, `task_url ${body.task_url}`);
  const taskId = match![1]!;

  const rows = await app.sql`select kind, state, user_id, event_id, options from tasks where id = ${taskId}`;
  t.equal(rows.length, 1, 'one task row');
  t.strictSame(
    { ...rows[0] },
    {
      kind: 'app',
      state: 'WAITING',
      user_id: null,
      event_id: null,
      options: {
        email: 'mixed.case@example.org',
        app_name: '  Open Summit 2030  ',
        endpoint: ENDPOINT,
        identifier: body.identifier,
        mailbox: 'mixed.case@example.org',
        client: ip,
      },
    },
  );
  const jobs = await app.sql`select data from pgboss.job where name = 'app-build' and data->>'taskId' = ${taskId}`;
  t.equal(jobs.length, 1, 'one app-build job');
  t.strictSame(jobs[0]?.data, { taskId });
  t.strictSame(
    await written(app),
    { tasks: before.tasks + 1, jobs: before.jobs + 1 },
    'exactly one task and one job more',
  );

  const task = await call(app, { url: body.task_url });
  t.equal(task.status, 200);
  t.strictSame(task.body, { state: 'WAITING', status: null, result: null });

  // Two builds never share an identifier.
  const again = await post(app, { payload: good(), remoteAddress: nextClient() });
  t.equal(again.status, 202);
  t.not((again.body as { identifier: string }).identifier, body.identifier);
});

t.test('a charset parameter on the JSON media type is fine', async (t) => {
  const res = await post(app, {
    payload: good(),
    contentType: 'application/json; charset=utf-8',
    remoteAddress: nextClient(),
  });
  t.equal(res.status, 202, res.raw);
});

t.test('hostile and non-ASCII app names are accepted and stored verbatim', async (t) => {
  const names = [
    '"; rm -rf / #',
    '$(id)',
    '`id`',
    '<script>alert(1)</script>',
    "Robert'); DROP TABLE tasks;--",
    '../../etc/passwd',
    '{{constructor.constructor("alert(1)")()}}',
    'Café Zürich — 東京 🎉🚀',
    'ملتقى',
  ];
  for (const name of names) {
    const res = await post(app, { payload: good({ app_name: name }), remoteAddress: nextClient() });
    t.test(JSON.stringify(name), async (t) => {
      t.equal(res.status, 202, res.raw);
      const id = /[0-9a-f-]{36}$/.exec((res.body as { task_url: string }).task_url)![0];
      const [row] = await app.sql`select options->>'app_name' as name from tasks where id = ${id}`;
      t.equal(row?.name, name, 'stored verbatim');
    });
  }
  const [count] = await app.sql`select count(*)::int as n from tasks`;
  t.ok(count!.n > 0, 'the tasks table is still there');
});

t.test('per e-mail: the limit+1-th request is 429 with Retry-After and writes nothing', async (t) => {
  const email = 'limited@example.org';
  for (const [i, variant] of ['limited@example.org', 'LIMITED@example.org'].entries()) {
    const res = await post(limited, {
      payload: { email: variant, app_name: 'A', endpoint: ENDPOINT },
      remoteAddress: `203.0.113.${i + 1}`,
    });
    t.equal(res.status, 202, `request ${i + 1}: ${res.raw}`);
  }
  const before = await written(limited);
  const res = await post(limited, {
    payload: { email: 'Limited@Example.Org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: '203.0.113.3',
  });
  assertFailure(t, res, 429, /\S/);
  const retry = res.headers['retry-after'];
  t.match(retry, /^[1-9][0-9]*$/, `Retry-After ${retry} is a positive integer`);
  t.ok(Number(retry) <= 3600, 'Retry-After within the window');
  t.strictSame(await written(limited), before, 'nothing written');
  const [row] = await limited.sql`select count(*)::int as n from tasks where options->>'email' = ${email}`;
  t.equal(row!.n, 2);
});

t.test('a +tag reaches the same mailbox and an IPv6 client is its /64: both counted as one', async (t) => {
  for (const [i, email] of ['tagged@example.org', 'tagged+one@example.org'].entries()) {
    const res = await post(limited, {
      payload: { email, app_name: 'A', endpoint: ENDPOINT },
      remoteAddress: `203.0.113.${i + 20}`,
    });
    t.equal(res.status, 202, `${email}: ${res.raw}`);
  }
  const tagged = await post(limited, {
    payload: { email: 'tagged+two@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: '203.0.113.22',
  });
  assertFailure(t, tagged, 429, /\S/);

  for (let i = 1; i <= 3; i++) {
    const res = await post(limited, {
      payload: { email: `v6-${i}@example.org`, app_name: 'A', endpoint: ENDPOINT },
      remoteAddress: `2001:db8:1:2::${i}`,
    });
    t.equal(res.status, 202, `request ${i}: ${res.raw}`);
  }
  const sameRange = await post(limited, {
    payload: { email: 'v6-4@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: '2001:db8:1:2:ffff::9',
  });
  assertFailure(t, sameRange, 429, /\S/);
  const otherRange = await post(limited, {
    payload: { email: 'v6-5@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: '2001:db8:1:3::1',
  });
  t.equal(otherRange.status, 202, `another /64: ${otherRange.raw}`);
  const [row] =
    await limited.sql`select options->>'client' as client from tasks where options->>'email' = 'v6-1@example.org'`;
  t.equal(row!.client, '2001:db8:1:2::/64', 'the client recorded is the /64');
});

t.test('per client address: the limit+1-th request is 429; another address passes', async (t) => {
  const ip = '192.0.2.10';
  for (let i = 1; i <= 3; i++) {
    const res = await post(limited, {
      payload: { email: `ip${i}@example.org`, app_name: 'A', endpoint: ENDPOINT },
      remoteAddress: ip,
    });
    t.equal(res.status, 202, `request ${i}: ${res.raw}`);
  }
  const before = await written(limited);
  const res = await post(limited, {
    payload: { email: 'ip4@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: ip,
  });
  assertFailure(t, res, 429, /\S/);
  const retry = res.headers['retry-after'];
  t.match(retry, /^[1-9][0-9]*$/, `Retry-After ${retry} is a positive integer`);
  t.ok(Number(retry) <= 3600, 'Retry-After within the window');
  t.strictSame(await written(limited), before, 'nothing written');

  // No proxy is trusted by default: X-Forwarded-For does not make a new client.
  const spoofed = await post(limited, {
    payload: { email: 'ip6@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: ip,
    headers: { 'x-forwarded-for': '203.0.113.200' },
  });
  assertFailure(t, spoofed, 429, /\S/);
  t.strictSame(await written(limited), before, 'nothing written');

  const other = await post(limited, {
    payload: { email: 'ip5@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: '192.0.2.11',
  });
  t.equal(other.status, 202, `another client address: ${other.raw}`);
  t.strictSame(await written(limited), { tasks: before.tasks + 1, jobs: before.jobs + 1 });
});

t.test('concurrent requests for one e-mail: exactly the limit is accepted', async (t) => {
  const before = await written(limited);
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      post(limited, {
        payload: { email: 'race@example.org', app_name: `Race ${i}`, endpoint: ENDPOINT },
        remoteAddress: `100.64.0.${i + 1}`,
      }),
    ),
  );
  const statuses = answers.map((a) => a.status).sort();
  t.strictSame(statuses, [202, 202, 429, 429, 429, 429], JSON.stringify(answers.map((a) => a.raw)));
  for (const a of answers.filter((a) => a.status === 429)) assertFailure(t, a, 429, /\S/);
  t.strictSame(await written(limited), { tasks: before.tasks + 2, jobs: before.jobs + 2 });
});

t.test('CORS: any origin may preflight and call the generator', async (t) => {
  const preflight = await app.inject({
    method: 'OPTIONS',
    url: URL,
    headers: {
      origin: 'https://someone.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  t.equal(preflight.statusCode, 204);
  t.equal(preflight.headers['access-control-allow-origin'], '*');
  t.match(String(preflight.headers['access-control-allow-methods']), /POST/);
  const bare = await app.inject({ method: 'OPTIONS', url: URL });
  t.equal(bare.statusCode, 204, 'an OPTIONS without Origin is answered too');

  const accepted = await post(app, {
    payload: good(),
    remoteAddress: nextClient(),
    headers: { origin: 'https://someone.example' },
  });
  t.equal(accepted.status, 202);
  t.equal(accepted.headers['access-control-allow-origin'], '*');

  const refused = await post(app, {
    payload: '{',
    remoteAddress: nextClient(),
    headers: { origin: 'https://someone.example' },
  });
  t.equal(refused.status, 400);
  t.equal(refused.headers['access-control-allow-origin'], '*', 'a refusal is readable cross-origin too');

  const limitedAnswer = await post(limited, {
    payload: { email: 'race@example.org', app_name: 'A', endpoint: ENDPOINT },
    remoteAddress: '100.64.1.1',
    headers: { origin: 'https://someone.example' },
  });
  t.equal(limitedAnswer.status, 429);
  t.equal(limitedAnswer.headers['access-control-allow-origin'], '*');
  t.match(
    String(limitedAnswer.headers['access-control-expose-headers']),
    /Retry-After/i,
    'Retry-After is exposed to scripts',
  );
});

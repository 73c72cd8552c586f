/**
 * open-event-droidgen apk-generator/v2/app/views/api.py: `POST /api/v2/generate` reads the body as JSON
 * whatever its media type (`request.get_json(force=True, silent=True)`), needs `email` and `endpoint`,
 * and answers `{status: "ok", identifier, started_at, task_id}` (here with `task_url` too, and `warnings`
 * naming members it ignored); the app is named after the event, as the reference names it. Refusals are
 * the reference's 400s (`invalid data`, `Valid Email is required`, `Valid endpoint URL is required`) in
 * `{status: "error", code, message}`, and write nothing; the same rate limits as api.php apply.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';

const URL = '/api/v2/generate';
const ENDPOINT = 'https://api.example.org/v1/events/42';
const { app } = await buildTestApp(t);
const { app: limited } = await buildTestApp(t, {
  APPGEN_RATE_PER_EMAIL: '1',
  APPGEN_RATE_PER_IP: '100',
  APPGEN_RATE_WINDOW_SECONDS: '3600',
});

let n = 0;
/** `requests.post(url, json=...)` (application/json), or `data=` a JSON text under another type. */
async function generate(payload: string | undefined, contentType: string | undefined = 'application/json', on = app) {
  const res = await on.inject({
    method: 'POST',
    url: URL,
    remoteAddress: `198.51.100.${++n}`,
    headers: contentType ? { 'content-type': contentType } : {},
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, body: JSON.parse(res.body), raw: res.body, headers: res.headers };
}

const tasks = async () => (await app.sql`select count(*)::int as n from tasks where kind = 'app'`)[0]!.n as number;

t.test('api.py: {email, endpoint} starts a build named after the event; any media type is read as JSON', async (t) => {
  for (const type of ['application/json', 'text/plain', undefined, 'application/x-www-form-urlencoded']) {
    const email = `api${++n}@example.org`;
    const res = await generate(JSON.stringify({ email, endpoint: ENDPOINT }), type);
    t.equal(res.status, 200, `${type}: ${res.raw}`);
    t.strictSame(Object.keys(res.body).sort(), ['identifier', 'started_at', 'status', 'task_id', 'task_url']);
    t.equal(res.body.status, 'ok');
    t.match(res.body.identifier, /^[0-9a-f]{16}$/);
    t.match(res.body.started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    t.equal(res.body.task_url, `/v1/tasks/${res.body.task_id}`);
    const [row] = await app.sql`select kind, state, options from tasks where id = ${res.body.task_id}`;
    t.match(
      { ...row },
      {
        kind: 'app',
        state: 'WAITING',
        options: { email, app_name: null, endpoint: ENDPOINT, identifier: res.body.identifier },
      },
    );
    const jobs =
      await app.sql`select 1 from pgboss.job where name = 'app-build' and data->>'taskId' = ${res.body.task_id}`;
    t.equal(jobs.length, 1, 'one build job');
    const status = await app.inject({ method: 'GET', url: `/api/v2/app/${res.body.task_id}/status` });
    t.strictSame(JSON.parse(status.body), { state: 'PENDING' }, 'the v2 status of a queued build');
  }
});

t.test(
  'api.py: members it does not know (app_name included, as the reference ignores it) are named in warnings',
  async (t) => {
    const res = await generate(
      JSON.stringify({ email: 'warned@example.org', endpoint: ENDPOINT, app_name: 'Mine', via_api: true }),
    );
    t.equal(res.status, 200, res.raw);
    t.strictSame(res.body.warnings, ['unknown member "app_name" was ignored', 'unknown member "via_api" was ignored']);
  },
);

t.test("api.py, bad input: the reference's 400 messages, nothing written", async (t) => {
  const before = await tasks();
  const cases: [string, string | undefined, string][] = [
    ['no body', undefined, 'invalid data'],
    ['an empty object', '{}', 'invalid data'],
    ['an array', '[{"email": "a@example.org"}]', 'invalid data'],
    ['null', 'null', 'invalid data'],
    ['a number', '42', 'invalid data'],
    ['no e-mail', JSON.stringify({ endpoint: ENDPOINT }), 'Valid Email is required'],
    ['a bad e-mail', JSON.stringify({ email: 'nobody', endpoint: ENDPOINT }), 'Valid Email is required'],
    [
      'an e-mail that is not a string',
      JSON.stringify({ email: ['a@example.org'], endpoint: ENDPOINT }),
      'Valid Email is required',
    ],
    ['no endpoint', JSON.stringify({ email: 'a@example.org' }), 'Valid endpoint URL is required'],
    [
      'a bad endpoint',
      JSON.stringify({ email: 'a@example.org', endpoint: 'file:///etc/passwd' }),
      'Valid endpoint URL is required',
    ],
    [
      'credentials in the endpoint',
      JSON.stringify({ email: 'a@example.org', endpoint: 'http://u:p@host.example/v1/events/1' }),
      'Valid endpoint URL is required',
    ],
    [
      'a port no fetch can use',
      JSON.stringify({ email: 'a@example.org', endpoint: 'https://api.example.org:99999/v1/events/1' }),
      'Valid endpoint URL is required',
    ],
  ];
  for (const [what, payload, message] of cases) {
    const res = await generate(payload);
    t.equal(res.status, 400, `${what}: ${res.raw}`);
    t.strictSame(res.body, { status: 'error', code: 400, message }, what);
  }
  const malformed = await generate('{"email": ', 'text/plain');
  t.equal(malformed.status, 400, `malformed JSON: ${malformed.raw}`);
  t.equal(malformed.body.status, 'error');
  const big = await generate(
    JSON.stringify({ email: 'a@example.org', endpoint: ENDPOINT, pad: 'x'.repeat(17 * 1024) }),
  );
  t.equal(big.status, 413, 'a body over 16 KiB');
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const res = await app.inject({ method, url: URL });
    t.equal(res.statusCode, 405, `${method}: ${res.body}`);
  }
  t.equal(await tasks(), before, 'nothing written');
});

t.test('api.py: the per-mailbox limit is the one api.php counts', async (t) => {
  const first = await generate(
    JSON.stringify({ email: 'once@example.org', endpoint: ENDPOINT }),
    'application/json',
    limited,
  );
  t.equal(first.status, 200, first.raw);
  const again = await limited.inject({
    method: 'POST',
    url: '/api/api.php',
    remoteAddress: '198.51.100.250',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: 'ONCE@example.org', app_name: 'A', endpoint: ENDPOINT }),
  });
  t.equal(again.statusCode, 429, 'api.php counts the v2 build');
  const third = await generate(
    JSON.stringify({ email: 'once+tag@example.org', endpoint: ENDPOINT }),
    'application/json',
    limited,
  );
  t.equal(third.status, 429);
  t.equal(third.body.code, 429);
  t.match(third.headers['retry-after'], /^[1-9][0-9]*$/);
});

/**
 * open-event-droidgen apk-generator/v1/api/api.php: the reference reads `php://input` with
 * `json_decode` whatever the declared media type, so its callers send JSON as text/plain, with no
 * media type, or as curl's default `-d` (urlencoded whose text is JSON). This service also reads real
 * urlencoded and multipart forms with the same three names. Members it does not know are ignored and
 * named in `warnings`; the checks of what is stored (e-mail, app name, endpoint) stay, and a body that
 * is not an object or lacks a field is still the reference's 422 `Unprocessable entity`. The /v1 face
 * still refuses a wrong media type with 415 (the parsers are the generator's own).
 */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp } from '../helpers/app.js';

const URL = '/api/api.php';
const ENDPOINT = 'https://api.example.org/v1/events/42';
const { app } = await buildTestApp(t);

let n = 0;
const client = () => `198.51.100.${++n}`;
const good = (extra: Record<string, string> = {}) => ({
  email: `caller${++n}@example.org`,
  app_name: 'Open Summit',
  endpoint: ENDPOINT,
  ...extra,
});

/** A FormData as a browser or `curl -F` sends it: the bytes and the boundary's content type. */
async function multipart(fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function post(payload: string | Buffer, contentType?: string) {
  const res = await app.inject({
    method: 'POST',
    url: URL,
    remoteAddress: client(),
    headers: contentType ? { 'content-type': contentType } : {},
    payload,
  });
  return { status: res.statusCode, body: JSON.parse(res.body), raw: res.body };
}

async function tasks(on: FastifyInstance) {
  const [row] = await on.sql`select count(*)::int as n from tasks where kind = 'app'`;
  return row!.n as number;
}

/** A 202 whose task stores exactly the three fields sent. */
async function accepted(
  t: Test,
  res: Awaited<ReturnType<typeof post>>,
  sent: { email: string; app_name: string; endpoint: string },
  warnings?: string[],
) {
  t.equal(res.status, 202, res.raw);
  t.equal(res.body.status, 'ok');
  t.match(res.body.identifier, /^[0-9a-f]{16}$/);
  t.strictSame(res.body.warnings, warnings, 'warnings');
  const id = String(res.body.task_url).split('/').pop();
  const [row] =
    await app.sql`select options->>'email' as email, options->>'app_name' as app_name, options->>'endpoint' as endpoint from tasks where id::text = ${id ?? ''}`;
  t.strictSame({ ...row }, sent, 'the task stores the fields sent');
}

t.test('api.php callers: JSON as text/plain, with no media type, and as curl -d (urlencoded)', async (t) => {
  for (const type of [
    'text/plain',
    'text/plain;charset=UTF-8',
    undefined,
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    'application/json',
  ]) {
    const body = good();
    await t.test(`Content-Type: ${type ?? '(none)'}`, async (t) =>
      accepted(t, await post(JSON.stringify(body), type), body),
    );
  }
  const body = good();
  await t.test('a UTF-8 byte order mark before the JSON', async (t) =>
    accepted(t, await post(`\uFEFF${JSON.stringify(body)}`, 'text/plain'), body),
  );
});

t.test('api.php callers: a urlencoded form and a multipart form with the same three names', async (t) => {
  const form = good({ app_name: 'Café Zürich & Co' });
  await accepted(t, await post(new URLSearchParams(form).toString(), 'application/x-www-form-urlencoded'), form);
  const parts = good({ app_name: 'Multipart 🎉' });
  const { payload, contentType } = await multipart(parts);
  await accepted(t, await post(payload, contentType), parts);
});

t.test('api.php callers: members it does not know are ignored and named in warnings', async (t) => {
  const json = good();
  await accepted(t, await post(JSON.stringify({ ...json, foo: 1, Email: 'x', callback: 'cb' }), 'text/plain'), json, [
    'unknown member "foo" was ignored',
    'unknown member "Email" was ignored',
    'unknown member "callback" was ignored',
  ]);
  const form = good();
  await accepted(
    t,
    await post(new URLSearchParams({ ...form, submit: 'Build' }).toString(), 'application/x-www-form-urlencoded'),
    form,
    ['unknown member "submit" was ignored'],
  );
  const parts = good();
  const { payload, contentType } = await multipart({ ...parts, logo: new Blob(['png']) });
  await accepted(t, await post(payload, contentType), parts, ['unknown member "logo" was ignored']);
  // Many unknown members: ten named, the rest counted.
  const many = good();
  const extra = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`x${i}`, i]));
  const res = await post(JSON.stringify({ ...many, ...extra }));
  t.equal(res.body.warnings.length, 11);
  t.equal(res.body.warnings.at(-1), '15 more unknown members were ignored');
});

t.test(
  'api.php callers, bad input: missing fields, bad e-mail, bad URL, in every body form; nothing written',
  async (t) => {
    const before = await tasks(app);
    const cases: [string, Record<string, string>, number, string][] = [
      ['no endpoint', { email: 'a@example.org', app_name: 'A' }, 422, 'Unprocessable entity'],
      ['no e-mail', { app_name: 'A', endpoint: ENDPOINT }, 422, 'Unprocessable entity'],
      [
        'a bad e-mail',
        { email: 'not-an-address', app_name: 'A', endpoint: ENDPOINT },
        422,
        'email must be a valid e-mail address',
      ],
      [
        'a bad URL',
        { email: 'a@example.org', app_name: 'A', endpoint: 'javascript:alert(1)' },
        422,
        'endpoint must be an http(s) URL without credentials',
      ],
      [
        'credentials in the URL',
        { email: 'a@example.org', app_name: 'A', endpoint: 'https://u:p@api.example.org/v1/events/1' },
        422,
        'endpoint must be an http(s) URL without credentials',
      ],
      [
        'a bad app name',
        { email: 'a@example.org', app_name: 'two\nlines', endpoint: ENDPOINT },
        422,
        'app_name must be 1 to 100 characters, not only spaces, without control characters',
      ],
    ];
    for (const [what, fields, status, message] of cases) {
      const { payload, contentType } = await multipart(fields);
      const bodies: [string, string | Buffer, string | undefined][] = [
        ['text/plain JSON', JSON.stringify(fields), 'text/plain'],
        ['JSON without a type', JSON.stringify(fields), undefined],
        ['urlencoded', new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded'],
        ['multipart', payload, contentType],
      ];
      for (const [form, body, type] of bodies) {
        const res = await post(body, type);
        t.equal(res.status, status, `${what} (${form}): ${res.raw}`);
        t.strictSame(res.body, { status: 'error', code: status, message }, `${what} (${form})`);
      }
    }
    for (const [payload, type] of [
      ['[1,2]', 'text/plain'],
      ['null', undefined],
      ['"text"', 'application/x-www-form-urlencoded'],
      ['42', 'text/plain'],
    ] as const) {
      const res = await post(payload, type);
      t.strictSame(res.body, { status: 'error', code: 422, message: 'Unprocessable entity' }, `${payload} as ${type}`);
    }
    for (const [payload, type] of [
      ['{"email":', 'text/plain'],
      ['email=a@b.org&app_name=', undefined],
      ['--x\r\nbroken', 'multipart/form-data; boundary=x'],
    ] as const) {
      const res = await post(payload, type);
      t.equal(res.status, 400, `${payload} as ${type}: ${res.raw}`);
      t.equal(res.body.status, 'error');
      t.equal(res.body.code, 400);
    }
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await app.inject({
        method,
        url: URL,
        headers: { 'content-type': 'text/plain' },
        payload: JSON.stringify(good()),
      });
      t.equal(res.statusCode, 405, method);
      t.strictSame(JSON.parse(res.body), { status: 'error', code: 405, message: 'Method Not Allowed' });
    }
    t.equal(await tasks(app), before, 'nothing written');
  },
);

t.test('the /v1 face still refuses a text body and a form with 415', async (t) => {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
    const res = await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': type },
      payload: JSON.stringify({ email: 'a@example.org', password: 'x' }),
    });
    t.equal(res.statusCode, 415, `${type}: ${res.body}`);
  }
});

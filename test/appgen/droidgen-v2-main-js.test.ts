/**
 * open-event-droidgen apk-generator/v2/app/static/js/main.js: the v2 web page posts its form to `/` as
 * multipart (FormData through axios: email, data-source, build-type, is-auth-enabled, colors and
 * api-endpoint or json-upload), reads `identifier` and `task_id` from the answer, and polls
 * `/api/v2/app/{task_id}/status` every second until `state` is SUCCESS (the download URL is
 * `result.message`, or `result` itself) or FAILURE. Here with workers, a real SMTP peer and the service's
 * own API as the endpoint: the app is named after the event (the form has no name, as in the reference;
 * control characters become spaces, at most 100 characters),
 * a build that cannot read its endpoint ends FAILURE, an uploaded zip (json_upload) is refused with 422,
 * and bad forms get the reference's 400 `invalid data` / `invalid endpoint url`, writing nothing.
 */
import AdmZip from 'adm-zip';
import t, { type Test } from 'tap';
import { buildTestApp, until } from '../helpers/app.js';
import { json, mailWith, startFake } from '../helpers/appgen.js';
import { buildWorld } from '../helpers/events.js';
import { zipOf } from '../helpers/imports.js';
import { reservePort } from '../helpers/postgres.js';
import { startSmtp } from '../helpers/smtp.js';

const reserved = await reservePort();
const PUBLIC_URL = `http://127.0.0.1:${reserved.port}`;
const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, {
  ROLE: 'all',
  SMTP_URL: smtp.url,
  PUBLIC_URL,
  FETCH_ALLOW_PRIVATE: 'true',
  APPGEN_RATE_PER_EMAIL: '50',
  APPGEN_RATE_PER_IP: '50',
});
await reserved.release();
await app.listen({ port: reserved.port, host: '127.0.0.1' });
const { published, cast } = await buildWorld(app);
const endpoint = `${PUBLIC_URL}/v1/events/${published.event}`;

/** The page's colour pickers' defaults. */
const COLORS = JSON.stringify({ primary: '#3F51B5', primary_dark: '#303F9F', accent: '#FF4081' });

/** `$form.submit`: the FormData main.js builds, posted as axios posts it. */
async function submit(fields: { email: string; dataSource: string; apiEndpoint?: string; upload?: Blob }) {
  const data = new FormData();
  data.append('email', fields.email);
  data.append('data-source', fields.dataSource);
  data.append('build-type', 'googleplay');
  data.append('is-auth-enabled', String(false));
  data.append('colors', COLORS);
  if (fields.dataSource === 'json_upload') data.append('json-upload', fields.upload!, 'event.zip');
  else data.append('api-endpoint', fields.apiEndpoint ?? '');
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  const res = await app.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': request.headers.get('content-type')!, accept: 'application/json, text/plain, */*' },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: res.statusCode, body: JSON.parse(res.body), raw: res.body };
}

/** `startPoll`: GET the status until SUCCESS or FAILURE; answers every state seen and the last answer. */
async function poll(taskId: string) {
  const seen: string[] = [];
  const last = await until(`the build ${taskId} to end`, async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/api/v2/app/${taskId}/status`,
      headers: { accept: 'application/json, text/plain, */*' },
    });
    if (res.statusCode !== 200) throw new Error(`status answered ${res.statusCode}: ${res.body}`);
    const body = JSON.parse(res.body);
    if (seen.at(-1) !== body.state) seen.push(body.state);
    return body.state === 'SUCCESS' || body.state === 'FAILURE' ? body : undefined;
  });
  return { seen, last };
}

const writtenTasks = async () =>
  (await app.sql`select count(*)::int as n from tasks where kind = 'app'`)[0]!.n as number;

function started(t: Test, res: Awaited<ReturnType<typeof submit>>) {
  t.equal(res.status, 200, res.raw);
  t.strictSame(Object.keys(res.body).sort(), ['identifier', 'started_at', 'status', 'task_id', 'task_url']);
  t.equal(res.body.status, 'ok');
  t.match(res.body.task_id, /^[0-9a-f-]{36}$/);
  t.ok(res.body.task_id.trim() !== '', 'main.js polls only with a task_id');
  t.equal(res.body.task_url, `/v1/tasks/${res.body.task_id}`);
  t.ok(Math.abs(Date.parse(res.body.started_at) - Date.now()) < 60_000, 'started_at is now');
}

t.test(
  'main.js: the form with an API endpoint, polled until SUCCESS; the download URL gives the app named after the event',
  async (t) => {
    const res = await submit({ email: 'Page.User@example.org', dataSource: 'api_endpoint', apiEndpoint: endpoint });
    started(t, res);
    const { seen, last } = await poll(res.body.task_id);
    t.equal(seen.at(-1), 'SUCCESS', `states seen: ${seen.join(', ')}`);
    for (const state of seen) t.ok(['PENDING', 'PROGRESS', 'SUCCESS'].includes(state), `${state} is a Celery state`);
    // What main.js does with the answer.
    const downloadUrl = Object.hasOwn(last.result, 'message') ? last.result.message : last.result;
    t.equal(downloadUrl, last.result.download_url);
    t.match(downloadUrl, `${PUBLIC_URL}/static/media/apps/${res.body.task_id}/open-summit.zip`);
    const zip = await app.inject({ method: 'GET', url: new URL(downloadUrl).pathname });
    t.equal(zip.statusCode, 200);
    const config = JSON.parse(new AdmZip(zip.rawPayload).readAsText('config.json'));
    t.equal(config.app_name, 'Open Summit', 'named after the event');
    t.equal(config.endpoint, endpoint);
    t.equal(config.identifier, res.body.identifier);
    const mail = await mailWith(smtp, 'Your app "Open Summit" is ready');
    t.strictSame(mail.envelope.to, ['page.user@example.org']);
    const [row] = await app.sql`select options from tasks where id = ${res.body.task_id}`;
    t.equal(row!.options.app_name, null, "the task records no name: the build took the event's");
  },
);

t.test('main.js: a build that cannot read its endpoint is polled until FAILURE', async (t) => {
  const missing = `${PUBLIC_URL}/v1/events/999999`;
  const res = await submit({ email: 'failing@example.org', dataSource: 'api_endpoint', apiEndpoint: missing });
  started(t, res);
  const { last } = await poll(res.body.task_id);
  t.strictSame(last, { state: 'FAILURE', result: { message: `${missing}: the server answered 404` } });
  const mail = await mailWith(smtp, `Your app for ${missing} could not be built`);
  t.strictSame(mail.envelope.to, ['failing@example.org']);
});

t.test(
  'main.js: an event name with control characters, bidi overrides and 150 characters makes a clean app name',
  async (t) => {
    const eventName = `Hostile\nSummit\u202e\u0000 ${'x'.repeat(150)}`;
    const fake = await startFake(t, (request, response) => {
      if (request.url === '/v1/events/7') {
        json(response, {
          data: {
            type: 'event',
            id: '7',
            attributes: {
              name: eventName,
              'starts-at': '2030-01-01T10:00:00Z',
              'ends-at': '2030-01-01T18:00:00Z',
              timezone: 'UTC',
            },
          },
        });
      } else json(response, { data: [] });
    });
    const res = await submit({
      email: 'hostile@example.org',
      dataSource: 'api_endpoint',
      apiEndpoint: `${fake.url}/v1/events/7`,
    });
    started(t, res);
    const { last } = await poll(res.body.task_id);
    t.equal(last.state, 'SUCCESS', JSON.stringify(last));
    const expected = `Hostile Summit ${'x'.repeat(85)}`;
    t.equal(expected.length, 100);
    const zip = await app.inject({ method: 'GET', url: new URL(last.result.message).pathname });
    t.equal(
      JSON.parse(new AdmZip(zip.rawPayload).readAsText('config.json')).app_name,
      expected,
      'controls made spaces, cut to 100 characters',
    );
    await mailWith(smtp, `Your app "${expected}" is ready`);
  },
);

t.test('main.js: json_upload (an uploaded zip of the event) is refused with 422, nothing written', async (t) => {
  const before = await writtenTasks();
  const zip = zipOf({ event: { id: 1, name: 'Zip Event' } });
  const res = await submit({
    email: 'zip@example.org',
    dataSource: 'json_upload',
    upload: new Blob([new Uint8Array(zip)], { type: 'application/zip' }),
  });
  t.equal(res.status, 422, res.raw);
  t.strictSame(res.body, {
    status: 'error',
    code: 422,
    message:
      'Only the api_endpoint data source is supported: apps are built from an event API endpoint, not from an uploaded zip (json_upload)',
  });
  t.equal(await writtenTasks(), before);
});

t.test("main.js, bad forms: the reference's 400 invalid data / invalid endpoint url, nothing written", async (t) => {
  const before = await writtenTasks();
  const cases: [string, Parameters<typeof submit>[0], string][] = [
    ['no e-mail', { email: '', dataSource: 'api_endpoint', apiEndpoint: endpoint }, 'invalid data'],
    ['a bad e-mail', { email: 'nobody', dataSource: 'api_endpoint', apiEndpoint: endpoint }, 'invalid data'],
    [
      'no data source (main.js sends "null")',
      { email: 'a@example.org', dataSource: 'null', apiEndpoint: endpoint },
      'invalid data',
    ],
    [
      'an unknown data source',
      { email: 'a@example.org', dataSource: 'eventyay', apiEndpoint: endpoint },
      'invalid data',
    ],
    ['no endpoint', { email: 'a@example.org', dataSource: 'api_endpoint', apiEndpoint: '' }, 'invalid endpoint url'],
    [
      'a bad endpoint',
      { email: 'a@example.org', dataSource: 'api_endpoint', apiEndpoint: 'ftp://example.org/x' },
      'invalid endpoint url',
    ],
    [
      'credentials in the endpoint',
      { email: 'a@example.org', dataSource: 'api_endpoint', apiEndpoint: 'https://u:p@example.org/v1/events/1' },
      'invalid endpoint url',
    ],
  ];
  for (const [what, fields, message] of cases) {
    const res = await submit(fields);
    t.equal(res.status, 400, `${what}: ${res.raw}`);
    t.strictSame(res.body, { status: 'error', code: 400, message }, what);
  }
  const empty = await app.inject({ method: 'POST', url: '/' });
  t.equal(empty.statusCode, 400, `no body: ${empty.body}`);
  t.strictSame(JSON.parse(empty.body), { status: 'error', code: 400, message: 'invalid data' });
  const broken = await app.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    payload: '--x\r\nnot a part',
  });
  t.equal(broken.statusCode, 400, `a broken multipart body: ${broken.body}`);
  t.equal(await writtenTasks(), before);
});

t.test(
  'main.js polling, bad input: an unknown, malformed or non-app task id is 404; other methods are refused',
  async (t) => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-task', '1']) {
      const res = await app.inject({ method: 'GET', url: `/api/v2/app/${id}/status` });
      t.equal(res.statusCode, 404, id);
      t.strictSame(JSON.parse(res.body), { status: 'error', code: 404, message: 'No build has this task_id' });
    }
    const long = await app.inject({ method: 'GET', url: `/api/v2/app/${'a'.repeat(65)}/status` });
    t.equal(long.statusCode, 400, `a 65-character id: ${long.body}`);
    t.equal(JSON.parse(long.body).status, 'error');
    // An export task of the event service is not a build.
    const [other] =
      await app.sql`insert into tasks (kind, user_id, options) values ('export', ${cast.owner.id}, '{}') returning id`;
    const exportTask = await app.inject({ method: 'GET', url: `/api/v2/app/${other!.id}/status` });
    t.equal(exportTask.statusCode, 404, 'an export task is not visible here');
    for (const [method, url] of [
      ['POST', '/api/v2/app/x/status'],
      ['DELETE', '/api/v2/app/x/status'],
      ['PUT', '/'],
      ['DELETE', '/'],
    ] as const) {
      const res = await app.inject({ method, url });
      t.equal(res.statusCode, 405, `${method} ${url}: ${res.body}`);
      t.ok(res.statusCode < 500);
    }
    const root = await app.inject({ method: 'GET', url: '/' });
    t.ok(root.statusCode === 404 || root.statusCode === 405, `GET / is not served: ${root.statusCode}`);
  },
);

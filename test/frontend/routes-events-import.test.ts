/**
 * open-event-frontend `app/routes/events/import.js:9-24`: the Import page lists the caller's import jobs
 * (`store.query('importJob', {filter: [], 'page[size]': 10, 'page[number]': 1})`, a GET of `/v1/import-jobs`)
 * with their state, message and start (`app/controllers/events/import.js:12-30`: `resultStatus`, `result`,
 * `startsAt`, sortable by `starts-at`). Each job is the task of an import started through the API.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { imported, startImport, zipOf } from '../helpers/imports.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const base = await listening(app);
const [importer, other, admin] = [await seedUser(app), await seedUser(app), await seedUser(app, { admin: true })];

const event = {
  id: 7,
  name: 'Imported Camp',
  'starts-at': '2030-06-01T09:00:00+02:00',
  'ends-at': '2030-06-02T18:00:00+02:00',
  timezone: 'Europe/Berlin',
};
let done: Awaited<ReturnType<typeof imported>>;
let failed: typeof done;
let theirs: string;
t.before(async () => {
  done = await imported(t, app, importer.token, { event });
  failed = await imported(t, app, importer.token, { sessions: [] });
  // Another user's import is theirs alone.
  theirs = await startImport(t, app, other.token, zipOf({ event }));
});

const query = { filter: [], 'page[size]': 10, 'page[number]': 1 };
const jobs = async (token: string, more: Record<string, unknown> = {}) =>
  (await frontEnd(base, token).adapter('GET', '/v1/import-jobs', { query: { ...query, ...more } })).body;

t.test("the caller's imports, each with its state, message and start", async (t) => {
  t.equal(done.state, 'SUCCESS');
  t.equal(failed.state, 'FAILURE');
  const body = await jobs(importer.token, { sort: '-starts-at' });
  t.equal(body.meta.count, 2);
  const [second, first] = body.data;
  t.match(first, {
    type: 'import-job',
    attributes: { 'result-status': 'SUCCESS', result: done.id, task: first.id },
    links: { self: `/v1/import-jobs/${first.id}` },
  });
  t.match(second.attributes, { 'result-status': 'FAILURE', result: failed.message, task: second.id });
  t.ok(Date.parse(first.attributes['starts-at']) <= Date.parse(second.attributes['starts-at']), 'the latest first');
  const task = await call(app, { url: `/v1/tasks/${first.id}`, token: importer.token });
  t.equal(task.body.result.id, done.id, "the job's task is the import's task");
  const one = await frontEnd(base, importer.token).adapter('GET', `/v1/import-jobs/${first.id}`);
  t.strictSame(one.body.data, first, 'one job, as listed');
});

t.test('nobody else lists them; only administrators read one of another user', async (t) => {
  const own = await jobs(other.token);
  t.equal(own.meta.count, 1, "the other user's own import only");
  t.equal(own.data[0].id, theirs.split('/').pop());
  t.equal((await jobs(admin.token)).meta.count, 0, 'administrators list their own imports, as the reference does');
  const id = (await jobs(importer.token)).data[0].id as string;
  for (const [who, token, status] of [
    ['anonymous', undefined, 404],
    ['another user', other.token, 404],
    ['an administrator', admin.token, 200],
  ] as const) {
    const res = await call(app, { url: `/v1/import-jobs/${id}`, token });
    t.equal(res.status, status, `${who} reads another's job: ${status}`);
  }
  t.equal((await call(app, { url: '/v1/import-jobs' })).status, 401, 'the list needs a login');
  const exported = await call(app, {
    method: 'POST',
    url: `/v1/events/${done.id}/export/json`,
    token: importer.token,
    body: {},
    headers: { 'content-type': 'application/json' },
  });
  const exportTask = String(exported.body.task_url).split('/').pop();
  t.equal(
    (await call(app, { url: `/v1/import-jobs/${exportTask}`, token: importer.token })).status,
    404,
    'an export is no import job',
  );
  // Task ids are UUIDs: anything else names no job, and filters on them take UUIDs only.
  t.equal((await call(app, { url: '/v1/import-jobs/not-a-uuid', token: importer.token })).status, 404);
  const byTask = (val: unknown, op = 'eq') =>
    call(app, {
      url: `/v1/import-jobs?filter=${encodeURIComponent(JSON.stringify([{ name: 'task', op, val }]))}`,
      token: importer.token,
    });
  t.strictSame(
    (await byTask(id)).body.data.map((job: { id: string }) => job.id),
    [id],
    'filtered by task',
  );
  for (const [val, op] of [
    ['', 'eq'],
    [[''], 'in'],
    ['%a%', 'like'],
  ] as const)
    t.equal((await byTask(val, op)).status, 400, `task ${op} ${JSON.stringify(val)}: 400`);
  for (const method of ['POST', 'PATCH', 'DELETE']) {
    const url = method === 'POST' ? '/v1/import-jobs' : `/v1/import-jobs/${id}`;
    t.equal(
      (await call(app, { method, url, token: importer.token, body: {} })).status,
      405,
      `${method}: nobody writes one`,
    );
  }
});

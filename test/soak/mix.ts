import { benchPaths } from '../bench/paths.js';
import type { Seeded } from '../bench/seed.js';
import { dataUri, makeImage } from '../helpers/images.js';
import type { Traffic } from './traffic.js';

export interface SoakContext {
  traffic: Traffic;
  origin: string;
  seeded: Seeded;
  /** Sessions of the seeded event that stay (the soak deletes only what it created). */
  sessionIds: string[];
}

/** One thing a client does: one request or a short sequence that checks its own effect. */
export interface Operation {
  name: string;
  /** Relative share of the clients' picks. */
  weight: number;
  run(): Promise<unknown>;
}

const PASSWORD = 'soak password 1234';
/** How often and how long a task is polled before the soak counts it as an error. */
const POLL_MS = 500;
const TASK_LIMIT_MS = 180_000;

/** Routes outside JSON:API answer plain JSON. */
const PLAIN = { accept: 'application/json' };
const JSON_BODY = 'application/json';
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
const pageOf = (rows: number) => String(1 + Math.floor(Math.random() * Math.ceil(rows / 20)));
let serial = 0;
/** Unique across runs sharing a database server: the soak's pid and a counter. */
const unique = () => `${process.pid}-${++serial}`;

/** Polls a task URL until it leaves WAITING; answers the task, or undefined after an error (counted). */
async function settle(traffic: Traffic, taskUrl: string, auth: boolean) {
  const deadline = Date.now() + TASK_LIMIT_MS;
  while (Date.now() < deadline) {
    const task = await traffic.json<{ state: string; result?: Record<string, string> }>({
      path: taskUrl,
      auth,
      headers: PLAIN,
      name: 'GET /v1/tasks/{id}',
    });
    if (task?.state !== 'WAITING') return task;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  traffic.fail('task', `still WAITING after ${TASK_LIMIT_MS / 1000} s`, taskUrl);
  return undefined;
}

/** Creates a record of the seeded event, changes it, reads it, deletes it, and checks it is gone. */
async function lifecycle(
  traffic: Traffic,
  eventId: number,
  type: 'session' | 'speaker',
  attributes: Record<string, unknown>,
  change: Record<string, unknown>,
) {
  const collection = `/v1/${type}s`;
  const created = await traffic.json<{ data?: { id?: string } }>({
    method: 'POST',
    path: collection,
    body: { data: { type, attributes, relationships: { event: { data: { type: 'event', id: String(eventId) } } } } },
    status: 201,
  });
  const id = created?.data?.id;
  if (created && !id)
    return traffic.fail(`POST ${collection}`, 'no id in the answer', JSON.stringify(created).slice(0, 300));
  if (!id) return;
  await traffic.ok({ method: 'PATCH', path: `${collection}/${id}`, body: { data: { type, id, attributes: change } } });
  await traffic.ok({ path: `${collection}/${id}${type === 'session' ? '?include=track,speakers' : ''}` });
  await traffic.ok({ method: 'DELETE', path: `${collection}/${id}` });
  await traffic.ok({ path: `${collection}/${id}`, status: 404 });
}

/** Registers an account, logs in with it, reads and changes it with its own token. */
async function account(traffic: Traffic) {
  const email = `soak-${unique()}@example.com`;
  const created = await traffic.json<{ data?: { id?: string } }>({
    method: 'POST',
    path: '/v1/users',
    body: { data: { type: 'user', attributes: { email, password: PASSWORD } } },
    auth: false,
    status: 201,
  });
  const id = created?.data?.id;
  if (!id) return;
  const login = await traffic.json<{ access_token?: string }>({
    method: 'POST',
    path: '/v1/auth/login',
    body: { email, password: PASSWORD },
    contentType: JSON_BODY,
    auth: false,
  });
  if (login && !login.access_token) return traffic.fail('POST /v1/auth/login', 'no access_token in the answer', email);
  if (!login?.access_token) return;
  const token = login.access_token;
  await traffic.ok({ path: `/v1/users/${id}`, token });
  await traffic.ok({
    method: 'PATCH',
    path: `/v1/users/${id}`,
    token,
    body: { data: { type: 'user', id, attributes: { 'first-name': 'Soak' } } },
  });
}

/** What the concurrent clients pick from: reads weigh most, as they do in production. */
export async function clientOperations({ traffic, seeded, sessionIds }: SoakContext): Promise<Operation[]> {
  const event = `/v1/events/${seeded.event.id}`;
  const reads = benchPaths(seeded).filter((path) => (path.method ?? 'GET') === 'GET');
  const image = dataUri(await makeImage('png', 64, 48), 'png');
  const assistantReads = [
    '/cms/getModel.json',
    '/cms/getGroups.json?model=general',
    '/cms/getSkillMetricsData.json?language=en',
  ];
  return [
    {
      name: 'make bench reads (a third with Cache-Control: no-cache)',
      weight: 12,
      run: () =>
        traffic.ok({ ...pick(reads), ...(Math.random() < 1 / 3 ? { headers: { 'cache-control': 'no-cache' } } : {}) }),
    },
    {
      name: 'sessions list with includes, any page',
      weight: 4,
      run: () =>
        traffic.ok({
          path: `${event}/sessions?include=speakers,track,microlocation&page[size]=20&page[number]=${pageOf(seeded.event.sessions)}`,
        }),
    },
    {
      name: 'speakers list, any page',
      weight: 3,
      run: () => traffic.ok({ path: `${event}/speakers?page[size]=20&page[number]=${pageOf(seeded.event.speakers)}` }),
    },
    {
      name: 'session detail with includes',
      weight: 4,
      run: () => traffic.ok({ path: `/v1/sessions/${pick(sessionIds)}?include=speakers,track,microlocation` }),
    },
    {
      name: 'assistant reads',
      weight: 2,
      run: () => traffic.ok({ path: pick(assistantReads), auth: false, headers: PLAIN }),
    },
    {
      name: 'app generator GET (405)',
      weight: 1,
      run: () => traffic.ok({ path: '/api/api.php', auth: false, headers: PLAIN, status: 405 }),
    },
    {
      name: 'session create, patch, read, delete, read (404)',
      weight: 4,
      run: () =>
        lifecycle(
          traffic,
          seeded.event.id,
          'session',
          { title: `Soak ${unique()}`, state: 'accepted' },
          { title: 'Soak, renamed' },
        ),
    },
    {
      name: 'speaker create, patch, read, delete, read (404)',
      weight: 3,
      run: () =>
        lifecycle(
          traffic,
          seeded.event.id,
          'speaker',
          { name: `Soak ${unique()}`, email: `speaker-${unique()}@example.com` },
          { organisation: 'Soak Org' },
        ),
    },
    { name: 'registration, login, own account read and patch', weight: 1, run: () => account(traffic) },
    {
      name: 'image upload',
      weight: 1,
      run: () =>
        traffic.ok({
          method: 'POST',
          path: '/v1/upload/image',
          body: { data: image },
          contentType: JSON_BODY,
          headers: PLAIN,
        }),
    },
  ];
}

/** The background tasks, one at a time in turn: an export of the seeded event, downloaded, and an app build of a small event. */
export function taskOperations({ traffic, origin, seeded }: SoakContext): Operation[] {
  return [
    {
      name: 'export start, poll, download',
      weight: 1,
      run: async () => {
        const started = await traffic.json<{ task_url: string }>({
          method: 'POST',
          path: `/v1/events/${seeded.event.id}/export/json`,
          body: {},
          contentType: JSON_BODY,
          headers: PLAIN,
        });
        if (!started) return;
        const task = await settle(traffic, started.task_url, true);
        if (!task) return;
        if (task.state !== 'SUCCESS')
          return traffic.fail('export task', `ended ${task.state}`, JSON.stringify(task.result));
        const download = task.result?.download_url;
        if (!download) return traffic.fail('export task', 'no download_url', JSON.stringify(task.result));
        await traffic.ok({
          path: download.replace(/^https?:\/\/[^/]+/, ''),
          headers: { accept: '*/*' },
          name: 'GET export archive',
        });
      },
    },
    {
      name: 'app build start, poll',
      weight: 1,
      run: async () => {
        const started = await traffic.json<{ task_url: string }>({
          method: 'POST',
          path: '/api/api.php',
          body: {
            email: `soak-${unique()}@example.com`,
            app_name: 'Soak App',
            endpoint: `${origin}/v1/events/${seeded.otherEventId}`,
          },
          contentType: JSON_BODY,
          auth: false,
          headers: PLAIN,
          status: 202,
        });
        if (!started) return;
        const task = await settle(traffic, started.task_url, false);
        if (task && task.state !== 'SUCCESS')
          traffic.fail('app build task', `ended ${task.state}`, JSON.stringify(task.result));
      },
    },
  ];
}

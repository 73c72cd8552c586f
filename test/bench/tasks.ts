import { randomBytes } from 'node:crypto';

export interface TaskTiming {
  seconds: number;
  rssBefore: number;
  rssPeak: number;
}

const headers = (token: string) => ({ authorization: `JWT ${token}`, accept: 'application/json' });

/** Polls a task URL until it is no longer WAITING; answers its document. */
async function settle(origin: string, token: string | undefined, taskUrl: string) {
  for (;;) {
    const res = await fetch(origin + taskUrl, { headers: token ? headers(token) : { accept: 'application/json' } });
    const task = (await res.json()) as { state: string; result: Record<string, string> };
    if (task.state !== 'WAITING') return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs `work` while sampling the process's resident memory every 20 ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; timing: TaskTiming }> {
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const value = await work();
    return { value, timing: { seconds: (performance.now() - started) / 1000, rssBefore, rssPeak } };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Exports the benchmark's event through the API (the job runs in this process, role `all`), downloads
 * the archive, and imports it as a new event: the wall time of each task from request to SUCCESS, and
 * the resident memory it took.
 */
export async function transferTimings(origin: string, token: string, eventId: number) {
  const exported = await timed(async () => {
    const started = await fetch(`${origin}/v1/events/${eventId}/export/json`, {
      method: 'POST',
      headers: { ...headers(token), 'content-type': 'application/json' },
      body: '{}',
    });
    const task = await settle(origin, token, ((await started.json()) as { task_url: string }).task_url);
    if (task.state !== 'SUCCESS') throw new Error(`export ended ${task.state}: ${JSON.stringify(task.result)}`);
    const download = await fetch(task.result.download_url!.replace(/^https?:\/\/[^/]+/, origin), {
      headers: headers(token),
    });
    return Buffer.from(await download.arrayBuffer());
  });
  const imported = await timed(async () => {
    const boundary = `----bench${randomBytes(8).toString('hex')}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="event.zip"\r\nContent-Type: application/zip\r\n\r\n`,
      ),
      exported.value,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const started = await fetch(`${origin}/v1/events/import/json`, {
      method: 'POST',
      headers: { ...headers(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const task = await settle(origin, token, ((await started.json()) as { task_url: string }).task_url);
    if (task.state !== 'SUCCESS') throw new Error(`import ended ${task.state}: ${JSON.stringify(task.result)}`);
  });
  return { archiveBytes: exported.value.length, export: exported.timing, import: imported.timing };
}

/**
 * Builds the installable app of the benchmark's event through `POST /api/api.php` (the builder runs
 * in this process and reads the event over HTTP, every session and speaker): the wall time from the
 * request to SUCCESS and the resident memory it took.
 */
export async function appBuildTiming(origin: string, eventId: number) {
  const built = await timed(async () => {
    const started = await fetch(`${origin}/api/api.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.com',
        app_name: 'Bench App',
        endpoint: `${origin}/v1/events/${eventId}`,
      }),
    });
    const answer = (await started.json()) as { task_url?: string };
    if (!answer.task_url) throw new Error(`app build refused: ${JSON.stringify(answer)}`);
    const task = await settle(origin, undefined, answer.task_url);
    if (task.state !== 'SUCCESS') throw new Error(`app build ended ${task.state}: ${JSON.stringify(task.result)}`);
  });
  return built.timing;
}

/**
 * SIGTERM to a worker process (`npm start -- --role worker`) while it runs an export: a job that ends
 * within SHUTDOWN_TIMEOUT_SECONDS finishes before the process exits 0; one that would outlive it is
 * handed back to the queue (logged), and another worker runs it to the end. No job is lost.
 */
import t from 'tap';
import { until } from '../helpers/app.js';
import { makeImage } from '../helpers/images.js';
import {
  account,
  HELD_JOBS,
  send,
  startHeldPeer,
  startService,
  taskEnded,
  type ServerProcess,
} from '../helpers/service.js';

const service = await startService(t, {
  LOG_LEVEL: 'info',
  ...HELD_JOBS,
});
const api = await service.api();
const owner = await account(api.origin, 'owner@example.org');
const logo = await makeImage('png', 30, 20);

/** An event whose logo is on a held peer, and its export started: the export waits on the peer. */
async function heldExport(name: string) {
  const peer = await startHeldPeer(
    t,
    (_request, response) => void response.writeHead(200, { 'content-type': 'image/png' }).end(logo),
  );
  const attributes = {
    name,
    'starts-at': '2030-05-01T09:00:00Z',
    'ends-at': '2030-05-02T18:00:00Z',
    timezone: 'UTC',
    'logo-url': `${peer.url}/logo.png`,
  };
  const event = await send(api.origin, '/v1/events', {
    method: 'POST',
    token: owner.token,
    body: { data: { type: 'event', attributes } },
  });
  if (event.status !== 201) throw new Error(`event: ${event.status} ${JSON.stringify(event.body)}`);
  const started = await send(api.origin, `/v1/events/${event.body.data.id}/export/json`, {
    method: 'POST',
    token: owner.token,
    body: { image: true },
    type: 'application/json',
  });
  if (started.status !== 200) throw new Error(`export: ${started.status} ${JSON.stringify(started.body)}`);
  await until('the export fetching the logo', async () => (peer.requests.length > 0 ? true : undefined));
  const taskUrl = started.body.task_url as string;
  return { peer, taskUrl, taskId: taskUrl.split('/').pop()! };
}

const jobOf = async (taskId: string) =>
  (
    await service.sql<{ state: string; retry_count: number }[]>`
    select state, retry_count from pgboss.job where name = 'event-export' and data->>'taskId' = ${taskId}`
  )[0];
const closing = (worker: ServerProcess) =>
  until('the worker closing', async () => (/SIGTERM: shutting down/.test(worker.output()) ? true : undefined));

t.test('a job that ends within the timeout finishes before the worker exits 0', async (t) => {
  const worker = await service.worker({ SHUTDOWN_TIMEOUT_SECONDS: '60' });
  const { peer, taskUrl, taskId } = await heldExport('Finished While Closing');
  worker.child.kill('SIGTERM');
  await closing(worker);
  peer.release();
  t.equal(await worker.exited, 0, 'the worker exits 0');
  t.notMatch(worker.output(), /handed back/, 'with no job handed back');
  const task = await taskEnded(api.origin, taskUrl, owner.token);
  t.equal(task.state, 'SUCCESS', 'the export succeeded');
  t.strictSame(
    await jobOf(taskId),
    { state: 'completed', retry_count: 0 },
    'on its first attempt, in the closing worker',
  );
});

t.test('a job outliving the timeout is handed back and finished by another worker', async (t) => {
  const worker = await service.worker({ SHUTDOWN_TIMEOUT_SECONDS: '6' });
  const { peer, taskUrl, taskId } = await heldExport('Handed Back');
  worker.child.kill('SIGTERM');
  t.equal(await worker.exited, 0, 'the worker exits 0 once the job is handed back');
  t.match(worker.output(), /1 running job\(s\) handed back at the shutdown timeout, to be retried/, 'and says so');
  t.match(await jobOf(taskId), { state: 'retry' }, 'the job waits for its retry');
  const [waiting] = await service.sql`select state from tasks where id = ${taskId}`;
  t.equal(waiting!.state, 'WAITING', 'the task still waits');

  peer.release();
  await service.worker();
  const task = await taskEnded(api.origin, taskUrl, owner.token);
  t.equal(task.state, 'SUCCESS', 'the export succeeded on the other worker');
  const job = await until('the job to complete', async () => {
    const row = await jobOf(taskId);
    return row?.state === 'active' ? undefined : row;
  });
  t.strictSame(job, { state: 'completed', retry_count: 1 }, 'on its second attempt');
  const [mails] =
    await service.sql`select count(*)::int as n from mails where action = 'export-done' and subject like '%Handed Back%'`;
  t.equal(mails!.n, 1, 'one mail for it');
});

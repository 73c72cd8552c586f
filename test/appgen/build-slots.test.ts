/**
 * Build slots (src/jobs/slots.ts), the strict bound on app builds: over two database clients (two
 * processes), never more work at once than slots; with more slots, more at once; a client that
 * dies with its slot frees it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import t from 'tap';
import { withSlot } from '../../src/jobs/slots.js';
import { buildTestApp } from '../helpers/app.js';

const { url } = await buildTestApp(t);
const clients = [postgres(url, { max: 4, onnotice: () => {} }), postgres(url, { max: 4, onnotice: () => {} })];
t.teardown(() => Promise.all(clients.map((c) => c.end())));

/**
 * Eight tasks over both clients with `count` slots: the most that ran at once. Each task holds its
 * slot for 150 ms and then, on a slow machine, up to 30 s more until `count` tasks were in at once.
 */
async function mostAtOnce(name: string, count: number) {
  let running = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      withSlot(clients[i % 2]!, name, count, async () => {
        most = Math.max(most, ++running);
        await sleep(150);
        for (const deadline = Date.now() + 30_000; most < count && Date.now() < deadline; ) await sleep(20);
        running--;
      }),
    ),
  );
  return most;
}

t.test('one slot: one at a time over two clients', async (t) => {
  t.equal(await mostAtOnce('one', 1), 1);
});

t.test('three slots: three at a time, never more', async (t) => {
  t.equal(await mostAtOnce('three', 3), 3);
});

t.test('a client that dies holding a slot frees it', async (t) => {
  const doomed = postgres(url, { max: 1, onnotice: () => {} });
  let entered!: () => void;
  let finish!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const finished = new Promise<void>((resolve) => (finish = resolve));
  // Its work goes on after the client is gone (a process that dies is simply gone).
  const held = withSlot(doomed, 'doomed', 1, async () => {
    entered();
    await finished;
  }).catch(() => 'ended');
  await inside;
  let got = false;
  const waiting = withSlot(clients[0]!, 'doomed', 1, async () => void (got = true));
  await sleep(700);
  t.notOk(got, 'the slot is taken while its client lives');
  await doomed.end({ timeout: 0 });
  await waiting;
  t.ok(got, 'the slot was free once the client was gone');
  finish();
  t.equal(await held, 'ended', 'the dead client could not give the slot back itself');
});

/**
 * `make soak`: seeds a database of its own (as `make bench` does, a smaller data set), starts the service
 * as `npm start` does (`src/server.ts`, role all: API and background jobs in one process), and runs a
 * steady mixed load for SOAK_MINUTES (10): SOAK_CLIENTS (4) clients each sending one operation of
 * `mix.ts` after another (JSON:API reads, session and speaker writes, registrations and logins, image
 * uploads, assistant and app generator reads), and one more client starting a background task every
 * SOAK_TASK_SECONDS (30; an export polled and downloaded, or an app build polled). Every request says
 * which status it expects; anything else, a connection error or a timeout is an error.
 *
 * Every SOAK_INTERVAL_SECONDS (60) it prints elapsed time, requests and errors so far, req/s and p99
 * latency of the interval, and the server process's resident memory (/proc/<pid>/status VmRSS; the
 * process `npm start` runs is the server itself, tsx is loaded into it with --import): the last sample
 * and the interval's lowest, and the V8 heap (written by `memory-probe.mjs`, preloaded into the server).
 * Memory is sampled every second.
 *
 * The verdict, PASS or FAIL (exit 1):
 * - no errors at all;
 * - no growth trend in RSS over the second half of the run (the first half is the warm-up: JIT,
 *   connection pools, V8 growing its heap to the load's working set). The trend is the least-squares
 *   slope of the lowest sample of every 10 seconds: single samples jump by 100 MiB and more while
 *   passwords are hashed (argon2 takes 64 MiB per hash) or a task zips, memory given back within
 *   seconds, while a leak raises the lowest samples too. It counts as growth when it is at least
 *   SOAK_MAX_SLOPE (1 MiB per minute: 1.4 GiB a day, a process that would need a daily restart) and
 *   more than two standard errors above zero. The second condition is there because on a busy 2-core
 *   machine the 10-second lows still scatter by tens of MiB (V8 resizing its heap, the allocator's
 *   arenas): a 10-minute run measured a standard error of 1.6 MiB/min, so the slope alone would turn
 *   the verdict into a coin toss. The summary prints slope ± 2 SE, the resolution of the run; the
 *   error shrinks with the run's length to the power 1.5, so SOAK_MINUTES=60 resolves about 0.2 MiB/min;
 * - the lowest RSS of the last 10 seconds at most 20 % above the highest 10-second low of the first
 *   half: a step (a cache or pool that grows once and never gives back) that a slope over the second
 *   half alone could miss. 20 % leaves room for V8 extending its old space once more and for the
 *   allocator's fragmentation.
 * A 2-minute run shows the mechanics; the 10-minute default gives the slope 30 points to fit.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { envNumber, fmt, onCleanup, runCommand, seededDatabase, startService } from '../bench/harness.js';
import { probe } from '../bench/measure.js';
import { FLOOR_SECONDS, MEMORY_PROBE, removeProbeFile, sampleMemory, trend, type MemorySample } from './memory.js';
import { clientOperations, taskOperations, type Operation, type SoakContext } from './mix.js';
import { Traffic } from './traffic.js';

const settings = {
  minutes: envNumber('SOAK_MINUTES', 10, 1),
  interval: envNumber('SOAK_INTERVAL_SECONDS', 60, 1),
  clients: Math.round(envNumber('SOAK_CLIENTS', 4, 1)),
  taskSeconds: envNumber('SOAK_TASK_SECONDS', 30, 1),
  users: Math.round(envNumber('SOAK_USERS', 2_000, 1)),
  sessions: Math.round(envNumber('SOAK_SESSIONS', 1_000, 1)),
  speakers: Math.round(envNumber('SOAK_SPEAKERS', 1_000, 1)),
  maxSlope: envNumber('SOAK_MAX_SLOPE', 1, 0),
};
/** The last RSS may exceed the first half's peak by this share. */
const MAX_STEP = 0.2;
const SAMPLE_MS = 1000;
const MiB = 2 ** 20;

const mib = (bytes: number) => `${fmt(bytes / MiB, 1)} MiB`;
const clock = (seconds: number) =>
  `${Math.floor(Math.round(seconds) / 60)}:${String(Math.round(seconds) % 60).padStart(2, '0')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const p99 = (values: number[]) =>
  values.length ? [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]! : 0;

function pickWeighted(operations: Operation[]): Operation {
  let r = Math.random() * operations.reduce((sum, op) => sum + op.weight, 0);
  for (const op of operations) if ((r -= op.weight) < 0) return op;
  return operations.at(-1)!;
}

const COLUMNS = ['elapsed', 'requests', 'errors', 'req/s', 'p99 ms', 'RSS MiB', 'lowest RSS', 'heap used / total MiB'];
const WIDTHS = COLUMNS.map((c) => Math.max(c.length, 9));
const row = (cells: string[]) => `  ${cells.map((c, i) => c.padStart(WIDTHS[i]!)).join('  ')}`;

async function main(): Promise<number> {
  console.log(
    `make soak: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `  ${fmt(settings.minutes, 1)} min of load, ${settings.clients} clients + 1 task client (a task every ${settings.taskSeconds} s), ` +
      `a line every ${settings.interval} s`,
  );
  let started = Date.now();
  const { server, url, seeded } = await seededDatabase('soak', {
    users: settings.users,
    sessions: settings.sessions,
    speakers: settings.speakers,
  });
  console.log(
    `  PostgreSQL ${server.embedded ? 'embedded (temporary folder)' : 'from DATABASE_URL'}; seeded ${fmt(seeded.users)} users, ` +
      `100 events, one with ${fmt(seeded.event.sessions)} sessions and ${fmt(seeded.event.speakers)} speakers in ${fmt((Date.now() - started) / 1000, 1)} s`,
  );

  const storage = await mkdtemp(join(tmpdir(), 'oe-soak-storage-'));
  onCleanup(() => rm(storage, { recursive: true, force: true }));
  started = Date.now();
  const service = await startService({
    DATABASE_URL: url,
    JWT_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: storage,
    STORAGE_DIR: join(storage, 'files'),
    MAIL_OUTBOX_DIR: join(storage, 'outbox'),
    ASSISTANT_SETTINGS_DIR: join(storage, 'assistant'),
    SKILL_REPO_DIR: join(storage, 'skills'),
    // App builds read the event back from this very server over loopback, once a minute or so.
    FETCH_ALLOW_PRIVATE: 'true',
    APPGEN_RATE_PER_EMAIL: '1000000',
    APPGEN_RATE_PER_IP: '1000000',
    // The mix registers an account now and then, all from this one client address.
    SIGNUP_RATE_PER_IP: '1000000',
    NODE_OPTIONS: `--import=${MEMORY_PROBE}`,
  });
  onCleanup(() => removeProbeFile(service.pid));
  onCleanup(() => service.stop());
  let exited = false;
  void service.exited.then(() => (exited = true));
  console.log(
    `  service (npm start, pid ${service.pid}) listening on ${service.origin} after ${fmt((Date.now() - started) / 1000, 1)} s`,
  );

  const { origin } = service;
  const login = await probe(
    origin,
    {
      method: 'POST',
      path: '/v1/auth/login',
      body: { email: seeded.adminEmail, password: seeded.adminPassword },
      contentType: 'application/json',
      auth: false,
    },
    '',
  );
  const token = (JSON.parse(login.text) as { access_token: string }).access_token;
  const sessions = await probe(origin, { path: `/v1/events/${seeded.event.id}/sessions?page[size]=100` }, token);
  const sessionIds = (JSON.parse(sessions.text) as { data: { id: string }[] }).data.map((s) => s.id);

  const loadStart = performance.now();
  const elapsed = () => (performance.now() - loadStart) / 1000;
  const traffic = new Traffic(origin, token, loadStart);
  const context: SoakContext = { traffic, origin, seeded, sessionIds };
  const [clientOps, taskOps] = [await clientOperations(context), taskOperations(context)];
  const performed = new Map<string, number>();
  let stopping = false;
  const perform = async (op: Operation) => {
    await op.run();
    performed.set(op.name, (performed.get(op.name) ?? 0) + 1);
  };
  const workers = [
    ...Array.from({ length: settings.clients }, async () => {
      while (!stopping) await perform(pickWeighted(clientOps));
    }),
    (async () => {
      for (let i = 0; !stopping; i++) {
        const next = performance.now() + settings.taskSeconds * 1000;
        await perform(taskOps[i % taskOps.length]!);
        while (!stopping && performance.now() < next) await sleep(Math.min(SAMPLE_MS, next - performance.now()));
      }
    })(),
  ];

  console.log(`\n${row(COLUMNS)}`);
  const samples: MemorySample[] = [];
  const first = sampleMemory(service.pid, 0);
  if (first) samples.push(first);
  const line = (s: MemorySample, requests: number, seconds: number) => {
    const lowest = Math.min(...samples.filter((x) => x.at > s.at - seconds).map((x) => x.rss));
    const heap = s.heapUsed === undefined ? '-' : `${fmt(s.heapUsed / MiB, 1)} / ${fmt(s.heapTotal! / MiB, 1)}`;
    console.log(
      row([
        clock(s.at),
        fmt(traffic.requests),
        fmt(traffic.errors),
        fmt(requests / seconds, 1),
        fmt(p99(traffic.takeLatencies())),
        fmt(s.rss / MiB, 1),
        fmt(lowest / MiB, 1),
        heap,
      ]),
    );
  };
  let printed = { at: 0, requests: 0 };
  for (let tick = 1; elapsed() < settings.minutes * 60; tick++) {
    await sleep(loadStart + tick * SAMPLE_MS - performance.now());
    const sample = exited ? undefined : sampleMemory(service.pid, elapsed());
    if (!sample) {
      traffic.fail('server', 'the process ended', service.output().slice(-2000));
      break;
    }
    samples.push(sample);
    if (sample.at - printed.at >= settings.interval - 0.5) {
      line(sample, traffic.requests - printed.requests, sample.at - printed.at);
      printed = { at: sample.at, requests: traffic.requests };
    }
  }
  stopping = true;
  const last = samples.at(-1)!;
  if (last.at - printed.at >= 1) line(last, traffic.requests - printed.requests, last.at - printed.at);
  await Promise.all(workers);
  return report(traffic, samples, performed, elapsed());
}

/** Totals, memory trend and the verdict; answers the exit code. */
function report(traffic: Traffic, samples: MemorySample[], performed: Map<string, number>, seconds: number): number {
  console.log(
    `\ntotals after ${clock(seconds)}: ${fmt(traffic.requests)} requests (${fmt(traffic.requests / seconds, 1)} req/s), ${fmt(traffic.errors)} errors`,
  );
  for (const [name, n] of [...performed].sort((a, b) => b[1] - a[1])) console.log(`  ${fmt(n).padStart(7)} × ${name}`);
  if (traffic.errorKinds.size) {
    console.log('errors:');
    for (const [kind, n] of [...traffic.errorKinds].sort((a, b) => b[1] - a[1]))
      console.log(`  ${fmt(n).padStart(7)} × ${kind}`);
  }

  if (samples.length < 2) {
    console.log('\nFAIL: the server ended before its memory could be followed');
    return 1;
  }
  const memory = trend(samples);
  const signed = ({ slope, se }: { slope: number; se: number }) =>
    `${slope >= 0 ? '+' : ''}${fmt(slope, 2)} ± ${fmt(2 * se, 2)} MiB/min`;
  const growing = memory.rss.slope >= settings.maxSlope && memory.rss.slope > 2 * memory.rss.se;
  console.log(
    `\nserver RSS: ${mib(samples[0]!.rss)} when the load began, ${mib(Math.max(...samples.map((s) => s.rss)))} at the highest sample\n` +
      `  lowest of every ${FLOOR_SECONDS} s: at most ${mib(memory.firstHalfPeak)} in the first half, ${mib(memory.last)} in the last ${FLOOR_SECONDS} s; ` +
      `slope over the second half (${memory.points} points) ${signed(memory.rss)} (2 standard errors)`,
  );
  if (memory.heap)
    console.log(
      `server heap used, lowest of every ${FLOOR_SECONDS} s: slope over the second half ${signed(memory.heap)} (for information)`,
    );

  const checks = [
    { pass: traffic.errors === 0, text: `errors: ${fmt(traffic.errors)} (none allowed)` },
    {
      pass: !growing,
      text:
        `no RSS growth trend: slope of the ${FLOOR_SECONDS}-s lows over the second half ${signed(memory.rss)}; ` +
        `(growth: at least ${fmt(settings.maxSlope, 2)} MiB/min and more than 2 standard errors above zero)`,
    },
    {
      pass: memory.last <= memory.firstHalfPeak * (1 + MAX_STEP),
      text: `lowest RSS of the last ${FLOOR_SECONDS} s ${mib(memory.last)} <= the first half's highest ${FLOOR_SECONDS}-s low + ${MAX_STEP * 100} % (${mib(memory.firstHalfPeak * (1 + MAX_STEP))})`,
    },
  ];
  console.log('');
  for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.text}`);
  const failed = checks.some((c) => !c.pass);
  console.log(failed ? '\nFAIL' : '\nPASS');
  return failed ? 1 : 0;
}

await runCommand(main);

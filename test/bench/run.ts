/**
 * `make bench`: starts PostgreSQL (embedded in a temporary folder, unless DATABASE_URL names a server
 * whose user may create databases), seeds a fresh database once, serves the app on 127.0.0.1 with
 * the baseline routes mounted, and runs autocannon against every path of `paths.ts` in alternating
 * rounds: each read as clients get it (read cache on, the default), without the cache
 * (`Cache-Control: no-cache`), and its baseline. Then the sessions list against 1 and 2 API processes
 * (`npm start -- --role api`, API_PROCESSES), the upload memory check, and export, import and app
 * build of the large event. Prints one table with the medians, ratios, task times and peak memory,
 * and each target as PASS/FAIL; exits 1 when a target fails. Knobs (environment): BENCH_SECONDS (5),
 * BENCH_ROUNDS (3), BENCH_WARMUP (2 s per route), BENCH_CONNECTIONS (10), BENCH_WORKERS (1
 * autocannon worker thread), BENCH_USERS (10000), BENCH_SESSIONS and BENCH_SPEAKERS (5000 each, in
 * the benchmark's event), BENCH_EXPLAIN=1 (print the generic plan of every statement),
 * BENCH_UPLOAD_MB (100: the file of the upload memory check), BENCH_ONLY=reads (only the table of the
 * paths, the mixed run and the argon2 rate: no upload check, no 1 vs 2 API processes, no tasks).
 * Before timing, each read's baseline (src/bench-routes.ts: one hand-written statement) must answer the
 * service's document, member by member.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { explainAll } from './explain.js';
import { envNumber, fmt, onCleanup, runCommand, seededDatabase, startService } from './harness.js';
import { load, loadCalls, loadSequence, median, probe, type LoadOptions, type Sample } from './measure.js';
import { benchPaths, type BenchPath, type BenchRequest } from './paths.js';
import { firstDifference } from './same-document.js';
import { appBuildTiming, transferTimings, type TaskTiming } from './tasks.js';
import { uploadMemory } from './upload-memory.js';

const settings = {
  seconds: envNumber('BENCH_SECONDS', 5, 1),
  rounds: Math.round(envNumber('BENCH_ROUNDS', 3, 1)),
  warmup: envNumber('BENCH_WARMUP', 2, 0),
  connections: Math.round(envNumber('BENCH_CONNECTIONS', 10, 1)),
  workers: Math.round(envNumber('BENCH_WORKERS', 1, 0)),
  users: Math.round(envNumber('BENCH_USERS', 10_000, 1)),
  sessions: Math.round(envNumber('BENCH_SESSIONS', 5_000, 1)),
  speakers: Math.round(envNumber('BENCH_SPEAKERS', 5_000, 1)),
  explain: process.env.BENCH_EXPLAIN === '1',
  uploadMb: envNumber('BENCH_UPLOAD_MB', 100, 1),
  only: process.env.BENCH_ONLY || undefined,
};
if (settings.only !== undefined && settings.only !== 'reads')
  throw new Error(`BENCH_ONLY must be "reads", got "${settings.only}"`);

/** Resident memory may grow by at most this share of the uploaded file's size while it streams in. */
const UPLOAD_MAX_GROWTH = 0.25;
/** Export, import and app build of the benchmark's event: each within this time, and this much memory growth. */
const TASK_MAX_SECONDS = { export: 20, import: 20, 'app build': 60 };
const TASK_MAX_GROWTH = 300 * 2 ** 20;
/** Reads of the sessions list per PATCH of a session in another event in the mixed run, and its target (issue 23). */
const MIXED_READS = 9;
const MIXED_MIN_RATIO = 0.7;
/** Login req/s over the rate of a bare argon2.verify of a hash made with the library's defaults (login before issue 23). */
const LOGIN_MIN_SPEEDUP = 5;
/** Targets that are issue 9's wherever a path lists them. */
const ISSUE_9_TARGETS = 9;
/** A read answered afresh, as the read cache's misses and `Cache-Control: no-cache` are. */
const uncached = (req: BenchRequest): BenchRequest => ({
  ...req,
  headers: { ...req.headers, 'cache-control': 'no-cache' },
});
/** A JSON:API read with a baseline: measured as clients get it, afresh, and against the baseline. */
const isRead = (path: BenchPath) => (path.method ?? 'GET') === 'GET' && path.baseline !== undefined;
/**
 * The median of the per-round ratios a[i] / b[i]: both sides of a round ran back to back, so a noisy
 * round (another process, the machine's own load) moves both and cancels out of the ratio.
 */
const pairedRatio = (a: Sample[], b: Sample[]) => median(a.map((s, i) => s.rps / b[i]!.rps));

/** The statement of the read cache's fence that a write sends before its answer leaves (in its transaction or after it). */
const FENCE = 'select pg_notify($1, $2)';

const label = (req: BenchRequest) => `${req.method ?? 'GET'} ${decodeURIComponent(req.path)}`;
const short = (s: string, max = 220) => (s.length > max ? `${s.slice(0, max)}…` : s);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** What one path measured. */
interface Measured {
  path: BenchPath;
  statements: number;
  baselineStatements?: number;
  sameSql?: boolean;
  /** Reads: whether the baseline answered the service's document, and where it first differed. */
  sameDocument?: { pass: boolean; detail: string };
  /** Tables the path's statements scan sequentially (generic plans). */
  seqScans: string[];
  samples: Sample[];
  /** Reads only: the same request without the read cache. */
  uncachedSamples: Sample[];
  baselineSamples: Sample[];
}

async function main(): Promise<number> {
  console.log(
    `make bench: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  console.log(
    `  ${settings.rounds} rounds × ${settings.seconds} s, warm-up ${settings.warmup} s, ` +
      `${settings.connections} connections, ${settings.workers} autocannon worker thread(s)`,
  );

  let started = Date.now();
  const { server, url, seeded } = await seededDatabase('bench', {
    users: settings.users,
    sessions: settings.sessions,
    speakers: settings.speakers,
  });
  console.log(
    `  PostgreSQL ${server.embedded ? 'embedded (temporary folder)' : 'from DATABASE_URL'}; ` +
      `started, migrated and seeded ${fmt(seeded.users)} users + 1 super admin, an event with ` +
      `${fmt(seeded.event.sessions)} sessions and ${fmt(seeded.event.speakers)} speakers in ${fmt((Date.now() - started) / 1000, 1)} s`,
  );

  // Statements are recorded only while `capture` is set (the single probe requests).
  let capture: string[] | undefined;
  const storage = await mkdtemp(join(tmpdir(), 'oe-bench-storage-'));
  onCleanup(() => rm(storage, { recursive: true, force: true }));
  const secret = randomBytes(32).toString('hex');
  // The app builder reads the event from this very process over loopback.
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    BENCH_ROUTES: 'true',
    STORAGE_DIR: storage,
    UPLOAD_TMP_DIR: storage,
    MAIL_OUTBOX_DIR: storage,
    ASSISTANT_SETTINGS_DIR: join(storage, 'assistant'),
    SKILL_REPO_DIR: join(storage, 'skills'),
    FETCH_ALLOW_PRIVATE: 'true',
    // Every login attempt counts as a failure until it succeeds: the concurrent logins of one account
    // must not reach the brute-force limit.
    LOGIN_MAX_FAILURES: '1000000',
    LOGIN_MAX_FAILURES_PER_IP: '1000000',
  });
  // Two apps on the same database: one records its statements for the checks before timing; the
  // timed one has no statement hook (the driver's hook records a stack trace with every statement,
  // which production does not pay).
  const serve = async (options: { onQuery?: (query: string) => void }) => {
    const app: FastifyInstance = await buildApp(
      { ...config, DATABASE_URL: url, JWT_SECRET: secret },
      { logger: { level: 'silent' }, ...options },
    );
    onCleanup(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, origin: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
  };
  started = Date.now();
  const { origin } = await serve({});
  const recording = await serve({ onQuery: (q) => capture?.push(q) });
  console.log(
    `  app built and listening on ${origin} (and one that records statements) in ${fmt(Date.now() - started)} ms`,
  );

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

  const statementsOf = async (req: BenchRequest) => {
    capture = [];
    try {
      await probe(recording.origin, req, token);
      return capture;
    } finally {
      capture = undefined;
    }
  };

  // One request per route before timing: statement counts, and the baseline's SQL must be the route's.
  const measured: Measured[] = [];
  for (const path of benchPaths(seeded)) {
    const statements = await statementsOf(isRead(path) ? uncached(path) : path);
    const plans = await explainAll(url, statements, config.DB_RANDOM_PAGE_COST);
    const seqScans = [...new Set(plans.flatMap((p) => p.seqScans))];
    const m: Measured = {
      path,
      statements: statements.length,
      seqScans,
      samples: [],
      uncachedSamples: [],
      baselineSamples: [],
    };
    console.log(`\n${path.name ?? label(path)}: ${statements.length} SQL statement(s) per request`);
    statements.forEach((s, i) => {
      console.log(`  ${i + 1}. ${short(s)}`);
      if (settings.explain) plans.find((p) => p.statement === s)?.lines.forEach((l) => console.log(`       ${l}`));
    });
    console.log(`  sequential scans: ${seqScans.length ? seqScans.join(', ') : 'none'}`);
    if (path.baseline) {
      const baseline = await statementsOf(isRead(path) ? uncached(path.baseline) : path.baseline);
      m.baselineStatements = baseline.length;
      // The baseline does what the route does before its answer: its statements are the route's first ones.
      // A write sends the read cache's notification fence (plugins/read-cache-feed.ts: before its commit, or after it), both sides alike.
      const work = (list: string[]) => list.filter((s) => s !== FENCE);
      const [ours, theirs] = [work(statements), work(baseline)];
      m.sameSql = theirs.length > 0 && theirs.length <= ours.length && theirs.every((s, i) => s === ours[i]);
      console.log(`  baseline ${label(path.baseline)}: ${baseline.length} SQL statement(s) per request`);
      if (path.sameSql) {
        console.log(
          `  baseline SQL ${m.sameSql ? "is the route's first statements (same text, same order)" : 'DIFFERS:'}`,
        );
        if (!m.sameSql) baseline.forEach((s, i) => console.log(`  ${i + 1}. ${short(s)}`));
      } else {
        baseline.forEach((s, i) => console.log(`  ${i + 1}. ${short(s)}`));
      }
    }
    if (isRead(path)) {
      // Both afresh, one after the other: the same data, so the same document member by member.
      const service = JSON.parse((await probe(origin, uncached(path), token)).text) as unknown;
      const baseline = JSON.parse((await probe(origin, uncached(path.baseline!), token)).text) as unknown;
      const diff = firstDifference(service, baseline);
      const value = (v: unknown) => short(JSON.stringify(v) ?? 'undefined', 300);
      m.sameDocument = diff
        ? {
            pass: false,
            detail: `first difference at ${diff.pointer}: service ${value(diff.a)}, baseline ${value(diff.b)}`,
          }
        : { pass: true, detail: '' };
      console.log(`  baseline document: ${diff ? `DIFFERS, ${m.sameDocument.detail}` : "the same as the service's"}`);
    }
    measured.push(m);
  }
  await recording.app.close();

  const options: LoadOptions = {
    seconds: settings.seconds,
    connections: settings.connections,
    workers: settings.workers,
  };
  const loadRun = (req: BenchRequest, into: Sample[]) => ({
    name: label(req) + (req.headers?.['cache-control'] ? ' (no-cache)' : ''),
    into,
    go: (seconds: number) => load(origin, req, token, { ...options, seconds }),
  });

  // The mixed run: each connection sends the sessions list as served (read cache on) MIXED_READS times, then
  // PATCHes the title of a session of another event (a new title each time: mixed-patch.cjs).
  const sessionsRead = measured.find((m) => m.path.path.includes('/sessions?'))!;
  const patch: BenchRequest = {
    method: 'PATCH',
    path: `/v1/sessions/${seeded.otherSessionId}`,
    body: { data: { type: 'session', id: String(seeded.otherSessionId), attributes: { title: 'Mixed' } } },
  };
  await probe(origin, patch, token);
  const mixedSequence = [
    ...Array.from({ length: MIXED_READS }, () => sessionsRead.path as BenchRequest),
    { ...patch, setupRequest: fileURLToPath(new URL('./mixed-patch.cjs', import.meta.url)) },
  ];
  const mixedSamples: Sample[] = [];
  // Login as it cost before issue 23: a bare argon2.verify of a hash with the library's default options.
  const defaultHash = await argon2.hash(seeded.adminPassword, { type: argon2.argon2id });
  const verifySamples: Sample[] = [];

  // Every run of a round; each round alternates the order so neither side always runs first.
  const runs = [
    ...measured.flatMap((m) => [
      loadRun(m.path, m.samples),
      ...(isRead(m.path) ? [loadRun(uncached(m.path), m.uncachedSamples)] : []),
      // A read's baseline authenticates afresh too, as the fresh read does.
      ...(m.path.baseline
        ? [loadRun(isRead(m.path) ? uncached(m.path.baseline) : m.path.baseline, m.baselineSamples)]
        : []),
    ]),
    {
      name: `mixed: ${MIXED_READS} × sessions list (as served) + 1 × PATCH /v1/sessions/{id}`,
      into: mixedSamples,
      go: (seconds: number) => loadSequence(origin, mixedSequence, token, { ...options, seconds }),
    },
    {
      name: 'argon2.verify, library defaults (in this process)',
      into: verifySamples,
      go: (seconds: number) =>
        loadCalls(() => argon2.verify(defaultHash, seeded.adminPassword), seconds, settings.connections),
    },
  ];
  if (settings.warmup > 0) {
    console.log(`\nwarm-up (${settings.warmup} s per route)`);
    for (const run of runs) await run.go(settings.warmup);
  }
  for (let round = 0; round < settings.rounds; round++) {
    console.log(`round ${round + 1}/${settings.rounds}`);
    for (const run of round % 2 === 0 ? runs : [...runs].reverse()) {
      const sample = await run.go(settings.seconds);
      run.into.push(sample);
      console.log(
        `  ${run.name.padEnd(70)} ${fmt(sample.rps).padStart(7)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms`,
      );
    }
  }

  const mb = (n: number) => `${fmt(n / 2 ** 20, 1)} MiB`;
  // Upload memory, 1 vs 2 API processes and the event's tasks (skipped with BENCH_ONLY=reads).
  const extra = settings.only
    ? undefined
    : await (async () => {
        // A first upload a tenth the size warms up the buffers and allocator arenas any upload uses; what the
        // large one adds beyond that peak is what grows with the file.
        const warm = await uploadMemory(origin, token, Math.round((settings.uploadMb * 2 ** 20) / 10));
        const upload = await uploadMemory(origin, token, Math.round(settings.uploadMb * 2 ** 20));
        const growth = Math.max(0, upload.rssPeak - Math.max(warm.rssPeak, upload.rssBefore)) / upload.bytes;
        console.log(
          `\nupload memory: POST /v1/upload/file of ${mb(warm.bytes)} (peak ${mb(warm.rssPeak)}), then of ${mb(upload.bytes)} in ` +
            `${fmt(upload.seconds, 1)} s: resident memory ${mb(upload.rssBefore)} before, ${mb(upload.rssPeak)} at the peak ` +
            `(growth beyond the small upload's peak ${fmt(growth, 3)} × the file)`,
        );

        // Scale-out: the sessions list, answered afresh, by one API process and by two sharing a port.
        const sessionsPath = sessionsRead.path;
        console.log('\nscale-out: starting `src/server.ts --role api` with API_PROCESSES=1 and 2');
        const serverEnv = {
          DATABASE_URL: url,
          JWT_SECRET: secret,
          DATA_DIR: storage,
          STORAGE_DIR: storage,
          LOCAL_STORAGE_SHARED: 'true',
          MAIL_OUTBOX_DIR: storage,
          ASSISTANT_SETTINGS_DIR: join(storage, 'assistant'),
          SKILL_REPO_DIR: join(storage, 'skills'),
        };
        // `src/server.ts --role api` with 1 and 2 processes sharing one port, on the benchmark's database and secret.
        const apiServer = (processes: number) =>
          startService({ ...serverEnv, API_PROCESSES: String(processes) }, ['--role', 'api']);
        const servers = [await apiServer(1), await apiServer(2)];
        onCleanup(() => Promise.all(servers.map((s) => s.stop())));
        const scaleSamples: Sample[][] = [[], []];
        for (const server of servers)
          await load(server.origin, uncached(sessionsPath), token, { ...options, seconds: settings.warmup || 1 });
        for (let round = 0; round < settings.rounds; round++) {
          for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
            const sample = await load(servers[i]!.origin, uncached(sessionsPath), token, options);
            scaleSamples[i]!.push(sample);
            console.log(
              `  ${i + 1} API process(es): ${fmt(sample.rps)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms`,
            );
          }
        }
        await Promise.all(servers.map((s) => s.stop()));
        const [oneRps, twoRps] = scaleSamples.map((samples) => median(samples.map((s) => s.rps))) as [number, number];

        // Background tasks of the large event, one at a time, in this process (role all).
        const transfer = await transferTimings(origin, token, seeded.event.id);
        const tasks: { what: keyof typeof TASK_MAX_SECONDS; timing: TaskTiming }[] = [
          { what: 'export', timing: transfer.export },
          { what: 'import', timing: transfer.import },
          { what: 'app build', timing: await appBuildTiming(origin, seeded.event.id) },
        ];
        console.log(
          `\ntasks of the event (${fmt(seeded.event.sessions)} sessions, ${fmt(seeded.event.speakers)} speakers; archive ${mb(transfer.archiveBytes)})`,
        );
        for (const { what, timing } of tasks) {
          console.log(
            `  ${what}: ${fmt(timing.seconds, 1)} s from request to SUCCESS, resident memory ${mb(timing.rssBefore)} before, ${mb(timing.rssPeak)} at the peak`,
          );
        }
        return { upload, growth, sessionsPath, scaleSamples, oneRps, twoRps, tasks };
      })();

  // The report: one table of the HTTP paths and the tasks.
  const rows: string[][] = [];
  const none = ['-', '-'];
  const checks: { issue: number; text: string; pass: boolean }[] = [];
  if (extra) {
    const { upload, growth } = extra;
    checks.push({
      issue: 5,
      text: `upload of ${mb(upload.bytes)}: memory growth ${fmt(growth, 3)} × the file <= ${UPLOAD_MAX_GROWTH}`,
      pass: growth <= UPLOAD_MAX_GROWTH,
    });
  }
  const ms = (samples: Sample[], key: 'p50' | 'p99') => `${fmt(median(samples.map((s) => s[key])), 1)} ms`;
  for (const m of measured) {
    const name = m.path.name ?? label(m.path);
    const rps = median(m.samples.map((s) => s.rps));
    const freshRps = m.uncachedSamples.length ? median(m.uncachedSamples.map((s) => s.rps)) : undefined;
    const baseRps = m.baselineSamples.length ? median(m.baselineSamples.map((s) => s.rps)) : undefined;
    const ratio =
      baseRps === undefined
        ? undefined
        : pairedRatio(freshRps === undefined ? m.samples : m.uncachedSamples, m.baselineSamples);
    rows.push([
      name,
      fmt(rps),
      ms(m.samples, 'p50'),
      ms(m.samples, 'p99'),
      freshRps === undefined ? '-' : fmt(freshRps),
      freshRps === undefined ? '-' : ms(m.uncachedSamples, 'p99'),
      baseRps === undefined ? '-' : fmt(baseRps),
      ratio === undefined ? '-' : fmt(ratio, 2),
      String(m.statements),
      ...none,
    ]);
    const { minRatio, maxStatements, minRps, noSeqScans, smallTables = [] } = m.path.targets;
    if (minRatio !== undefined) {
      const what = freshRps === undefined ? 'ratio' : 'ratio without the read cache';
      checks.push({
        issue: m.path.issue,
        text: `${name}: ${what} ${ratio === undefined ? 'n/a' : fmt(ratio, 2)} >= ${minRatio}`,
        pass: ratio !== undefined && ratio >= minRatio,
      });
    }
    if (maxStatements !== undefined) {
      checks.push({
        issue: m.path.issue,
        text: `${name}: SQL statements per request ${m.statements} <= ${maxStatements}`,
        pass: m.statements <= maxStatements,
      });
    }
    if (minRps !== undefined) {
      checks.push({
        issue: ISSUE_9_TARGETS,
        text: `${name}: ${fmt(rps)} req/s >= ${fmt(minRps)}`,
        pass: rps >= minRps,
      });
    }
    if (noSeqScans) {
      const scans = m.seqScans.filter((table) => !smallTables.includes(table));
      const allowed = smallTables.length ? ` besides the small ${smallTables.join(', ')}` : '';
      checks.push({
        issue: ISSUE_9_TARGETS,
        text: `${name}: no sequential scans${allowed} (${scans.join(', ') || 'none'})`,
        pass: scans.length === 0,
      });
    }
    if (m.path.baseline && m.path.sameSql) {
      checks.push({
        issue: m.path.issue,
        text: `${name}: baseline runs the same SQL (the route's first ${m.baselineStatements} statements)`,
        pass: m.sameSql === true,
      });
    }
    if (m.sameDocument) {
      const { pass, detail } = m.sameDocument;
      checks.push({
        issue: m.path.issue,
        text: `${name}: baseline answers the same document${pass ? '' : ` (${detail})`}`,
        pass,
      });
    }
  }

  // The mixed run against the sessions list as served (read-only), and login against argon2 with the library's defaults.
  const mixedRps = median(mixedSamples.map((s) => s.rps));
  const mixedRatio = pairedRatio(mixedSamples, sessionsRead.samples);
  rows.push([
    `mixed: ${MIXED_READS} × sessions list (as served) : 1 × PATCH /v1/sessions/{id} (another event), ratio to the sessions list's req/s`,
    fmt(mixedRps),
    ms(mixedSamples, 'p50'),
    ms(mixedSamples, 'p99'),
    '-',
    '-',
    '-',
    fmt(mixedRatio, 2),
    '-',
    ...none,
  ]);
  checks.push({
    issue: 23,
    text: `mixed ${MIXED_READS} reads of the sessions list : 1 PATCH of a session in another event: ${fmt(mixedRps)} req/s, ${fmt(mixedRatio, 2)} × read-only >= ${MIXED_MIN_RATIO}`,
    pass: mixedRatio >= MIXED_MIN_RATIO,
  });
  const verifyRps = median(verifySamples.map((s) => s.rps));
  rows.push([
    `argon2.verify of a hash with the library's defaults (login before issue 23; ${settings.connections} in flight)`,
    fmt(verifyRps),
    ms(verifySamples, 'p50'),
    ms(verifySamples, 'p99'),
    '-',
    '-',
    '-',
    '-',
    '-',
    ...none,
  ]);
  const loginRun = measured.find((m) => m.path.path === '/v1/auth/login');
  if (loginRun) {
    const speedup = pairedRatio(loginRun.samples, verifySamples);
    checks.push({
      issue: 23,
      text: `POST /v1/auth/login: ${fmt(median(loginRun.samples.map((s) => s.rps)))} req/s, ${fmt(speedup, 1)} × a bare argon2.verify with the library's defaults (${fmt(verifyRps, 1)}/s) >= ${LOGIN_MIN_SPEEDUP}`,
      pass: speedup >= LOGIN_MIN_SPEEDUP,
    });
  }
  const { sessionsPath, scaleSamples, oneRps, twoRps, tasks } = extra ?? { tasks: [] };
  if (sessionsPath && scaleSamples && oneRps !== undefined && twoRps !== undefined) {
    const sessionsName = `${sessionsPath.name ?? label(sessionsPath)}, no-cache`;
    rows.push(
      [
        `${sessionsName}: 1 API process`,
        '-',
        '-',
        '-',
        fmt(oneRps),
        ms(scaleSamples[0]!, 'p99'),
        '-',
        '-',
        '-',
        ...none,
      ],
      [
        `${sessionsName}: 2 API processes (× ${fmt(twoRps / oneRps, 2)})`,
        '-',
        '-',
        '-',
        fmt(twoRps),
        ms(scaleSamples[1]!, 'p99'),
        '-',
        '-',
        '-',
        ...none,
      ],
    );
  }
  for (const { what, timing } of tasks) {
    const grew = timing.rssPeak - timing.rssBefore;
    rows.push([
      `${what} of the event (task, request to SUCCESS)`,
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
      '-',
      `${fmt(timing.seconds, 1)} s`,
      `${mb(timing.rssPeak)} (+${mb(grew)})`,
    ]);
    const issue = what === 'app build' ? 9 : 6;
    const limit = TASK_MAX_SECONDS[what];
    checks.push(
      { issue, text: `${what} of the event: ${fmt(timing.seconds, 1)} s <= ${limit} s`, pass: timing.seconds <= limit },
      {
        issue,
        text: `${what} of the event: memory growth ${mb(grew)} < ${mb(TASK_MAX_GROWTH)}`,
        pass: grew < TASK_MAX_GROWTH,
      },
    );
  }
  console.log(
    `\nmedians of ${settings.rounds} rounds × ${settings.seconds} s, ${settings.connections} connections (${new Date().toISOString()}); ` +
      'req/s as clients get it (read cache on), "fresh" with Cache-Control: no-cache, ratio = median over the rounds of fresh / baseline ' +
      '(the hand-written statement of the same document)\n',
  );
  console.log(
    table(
      [
        'path',
        'req/s',
        'p50',
        'p99',
        'fresh req/s',
        'fresh p99',
        'baseline req/s',
        'ratio',
        'SQL/req',
        'time',
        'peak RSS',
      ],
      rows,
    ),
  );
  console.log('\ntargets');
  for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  issue ${c.issue}: ${c.text}`);
  const failed = checks.filter((c) => !c.pass).length;
  console.log(failed ? `\n${failed} target(s) failed` : '\nall targets met');
  return failed ? 1 : 0;
}

await runCommand(main);

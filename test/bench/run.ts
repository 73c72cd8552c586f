/**
 * `make bench`: starts PostgreSQL (embedded in a temporary folder, unless DATABASE_URL names a server
 * whose user may create databases), seeds a fresh database once, serves the app on 127.0.0.1 with
 * the baseline routes mounted, and runs autocannon against every path of `paths.ts` and its baseline
 * in alternating rounds. Prints the medians, the ratios and each target as PASS/FAIL; exits 1 when a
 * target fails. Knobs (environment): BENCH_SECONDS (5), BENCH_ROUNDS (5), BENCH_WARMUP (2 s per
 * route), BENCH_CONNECTIONS (10), BENCH_WORKERS (1 autocannon worker thread), BENCH_USERS (10000),
 * BENCH_SESSIONS and BENCH_SPEAKERS (5000 each, in the benchmark's event), BENCH_EXPLAIN=1 (print the generic plan of every statement),
 * BENCH_UPLOAD_MB (100: the file of the upload memory check).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import postgres from 'postgres';
import { runMigrations } from '../../db/migrate.js';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { withDatabase } from '../helpers/database.js';
import { startPostgres } from '../helpers/postgres.js';
import { explainAll } from './explain.js';
import { load, median, probe, type LoadOptions, type Sample } from './measure.js';
import { benchPaths, type BenchPath, type BenchRequest } from './paths.js';
import { seed } from './seed.js';
import { transferTimings } from './transfer.js';
import { uploadMemory } from './upload-memory.js';

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}, got "${raw}"`);
  return n;
}

const settings = {
  seconds: envNumber('BENCH_SECONDS', 5, 1),
  rounds: Math.round(envNumber('BENCH_ROUNDS', 5, 1)),
  warmup: envNumber('BENCH_WARMUP', 2, 0),
  connections: Math.round(envNumber('BENCH_CONNECTIONS', 10, 1)),
  workers: Math.round(envNumber('BENCH_WORKERS', 1, 0)),
  users: Math.round(envNumber('BENCH_USERS', 10_000, 1)),
  sessions: Math.round(envNumber('BENCH_SESSIONS', 5_000, 1)),
  speakers: Math.round(envNumber('BENCH_SPEAKERS', 5_000, 1)),
  explain: process.env.BENCH_EXPLAIN === '1',
  uploadMb: envNumber('BENCH_UPLOAD_MB', 100, 1),
};

/** Resident memory may grow by at most this share of the uploaded file's size while it streams in. */
const UPLOAD_MAX_GROWTH = 0.25;
/** Export and import of the benchmark's event: each within this time, and this much memory growth. */
const TRANSFER_MAX_SECONDS = 20;
const TRANSFER_MAX_GROWTH = 300 * 2 ** 20;

/** Cleanup steps, run last-in first-out exactly once, on success, failure or a signal. */
const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    while (cleanups.length > 0) {
      try {
        await cleanups.pop()!();
      } catch (err) {
        console.error('cleanup:', err);
      }
    }
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

const label = (req: BenchRequest) => `${req.method ?? 'GET'} ${decodeURIComponent(req.path)}`;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const short = (s: string, max = 220) => (s.length > max ? `${s.slice(0, max)}…` : s);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function createDatabase(adminUrl: string): Promise<string> {
  const name = `oe_bench_${randomBytes(6).toString('hex')}`;
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  cleanups.push(async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  });
  return withDatabase(adminUrl, name);
}

/** What one path measured. */
interface Measured {
  path: BenchPath;
  statements: number;
  baselineStatements?: number;
  sameSql?: boolean;
  /** Tables the path's statements scan sequentially (generic plans). */
  seqScans: string[];
  samples: Sample[];
  baselineSamples: Sample[];
}

async function main(): Promise<number> {
  console.log(
    `make bench: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
      `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(
    `  ${settings.rounds} rounds × ${settings.seconds} s, warm-up ${settings.warmup} s, ` +
      `${settings.connections} connections, ${settings.workers} autocannon worker thread(s)`,
  );

  let started = Date.now();
  const server = await startPostgres('oe-bench-pg-');
  cleanups.push(() => server.stop());
  const url = await createDatabase(server.adminUrl);
  await runMigrations(url);
  const seeded = await seed(url, { users: settings.users, sessions: settings.sessions, speakers: settings.speakers });
  console.log(
    `  PostgreSQL ${server.embedded ? 'embedded (temporary folder)' : 'from DATABASE_URL'}; ` +
      `started, migrated and seeded ${fmt(seeded.users)} users + 1 super admin, an event with ` +
        `${fmt(seeded.event.sessions)} sessions and ${fmt(seeded.event.speakers)} speakers in ${fmt((Date.now() - started) / 1000, 1)} s`,
  );

  // Statements are recorded only while `capture` is set (the single probe requests).
  let capture: string[] | undefined;
  const storage = await mkdtemp(join(tmpdir(), 'oe-bench-storage-'));
  cleanups.push(() => rm(storage, { recursive: true, force: true }));
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', BENCH_ROUTES: 'true', STORAGE_DIR: storage, UPLOAD_TMP_DIR: storage });
  started = Date.now();
  const app: FastifyInstance = await buildApp(
    { ...config, DATABASE_URL: url, JWT_SECRET: randomBytes(32).toString('hex') },
    { logger: { level: 'silent' }, onQuery: (q) => capture?.push(q) },
  );
  cleanups.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  console.log(`  app built and listening on ${origin} in ${fmt(Date.now() - started)} ms`);

  const login = await probe(
    origin,
    { method: 'POST', path: '/v1/auth/login', body: { email: seeded.adminEmail, password: seeded.adminPassword }, contentType: 'application/json', auth: false },
    '',
  );
  const token = (JSON.parse(login.text) as { access_token: string }).access_token;

  const statementsOf = async (req: BenchRequest) => {
    capture = [];
    try {
      await probe(origin, req, token);
      return capture;
    } finally {
      capture = undefined;
    }
  };

  // One request per route before timing: statement counts, and the baseline's SQL must be the route's.
  const measured: Measured[] = [];
  for (const path of benchPaths(seeded)) {
    const statements = await statementsOf(path);
    const plans = await explainAll(url, statements);
    const seqScans = [...new Set(plans.flatMap((p) => p.seqScans))];
    const m: Measured = { path, statements: statements.length, seqScans, samples: [], baselineSamples: [] };
    console.log(`\n${path.name ?? label(path)}: ${statements.length} SQL statement(s) per request`);
    statements.forEach((s, i) => {
      console.log(`  ${i + 1}. ${short(s)}`);
      if (settings.explain) plans.find((p) => p.statement === s)?.lines.forEach((l) => console.log(`       ${l}`));
    });
    console.log(`  sequential scans: ${seqScans.length ? seqScans.join(', ') : 'none'}`);
    if (path.baseline) {
      const baseline = await statementsOf(path.baseline);
      m.baselineStatements = baseline.length;
      m.sameSql = baseline.length === statements.length && baseline.every((s, i) => s === statements[i]);
      console.log(`  baseline ${label(path.baseline)}: ${baseline.length} SQL statement(s) per request`);
      if (path.sameSql !== false) {
        console.log(`  baseline SQL ${m.sameSql ? 'is identical (same text, same order)' : 'DIFFERS:'}`);
        if (!m.sameSql) baseline.forEach((s, i) => console.log(`  ${i + 1}. ${short(s)}`));
      }
    }
    measured.push(m);
  }

  // Every run of a round; each round alternates the order so neither side always runs first.
  const runs = measured.flatMap((m) => [
    { req: m.path as BenchRequest, into: m.samples },
    ...(m.path.baseline ? [{ req: m.path.baseline, into: m.baselineSamples }] : []),
  ]);
  const options: LoadOptions = { seconds: settings.seconds, connections: settings.connections, workers: settings.workers };
  if (settings.warmup > 0) {
    console.log(`\nwarm-up (${settings.warmup} s per route)`);
    for (const run of runs) await load(origin, run.req, token, { ...options, seconds: settings.warmup });
  }
  for (let round = 0; round < settings.rounds; round++) {
    console.log(`round ${round + 1}/${settings.rounds}`);
    for (const run of round % 2 === 0 ? runs : [...runs].reverse()) {
      const sample = await load(origin, run.req, token, options);
      run.into.push(sample);
      console.log(`  ${label(run.req).padEnd(60)} ${fmt(sample.rps).padStart(7)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms`);
    }
  }

  const mb = (n: number) => `${fmt(n / 2 ** 20, 1)} MiB`;
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

  const transfer = await transferTimings(origin, token, seeded.event.id);
  const transferRows = (['export', 'import'] as const).map((what) => {
    const m = transfer[what];
    return { what, seconds: m.seconds, growth: m.rssPeak - m.rssBefore };
  });
  console.log(`\nexport and import of the event (${fmt(seeded.event.sessions)} sessions, ${fmt(seeded.event.speakers)} speakers; archive ${mb(transfer.archiveBytes)})`);
  for (const r of transferRows) console.log(`  ${r.what}: ${fmt(r.seconds, 1)} s from request to SUCCESS, resident memory growth ${mb(r.growth)}`);

  // The report.
  const rows: string[][] = [];
  const checks: { issue: number; text: string; pass: boolean }[] = [
    {
      issue: 5,
      text: `upload of ${mb(upload.bytes)}: memory growth ${fmt(growth, 3)} × the file <= ${UPLOAD_MAX_GROWTH}`,
      pass: growth <= UPLOAD_MAX_GROWTH,
    },
    ...transferRows.flatMap((r) => [
      { issue: 6, text: `${r.what} of the event: ${fmt(r.seconds, 1)} s <= ${TRANSFER_MAX_SECONDS} s`, pass: r.seconds <= TRANSFER_MAX_SECONDS },
      { issue: 6, text: `${r.what} of the event: memory growth ${mb(r.growth)} < ${mb(TRANSFER_MAX_GROWTH)}`, pass: r.growth < TRANSFER_MAX_GROWTH },
    ]),
  ];
  for (const m of measured) {
    const name = m.path.name ?? label(m.path);
    const rps = median(m.samples.map((s) => s.rps));
    const baseRps = m.baselineSamples.length ? median(m.baselineSamples.map((s) => s.rps)) : undefined;
    const ratio = baseRps ? rps / baseRps : undefined;
    rows.push([
      name,
      fmt(rps),
      `${fmt(median(m.samples.map((s) => s.p50)), 1)} ms`,
      `${fmt(median(m.samples.map((s) => s.p99)), 1)} ms`,
      baseRps === undefined ? '-' : fmt(baseRps),
      baseRps === undefined ? '-' : `${fmt(median(m.baselineSamples.map((s) => s.p99)), 1)} ms`,
      ratio === undefined ? '-' : fmt(ratio, 2),
      String(m.statements),
    ]);
    const { minRatio, maxStatements, minRps, noSeqScans, smallTables = [] } = m.path.targets;
    if (minRatio !== undefined) {
      checks.push({ issue: m.path.issue, text: `${name}: ratio ${ratio === undefined ? 'n/a' : fmt(ratio, 2)} >= ${minRatio}`, pass: ratio !== undefined && ratio >= minRatio });
    }
    if (maxStatements !== undefined) {
      checks.push({ issue: m.path.issue, text: `${name}: SQL statements per request ${m.statements} <= ${maxStatements}`, pass: m.statements <= maxStatements });
    }
    if (minRps !== undefined) {
      checks.push({ issue: m.path.issue, text: `${name}: ${fmt(rps)} req/s >= ${fmt(minRps)}`, pass: rps >= minRps });
    }
    if (noSeqScans) {
      const scans = m.seqScans.filter((table) => !smallTables.includes(table));
      const allowed = smallTables.length ? ` besides the small ${smallTables.join(', ')}` : '';
      checks.push({ issue: m.path.issue, text: `${name}: no sequential scans${allowed} (${scans.join(', ') || 'none'})`, pass: scans.length === 0 });
    }
    if (m.path.baseline && m.path.sameSql !== false) {
      checks.push({ issue: m.path.issue, text: `${name}: baseline runs the same SQL`, pass: m.sameSql === true });
    }
  }
  console.log(`\nmedians of ${settings.rounds} rounds × ${settings.seconds} s, ${settings.connections} connections (${new Date().toISOString()})\n`);
  console.log(table(['path', 'req/s', 'p50', 'p99', 'baseline req/s', 'baseline p99', 'ratio', 'SQL/req'], rows));
  console.log('\ntargets');
  for (const c of checks) console.log(`  ${c.pass ? 'PASS' : 'FAIL'}  issue ${c.issue}: ${c.text}`);
  const failed = checks.filter((c) => !c.pass).length;
  console.log(failed ? `\n${failed} target(s) failed` : '\nall targets met');
  return failed ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  console.error(err);
} finally {
  await cleanup();
}
process.exit(code);

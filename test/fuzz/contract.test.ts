/**
 * Contract fuzzing: for every operation of openapi/openapi.json, valid requests generated from its
 * schemas (naming existing records, mostly as super admin) and broken variants of them (one defect
 * each: see mutations.ts). Every answer must be below 500, conform to the document (status, media type,
 * body schema), and a refused request (4xx) must write nothing (no `oe_change` notification).
 *
 * A fixed seed in `make test`; `make fuzz` runs longer with a random seed (FUZZ_RUNS requests per
 * operation, FUZZ_SEED to replay a run). A failure prints the shrunk request and the seed.
 */
import fc from 'fast-check';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { conformanceErrors } from '../helpers/conformance.js';
import { applyDefect, defectArbitrary } from './mutations.js';
import { nameOf, operationAt, operations, type Operation } from './operations.js';
import { render, validRequest, type FuzzRequest } from './requests.js';
import { buildFuzzWorld } from './world.js';
import { watchWrites } from './writes.js';

const RUNS = Number(process.env.FUZZ_RUNS || 10);
const SEED =
  process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED || 20240610);
t.comment(`fuzz: seed ${SEED}, ${RUNS} requests per operation (replay: make fuzz FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`);
// About 2,400 requests at the default: under a minute on an idle 2-core machine, several times that beside
// other test files on a noisy one; the timeout grows with FUZZ_RUNS.
t.setTimeout(120_000 + RUNS * 40_000);

// Limits far above what the fuzzer sends: a 429 would hide the answers behind it.
const { app, url } = await buildTestApp(
  t,
  {
    LOGIN_MAX_FAILURES: '1000000',
    LOGIN_MAX_FAILURES_PER_IP: '1000000',
    MAIL_RATE_PER_RECIPIENT: '1000000',
    MAIL_RATE_PER_IP: '1000000',
    SIGNUP_RATE_PER_IP: '1000000',
    SIGNUP_RATE_PER_DOMAIN: '1000000',
    APPGEN_RATE_PER_EMAIL: '1000000',
    APPGEN_RATE_PER_IP: '1000000',
    // The property checks each answer against the contract itself and reports the smallest request once;
    // the hook of every test app would fail the run again at every shrinking step.
  },
  { contract: false },
);
const fw = await buildFuzzWorld(app);
const tokens = { 'super-admin': fw.superAdmin.token, user: fw.user.token };
const writes = await watchWrites(url);
t.teardown(() => writes.close());

await t.test('the write watcher sees a committed write, and only once', async (t) => {
  await writes.settle();
  await app.sql`update pages set index = index where false`;
  t.same(await writes.settle(), ['pages'], 'a statement on pages (even one changing no row) notifies pages');
  t.same(await writes.settle(), [], 'nothing is left over for the next request');
});

/** Requests that reached each operation. */
const reached = new Map<string, number>();
const started = Date.now();
let sent = 0;

/** What is wrong with the answer to `req`; empty when nothing is. */
async function problemsOf(req: FuzzRequest): Promise<string[]> {
  const options = render(req, tokens);
  const res = await app.inject(options);
  sent++;
  // Fenced: whatever this request committed has arrived, and nothing of the previous one is left over.
  const changed = await writes.settle();
  const problems: string[] = [];
  const op = operationAt(options.method, options.url);
  if (op) reached.set(nameOf(op), (reached.get(nameOf(op)) ?? 0) + 1);
  if (res.statusCode >= 500) problems.push(`answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  const contentType = res.headers['content-type'];
  if (op) {
    problems.push(
      ...conformanceErrors({
        method: options.method,
        route: op.route,
        status: res.statusCode,
        contentType: typeof contentType === 'string' ? contentType : undefined,
        body: res.body,
      }),
    );
  } else if (res.statusCode < 400) problems.push(`answered ${res.statusCode} to a URL no operation has`);
  if (res.statusCode >= 400 && res.statusCode < 500 && changed.length > 0)
    problems.push(`refused with ${res.statusCode} but wrote ${changed.join(', ')}`);
  return problems;
}

const requestsFor = (op: Operation) => {
  const valid = validRequest(op, fw);
  return fc.oneof(
    { weight: 1, arbitrary: valid },
    { weight: 2, arbitrary: fc.tuple(valid, defectArbitrary).map(([r, d]) => applyDefect(r, d)) },
  );
};

/** Runs the property of one operation; answers fast-check's report of the shrunk counterexample, if any. */
async function fuzz(op: Operation, index: number): Promise<string | undefined> {
  const property = fc.asyncProperty(requestsFor(op), async (req) => {
    const problems = await problemsOf(req);
    if (problems.length > 0) throw new Error(problems.join('\n'));
  });
  const details = await fc.check(property, { seed: SEED + index, numRuns: RUNS });
  if (!details.failed) return undefined;
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `${fc.defaultReportMessage(details)}\n${error}`;
}

// Deletions last, so that the other operations find their records; the event and the users (whose
// deletion takes the most with them) at the very end.
const rank = (op: Operation) =>
  op.method !== 'DELETE'
    ? 0
    : /relationships/.test(op.path)
      ? 1
      : /^\/v1\/(events|users)\/\{id\}$/.test(op.path)
        ? 3
        : 2;
const ordered = operations.map((op, index) => ({ op, index })).sort((a, b) => rank(a.op) - rank(b.op));
// The event service last: its deletions end the run.
const faces: [string, RegExp][] = [
  ['the assistant (/aaa, /cms, /data, /susi)', /^\/(aaa|cms|data|susi)\//],
  ['the app generator (/api/api.php, /api/v2, the v2 form at /)', /^\/(api\/|$)/],
  ['authentication and stored files', /^\/(auth|static)\//],
  ['the probes and metrics (/healthz, /readyz, /metrics)', /^\/(healthz|readyz|metrics)$/],
  ['the event service (/v1)', /^\/v1\//],
];

for (const [face, pattern] of faces) {
  await t.test(`every answer of ${face} is below 500, in the contract, and refusals write nothing`, async (t) => {
    for (const { op, index } of ordered.filter(({ op }) => pattern.test(op.path))) {
      const failure = await fuzz(op, index).catch((err: Error) => `the fuzzer failed: ${err.stack}`);
      if (failure) t.fail(`${nameOf(op)}\n${failure}`);
      else t.pass(`${nameOf(op)}: ${RUNS} requests`);
    }
  });
}

t.test('every operation of the document was reached', async (t) => {
  t.comment(`${sent} requests in ${Math.round((Date.now() - started) / 1000)} s`);
  t.same(
    operations.map(nameOf).filter((name) => !reached.has(name)),
    [],
    'operations no request reached',
  );
  t.equal(
    faces.reduce((n, [, pattern]) => n + operations.filter((op) => pattern.test(op.path)).length, 0),
    operations.length,
    'every operation is in a face',
  );
});

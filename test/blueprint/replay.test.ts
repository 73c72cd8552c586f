/**
 * open-event-server's API Blueprint (../shared/reference/open-event-server-blueprint.apib, which its CI replays
 * with Dredd) replayed against our service: every transaction's example request, its ids rewritten to a world
 * seeded through the API, authenticated as the administrator as the reference's Dredd hooks do, must get the
 * example's status and members (compare.ts says which). Prints one line per transaction and the count passing.
 *
 * Transactions waiting for a later issue (expectations.ts WAITING) and those we answer differently on purpose
 * (DIFFERENT_ON_PURPOSE, docs/blueprint.md) are reported apart. Every other transaction must pass. Issue 40, point 2.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RouteOptions } from 'fastify';
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { conformanceErrors } from '../helpers/conformance.js';
import { parseBlueprint } from './apib.js';
import { DIFFERENT_ON_PURPOSE, WAITING, WAITING_MEMBERS, waitingFor } from './expectations.js';
import { DOC, renderTables } from './doc.js';
import { type Cause, type Outcome, replay } from './replay.js';
import { BlueprintWorld } from './world.js';

const checkout = dirname(realpathSync(join(import.meta.dirname, '../../package.json')));
const SOURCE = join(checkout, '../shared/reference/open-event-server-blueprint.apib');
const TOTAL = 373;

t.test('the reference API Blueprint, replayed', async (t) => {
  if (!existsSync(SOURCE)) return t.fail(`the blueprint is missing: ${SOURCE} (shared/reference beside the checkout)`);
  const transactions = parseBlueprint(readFileSync(SOURCE, 'utf8'));
  t.equal(transactions.length, TOTAL, `the blueprint holds ${TOTAL} transactions, as Dredd counts them`);
  t.equal(new Set(transactions.map((tx) => tx.name)).size, transactions.length, 'transaction names are unique');

  // Answers outside our OpenAPI contract are reported per transaction instead of failing the file (an
  // example may rightly provoke what the contract leaves out); `current` collects them.
  let current: string[] = [];
  let checked = 0;
  const onRoute = (route: RouteOptions) => {
    const check = async (request: any, reply: any, payload: unknown) => {
      checked++;
      const contentType = reply.getHeader('content-type');
      current.push(
        ...conformanceErrors({
          method: request.method,
          route: request.routeOptions.url,
          status: reply.statusCode,
          contentType: typeof contentType === 'string' ? contentType : undefined,
          body: typeof payload === 'string' ? payload : undefined,
        }),
      );
      return payload;
    };
    route.onSend = [...[route.onSend ?? []].flat(), check] as RouteOptions['onSend'];
  };
  // Workers too (ROLE=all): the mails whose links some examples use, and the export task one reads, are theirs.
  // The examples' media URLs (http://example.com/example.png) cannot be reached from here: the export gives up on
  // each after a second instead of twenty.
  const { app } = await buildTestApp(t, { ROLE: 'all', FETCH_TIMEOUT_SECONDS: '1' }, { contract: false, onRoute });
  const world = await BlueprintWorld.build(app);

  const different = new Map(DIFFERENT_ON_PURPOSE.map((d) => [d.transaction, d]));
  const results: { name: string; outcome: Outcome; scope: 'in' | 'waiting' | 'different' }[] = [];
  const undeclared: string[] = [];
  const lines: string[] = [];
  for (const tx of transactions) {
    current = [];
    const outcome = await replay(app, world, tx);
    undeclared.push(...current.map((c) => `${tx.name}: ${c.slice(0, 240)}`));
    const rule = waitingFor(tx.method, tx.uri);
    const later = rule ?? (outcome.waitingOn ? { resource: `the member ${outcome.waitingOn}`, issue: '' } : undefined);
    const purpose = different.get(tx.name);
    const ours = outcome.status === undefined ? 'no answer' : `ours ${outcome.status}`;
    const notes =
      (outcome.waitingMembers.length ? ` [members waiting: ${outcome.waitingMembers.join(', ')}]` : '') +
      (outcome.known.length ? ` [known differences: ${outcome.known.join(', ')}]` : '');
    if (later) {
      results.push({ name: tx.name, outcome, scope: 'waiting' });
      const state = outcome.cause ? `${ours}, the example's ${tx.response.status}` : 'passes already';
      lines.push(`WAITING ${later.resource}${later.issue ? ` (issue ${later.issue})` : ''}: ${tx.name} (${state})`);
    } else if (purpose) {
      results.push({ name: tx.name, outcome, scope: 'different' });
      const ok = outcome.status === purpose.status;
      lines.push(
        `DIFFERENT ON PURPOSE docs/blueprint.md#different-on-purpose: ${tx.name} (${ours}${ok ? '' : `, documented ${purpose.status}: FAIL`})`,
      );
      t.equal(outcome.status, purpose.status, `${tx.name}: answered as docs/blueprint.md says`);
    } else {
      results.push({ name: tx.name, outcome, scope: 'in' });
      lines.push(outcome.cause ? `FAIL ${tx.name}: ${outcome.why}` : `PASS ${tx.name}${notes}`);
    }
  }
  for (const line of lines) t.comment(line);

  const inScope = results.filter((r) => r.scope === 'in');
  const passing = inScope.filter((r) => !r.outcome.cause).map((r) => r.name);
  const waiting = results.filter((r) => r.scope === 'waiting');
  t.comment(
    `${results.filter((r) => !r.outcome.cause).length} of ${results.length} transactions pass as their example; in this issue's scope ` +
      `${passing.length} of ${inScope.length} (waiting for issues 43-44: ${waiting.length}, of which ` +
      `${waiting.filter((r) => !r.outcome.cause).length} pass already; different on purpose: ${different.size})`,
  );
  const causes: Cause[] = ['status mismatch', 'missing member', 'error'];
  for (const cause of causes) {
    const failing = inScope.filter((r) => r.outcome.cause === cause);
    if (!failing.length) continue;
    t.comment(`failing by ${cause} (${failing.length}):`);
    for (const r of failing)
      t.comment(`  ${r.name}: ${r.outcome.request?.method} ${r.outcome.request?.url ?? ''} -> ${r.outcome.why}`);
  }
  t.comment(`${checked} answers checked against openapi/openapi.json, ${undeclared.length} outside it`);
  for (const u of undeclared) t.comment(`  ${u}`);

  const names = new Set(transactions.map((tx) => tx.name));
  for (const r of inScope.filter((r) => r.outcome.cause)) t.fail(`${r.name}: ${r.outcome.why}`);
  t.equal(passing.length, inScope.length, 'every transaction neither waiting nor different on purpose passes');

  for (const d of DIFFERENT_ON_PURPOSE)
    t.ok(names.has(d.transaction), `DIFFERENT_ON_PURPOSE names a transaction of the blueprint: ${d.transaction}`);
  for (const rule of WAITING)
    t.ok(
      transactions.some((tx) => rule.match.test(`${tx.method} ${tx.uri}`)),
      `the waiting rule for ${rule.resource} matches a transaction`,
    );
  const membersSeen = new Set(
    results.flatMap((r) => [
      ...r.outcome.waitingMembers.map((m) => /\.([^.\s]+) \(issue/.exec(m)?.[1]),
      r.outcome.waitingOn?.split(' ')[1],
    ]),
  );
  for (const m of WAITING_MEMBERS)
    t.ok(membersSeen.has(m.member), `the waiting member ${m.type} ${m.member} is one an example shows and we lack`);
  const doc = join(checkout, DOC);
  t.ok(
    existsSync(doc) && readFileSync(doc, 'utf8').includes(renderTables(transactions)),
    `${DOC} holds the tables of expectations.ts (npx tsx test/blueprint/write-doc.ts)`,
  );
});

/**
 * What a read returns of a record to the policy's `read` (src/jsonapi/read.ts, `rowFor`): the whole row
 * when the rule is declared with its row parameter, else the id alone, and then reading any other
 * member fails the request (a rule that reads the row without declaring it fails closed, never
 * sees `undefined` and lets the read through).
 */
import t, { type Test } from 'tap';
import type { Policy, Row } from '../../src/jsonapi/index.js';
import { buildTestApp, call } from '../helpers/app.js';
import { fixtureResources, seedSql, setupSql, tagResource } from './fixtures.js';

/** The fixtures with the tags' `read` replaced. */
async function appWith(t: Test, read: Policy['read']) {
  const tags = { ...tagResource, policy: { ...tagResource.policy, read } };
  const resources = fixtureResources.map((r) => (r === tagResource ? tags : r));
  return (await buildTestApp(t, {}, { resources, setupSql: setupSql + seedSql })).app;
}

t.test('a rule declared with the row gets the whole row', async (t) => {
  const seen: unknown[] = [];
  const app = await appWith(t, (_ctx, row: Row) => void seen.push(row.label));
  const res = await call(app, { url: '/v1/tags/1' });
  t.equal(res.status, 200);
  t.strictSame(seen, ['news'], 'the rule read the label');
});

t.test('a rule declared without the row that reads it anyway fails the request', async (t) => {
  // Declared with one parameter (what the engine looks at), reading the row through `arguments`.
  const app = await appWith(t, function (this: unknown) {
    // biome-ignore lint/complexity/noArguments: the row is the argument the declared signature leaves out
    if ((arguments[1] as Row).label === 'secret') throw new Error('unreachable');
  } as unknown as Policy['read']);
  const res = await call(app, { url: '/v1/tags/1' });
  t.equal(res.status, 500, 'not 200: the label was not read, and reading it throws');
});

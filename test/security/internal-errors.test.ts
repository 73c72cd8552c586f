/**
 * An unexpected failure (here: a table or column the route reads renamed under the running app) is a
 * 500 in the face's own shape that says nothing of the cause: no stack, no SQL, no table or column
 * name, unlike the reference assistant's Jetty pages. Once the schema is put back, the same request
 * succeeds, so each 500 came from the breakage alone.
 */
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { seedUser } from '../helpers/users.js';

// A 500 is a bug, which the contract does not describe: this file provokes them on purpose.
const { app } = await buildTestApp(t, {}, { contract: false });
const admin = await seedUser(app, { admin: true });
const user = await seedUser(app);

/** Nothing of the cause in the raw body: no stack frame, file, SQL, driver or schema name. */
function revealsNothing(t: Test, body: string, names: string[]) {
  for (const leak of [
    /\bat .+:\d+/,
    /\.ts\b|\.js\b|node_modules/,
    /\b(select|insert|update|from|where)\b/i,
    /relation|column|does not exist|postgres|drizzle|42P01|42703/i,
    ...names.map((n) => new RegExp(n, 'i')),
  ]) {
    t.notMatch(body, leak, `the body does not match ${leak}`);
  }
}

/** Runs `probe` with `broken` applied to the database, then again with `repaired`; answers both results. */
async function whileBroken<T>(
  on: FastifyInstance,
  broken: string,
  repaired: string,
  probe: () => Promise<T>,
): Promise<[T, T]> {
  await on.sql.unsafe(broken);
  let during: T;
  try {
    during = await probe();
  } finally {
    await on.sql.unsafe(repaired);
  }
  return [during, await probe()];
}

t.test('/v1: a JSON:API error document 500 with a generic detail', async (t) => {
  const [list, listAgain] = await whileBroken(
    app,
    'alter table event_topics rename to event_topics_moved',
    'alter table event_topics_moved rename to event_topics',
    () => call(app, { url: '/v1/event-topics' }),
  );
  const error = assertError(t, list, 500, undefined, 'The server could not complete the request');
  t.equal(error?.title, 'Unknown error');
  revealsNothing(t, JSON.stringify(list.body), ['event_topics', 'event_topics_moved']);
  t.equal(listAgain.status, 200, 'the list answers once the table is back');

  const body = { data: { type: 'event-topic', attributes: { name: 'Robotics' } } };
  const [created, createdAgain] = await whileBroken(
    app,
    'alter table event_topics rename column name to name_moved',
    'alter table event_topics rename column name_moved to name',
    () => call(app, { method: 'POST', url: '/v1/event-topics', token: admin.token, body }),
  );
  assertError(t, created, 500, undefined, 'The server could not complete the request');
  revealsNothing(t, JSON.stringify(created.body), ['event_topics', 'name_moved']);
  t.equal(createdAgain.status, 201, 'the create succeeds once the column is back');
});

t.test('assistant: {"accepted":false,"message":"The server could not complete the request"}', async (t) => {
  const expectGeneric = (t: Test, res: Awaited<ReturnType<FastifyInstance['inject']>>, names: string[]) => {
    t.equal(res.statusCode, 500);
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    t.strictSame(res.json(), { accepted: false, message: 'The server could not complete the request' });
    revealsNothing(t, res.body, names);
  };
  // A skill to list: the metrics then read its row.
  const made = await app.inject({
    method: 'GET',
    url: `/cms/modifySkill.json?${new URLSearchParams({ skill: 'listed', content: 'a\nb', changelog: 'Add', access_token: user.token })}`,
  });
  t.equal(made.json().accepted, true, 'a skill to list');
  const [metrics, metricsAgain] = await whileBroken(
    app,
    'alter table skills rename to skills_moved',
    'alter table skills_moved rename to skills',
    () => app.inject({ method: 'GET', url: '/cms/getSkillMetricsData.json' }),
  );
  expectGeneric(t, metrics, ['skills_moved']);
  t.equal(metricsAgain.statusCode, 200, 'the metrics answer once the table is back');

  const store = () =>
    app.inject({
      method: 'POST',
      url: '/aaa/storePersonalInfo.json',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ access_token: user.token, storeName: 'city', value: 'Berlin' }).toString(),
    });
  const [stored, storedAgain] = await whileBroken(
    app,
    'alter table users rename column stores to stores_moved',
    'alter table users rename column stores_moved to stores',
    store,
  );
  expectGeneric(t, stored, ['stores', 'users']);
  t.equal(storedAgain.json().accepted, true, 'the store succeeds once the column is back');
});

t.test('app generator: {"status":"error","code":500,"message":"Internal Server Error"}', async (t) => {
  const build = () =>
    app.inject({
      method: 'POST',
      url: '/api/api.php',
      headers: { 'content-type': 'application/json' },
      payload: { email: 'builder@example.org', app_name: 'Summit', endpoint: 'https://api.example.org/v1/events/1' },
    });
  const [failed, again] = await whileBroken(
    app,
    'alter table tasks rename to tasks_moved',
    'alter table tasks_moved rename to tasks',
    build,
  );
  t.equal(failed.statusCode, 500);
  t.match(failed.headers['content-type'], /^application\/json/);
  t.strictSame(failed.json(), { status: 'error', code: 500, message: 'Internal Server Error' });
  revealsNothing(t, failed.body, ['tasks', 'tasks_moved']);
  t.equal(again.statusCode, 202, 'the build is accepted once the table is back');
  const [row] = await app.sql<{ n: number }[]>`select count(*)::int as n from tasks where kind = 'app'`;
  t.equal(row!.n, 1, 'only the accepted build was recorded');
});

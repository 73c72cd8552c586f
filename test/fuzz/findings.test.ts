/**
 * What the contract fuzzer (contract.test.ts) found, each as the request that showed it: the answer a
 * client now gets, that it is in the OpenAPI contract, and that nothing was written.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call, JSONAPI } from '../helpers/app.js';
import { conformanceErrors } from '../helpers/conformance.js';
import { buildWorld, create, rel, snapshotOf } from '../helpers/events.js';
import { sellTickets } from '../helpers/orders.js';
import { ticketAttributes } from '../helpers/ticket-bodies.js';
import { multipart } from '../helpers/images.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const admin = await seedUser(app, { superAdmin: true });
const token = admin.token;
const snapshot = snapshotOf(app, ['events', 'event_roles', 'orders', 'mails', 'tasks', 'pages']);
// A completed order, made as buyers make one (the server computes orders: a free ticket through create-order).
const ticketId = await create(app, world.cast.owner.token, 'tickets', 'ticket', ticketAttributes({ quantity: null }), {
  event: rel('event', world.published.event),
});
const order = await sellTickets(app, { buyer: admin, organizerToken: world.cast.owner.token, ticketId });
const before = await snapshot();

/** The answer conforms to the document for the route it reached. */
function inContract(
  t: Test,
  method: string,
  route: string,
  res: { status: number; headers: Record<string, unknown>; body: unknown },
) {
  const body = res.body === undefined ? undefined : JSON.stringify(res.body);
  t.same(
    conformanceErrors({ method, route, status: res.status, contentType: String(res.headers['content-type']), body }),
    [],
    `${method} ${route} ${res.status} is in the contract`,
  );
}

t.test('a NUL in a path id that may be an identifier is 404, not a database error (was 500)', async (t) => {
  for (const [method, url, route] of [
    ['GET', '/v1/events/%00', '/v1/events/:id'],
    ['PATCH', '/v1/events/a%00b', '/v1/events/:id'],
    ['DELETE', '/v1/events/%00', '/v1/events/:id'],
    ['GET', '/v1/events/a%00b/sessions', '/v1/events/:id/sessions'],
    ['POST', '/v1/events/%00/relationships/coorganizers', '/v1/events/:id/relationships/coorganizers'],
    ['GET', '/v1/orders/%00', '/v1/orders/:id'],
  ] as const) {
    const body =
      method === 'PATCH'
        ? { data: { type: 'event', id: world.published.event, attributes: {} } }
        : method === 'POST'
          ? { data: [] }
          : undefined;
    const res = await call(app, { method, url, token, body });
    expectError(t, res, 404, { detail: 'Object not found.' });
    inContract(t, method, route, res);
  }
  const exported = await call(app, {
    method: 'POST',
    url: '/v1/events/%00/export/json',
    token,
    body: {},
    headers: { 'content-type': 'application/json' },
  });
  expectError(t, exported, 404, { detail: 'Event not found' });
  inContract(t, 'POST', '/v1/events/:event_id/export/json', exported);
  t.same(await snapshot(), before, 'nothing written');
});

t.test('a NUL in the order identifier of a receipt is 404, not a database error (was 500)', async (t) => {
  const res = await call(app, {
    method: 'POST',
    url: '/v1/attendees/send-receipt',
    token,
    body: { 'order-identifier': '\u0000' },
    headers: { 'content-type': 'application/json' },
  });
  expectError(t, res, 404, { detail: 'Order not found' });
  inContract(t, 'POST', '/v1/attendees/send-receipt', res);
  t.equal(order.status, 'completed', 'a completed order exists, so only the NUL stands between the request and a mail');
  t.same(await snapshot(), before, 'no mail recorded');
});

t.test('a GET with a body of another media type is 415, as the document now says (was undeclared)', async (t) => {
  for (const [url, route] of [
    ['/v1/users', '/v1/users'],
    [`/v1/events/${world.published.event}/relationships/coorganizers`, '/v1/events/:id/relationships/coorganizers'],
    [`/v1/sessions/${world.published.session}/track`, '/v1/sessions/:id/track'],
  ]) {
    const res = await call(app, { url: url!, token, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expectError(t, res, 415);
    inContract(t, 'GET', route!, res);
  }
});

t.test(
  'a DELETE with a malformed or oversized body is 400 or 413, as the document now says (was undeclared)',
  async (t) => {
    const url = `/v1/pages/999`;
    const malformed = await call(app, {
      method: 'DELETE',
      url,
      token,
      body: '{',
      headers: { 'content-type': JSONAPI },
    });
    expectError(t, malformed, 400);
    inContract(t, 'DELETE', '/v1/pages/:id', malformed);
    const huge = await call(app, {
      method: 'DELETE',
      url,
      token,
      body: `"${'x'.repeat(1_100_000)}"`,
      headers: { 'content-type': JSONAPI },
    });
    expectError(t, huge, 413);
    inContract(t, 'DELETE', '/v1/pages/:id', huge);
    t.same(await snapshot(), before, 'nothing written');
  },
);

t.test(
  'a stored file keeps its own media type, which the document now allows (was application/octet-stream only)',
  async (t) => {
    const form = multipart([['file', 'notes.txt', 'hello']]);
    const stored = await app.inject({
      method: 'POST',
      url: '/v1/upload/file?force_local=true',
      headers: { ...form.headers, authorization: `JWT ${token}` },
      payload: form.payload,
    });
    t.equal(stored.statusCode, 200, 'stored');
    const res = await app.inject({ method: 'GET', url: new URL(stored.json().url).pathname });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /^text\/plain/, 'served as text');
    t.same(
      conformanceErrors({
        method: 'GET',
        route: '/static/media/:path',
        status: 200,
        contentType: res.headers['content-type'] as string,
        body: res.body,
      }),
      [],
      'in the contract',
    );
  },
);

t.test(
  'PATCH /v1/settings/{id} with a bad fields[setting] is refused before it writes (was 400 after the write)',
  async (t) => {
    const settingsBefore = await snapshotOf(app, ['settings'])();
    const res = await call(app, {
      method: 'PATCH',
      url: '/v1/settings/1?fields[setting]=%00',
      token,
      body: { data: { type: 'setting', id: '1', attributes: { 'app-name': 'Changed by a refused request' } } },
    });
    expectError(t, res, 400, { parameter: 'fields[setting]' });
    inContract(t, 'PATCH', '/v1/settings/:id', res);
    t.same(await snapshotOf(app, ['settings'])(), settingsBefore, 'the settings are unchanged');
  },
);

t.test(
  'parameters refused by their schema are 400, declared on every route that has them (was undeclared)',
  async (t) => {
    const long = 'x'.repeat(300);
    for (const [url, route, parameter] of [
      [`/v1/events/${long}/relationships/sessions`, '/v1/events/:id/relationships/sessions', 'id'],
      [`/v1/tasks/${long}`, '/v1/tasks/:task_id', 'task_id'],
      [`/v1/events/${long}/exports/a.zip`, '/v1/events/:event_id/exports/:path', 'event_id'],
    ]) {
      const res = await call(app, { url: url!, token });
      expectError(t, res, 400, { parameter });
      inContract(t, 'GET', route!, res);
    }
    // The same value twice is that value (Android's token interceptor repeats access_token); two values are refused.
    const same = await app.inject({
      method: 'GET',
      url: `/aaa/listSettings.json?access_token=${token}&access_token=${token}`,
    });
    t.equal(same.statusCode, 200, 'the same token twice is the token (of an administrator)');
    const twice = await app.inject({
      method: 'GET',
      url: `/aaa/listSettings.json?access_token=${token}&access_token=other`,
    });
    t.equal(twice.statusCode, 400, 'a parameter given twice with two values');
    t.same(
      conformanceErrors({
        method: 'GET',
        route: '/aaa/listSettings.json',
        status: twice.statusCode,
        contentType: twice.headers['content-type'] as string,
        body: twice.body,
      }),
      [],
      'in the contract',
    );
  },
);

t.test(
  'bodies too large or of another type are 413 and 415 where the document now says so (was undeclared)',
  async (t) => {
    const huge = await call(app, {
      method: 'POST',
      url: `/v1/events/${world.published.event}/export/json`,
      token,
      body: `"${'x'.repeat(1_100_000)}"`,
      headers: { 'content-type': 'application/json' },
    });
    expectError(t, huge, 413);
    inContract(t, 'POST', '/v1/events/:event_id/export/json', huge);
    for (const url of ['/cms/modifySkill.json', '/cms/createSkill.json', '/aaa/changeRoles.json']) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'text/plain', authorization: `JWT ${token}` },
        payload: 'hello',
      });
      t.equal(res.statusCode, 415, `${url}: 415`);
      t.match(res.json(), { accepted: false, message: String }, `${url}: the assistant's refusal`);
      t.same(
        conformanceErrors({
          method: 'POST',
          route: url,
          status: 415,
          contentType: res.headers['content-type'] as string,
          body: res.body,
        }),
        [],
        `${url}: in the contract`,
      );
    }
    t.same(await snapshot(), before, 'nothing written');
  },
);

t.test(
  'the assistant: saving a skill unchanged and a status change naming no flag are accepted, a changelog with a NUL refused (were 500)',
  async (t) => {
    const skill = { model: 'general', group: 'Knowledge', language: 'en', skill: 'unchanged', access_token: token };
    const save = (changelog: string) =>
      app.inject({ method: 'GET', url: '/cms/modifySkill.json', query: { ...skill, content: 'same text', changelog } });
    t.equal((await save('first')).json().accepted, true, 'first save');
    const again = await save('second');
    t.equal(again.statusCode, 200, 'the same text again: 200');
    t.equal(again.json().accepted, true, 'accepted');
    const [row] = await app.sql<
      { staff_pick: boolean; reviewed: boolean; editable: boolean }[]
    >`select staff_pick, reviewed, editable from skills where name = 'unchanged'`;
    const nul = await save('a\u0000b');
    t.equal(nul.statusCode, 400, 'a changelog with a NUL (git takes it as an argument): 400, was 500');
    t.same(nul.json(), { accepted: false, message: 'The changelog must not contain NUL characters' });
    const status = await app.inject({ method: 'GET', url: '/cms/changeSkillStatus.json', query: skill });
    t.equal(status.statusCode, 200, 'no flag: 200');
    t.equal(status.json().accepted, true, 'accepted');
    const [after] = await app.sql`select staff_pick, reviewed, editable from skills where name = 'unchanged'`;
    t.same(after, row, 'the skill status is unchanged');
  },
);

t.test('the assistant refuses NUL characters and broken forms with 4xx (were 500)', async (t) => {
  const usersBefore = await snapshotOf(app, ['users'])();
  const cases: [string, Record<string, string>, number, string][] = [
    ['/aaa/login.json', { login: '\u0000', password: 'x' }, 400, 'Bad login parameters.'],
    [
      '/aaa/storePersonalInfo.json',
      { storeName: '\u0000', value: 'x', access_token: token },
      422,
      'Bad store name encountered!',
    ],
    [
      '/aaa/storePersonalInfo.json',
      { storeName: 'theme', value: 'a\u0000b', access_token: token },
      422,
      'Bad store name value encountered!',
    ],
    ['/aaa/changeRoles.json', { user: '\u0000', role: 'user', access_token: token }, 404, 'Username not found'],
  ];
  for (const [url, query, status, message] of cases) {
    const res = await app.inject({ method: 'GET', url, query });
    t.equal(res.statusCode, status, `${url}: ${status}`);
    t.same(res.json(), { accepted: false, message }, `${url}: ${message}`);
    t.same(
      conformanceErrors({
        method: 'GET',
        route: url,
        status,
        contentType: res.headers['content-type'] as string,
        body: res.body,
      }),
      [],
      `${url}: in the contract`,
    );
  }
  const form = multipart([], { image_name: 'a.png' });
  const broken = await app.inject({
    method: 'POST',
    url: '/cms/createSkill.json',
    headers: { 'content-type': 'multipart/form-data; boundary=another', authorization: `JWT ${token}` },
    payload: form.payload,
  });
  t.equal(broken.statusCode, 400, 'a form whose boundary is not the announced one: 400');
  t.match(broken.json(), { accepted: false, message: /^Malformed multipart body/ });
  t.same(await snapshotOf(app, ['users'])(), usersBefore, 'no account changed');
});

t.test(
  'a skill metrics duration beyond an int is 422, one of more days than ever counted is all usage (was 500)',
  async (t) => {
    const url = '/cms/getSkillMetricsData.json';
    const cases: [string, number][] = [
      ['99999999999999999999', 422],
      ['2147483648', 422],
      ['2147483647', 200],
      ['36501', 200],
    ];
    for (const [duration, status] of cases) {
      const res = await app.inject({ method: 'GET', url, query: { language: 'en', group: 'Knowledge', duration } });
      t.equal(res.statusCode, status, `duration=${duration}: ${status}`);
      if (status === 422) t.same(res.json(), { accepted: false, message: 'Invalid duration value.' });
      inContract(t, 'GET', url, { status: res.statusCode, headers: res.headers, body: res.json() });
    }
  },
);

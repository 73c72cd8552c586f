import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createApiClient, JSONAPI, type ApiClient } from '../../openapi/client/index.js';
import { ensureSuperAdmin } from '../../src/auth/super-admin.js';
import { buildTestApp } from '../helpers/app.js';

const PASSWORD = 'correct horse battery';

/** The service listening on a real port, as a client outside the process sees it. */
async function startServer(t: Test) {
  const { app } = await buildTestApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

/** The headers of every request the client sends, as they leave it. */
function recordHeaders(client: ApiClient) {
  const sent: { method: string; path: string; headers: Headers; hasBody: boolean }[] = [];
  client.use({
    onRequest({ request }) {
      const { pathname } = new URL(request.url);
      sent.push({ method: request.method, path: pathname, headers: request.headers, hasBody: request.body !== null });
    },
  });
  return sent;
}

async function register(client: ApiClient, email: string, firstName: string) {
  const { data, error, response } = await client.POST('/v1/users', {
    body: { data: { type: 'user', attributes: { email, password: PASSWORD, 'first-name': firstName } } },
  });
  if (!data) throw new Error(`register ${email}: ${response.status} ${JSON.stringify(error)}`);
  return { data, response };
}

async function login(client: ApiClient, email: string, password = PASSWORD) {
  const { data, error, response } = await client.POST('/v1/auth/login', { body: { email, password } });
  if (!data) throw new Error(`login ${email}: ${response.status} ${JSON.stringify(error)}`);
  return data.access_token;
}

t.test('a user registers, logs in, reads and changes themself, and may not list users', async (t) => {
  const { baseUrl } = await startServer(t);
  const api = createApiClient(baseUrl);
  const sent = recordHeaders(api);

  const created = await register(api, 'ada@example.com', 'Ada');
  t.equal(created.response.status, 201);
  const id = created.data.data.id;
  t.equal(created.response.headers.get('location'), `/v1/users/${id}`);
  t.equal(created.response.headers.get('content-type'), JSONAPI);
  t.equal(created.data.data.type, 'user');
  t.equal(created.data.data.attributes.email, 'ada@example.com');
  t.equal(created.data.data.attributes['first-name'], 'Ada');
  t.equal(created.data.data.attributes['is-admin'], false);
  t.notOk('password' in created.data.data.attributes, 'the password never comes back');
  t.same(created.data.jsonapi, { version: '1.0' });

  const refused = await api.POST('/v1/auth/login', { body: { email: 'ada@example.com', password: 'wrong password' } });
  t.equal(refused.response.status, 401);
  t.equal(refused.error?.errors[0]?.status, '401', 'a wrong password is a 401 error document');

  api.setToken(await login(api, 'ada@example.com'));

  const me = await api.GET('/v1/users/{id}', { params: { path: { id } } });
  t.equal(me.response.status, 200);
  t.equal(me.data?.data.id, id);
  t.equal(me.data?.data.attributes.email, 'ada@example.com');
  t.equal(me.data?.links?.self, `/v1/users/${id}`);

  const patched = await api.PATCH('/v1/users/{id}', {
    params: { path: { id } },
    body: { data: { type: 'user', id, attributes: { 'first-name': 'Augusta' } } },
  });
  t.equal(patched.response.status, 200);
  t.equal(patched.data?.data.attributes['first-name'], 'Augusta');
  t.equal(patched.data?.data.attributes.email, 'ada@example.com', 'other attributes keep their values');

  const list = await api.GET('/v1/users');
  t.equal(list.response.status, 403);
  t.equal(list.response.headers.get('content-type'), JSONAPI);
  t.equal(list.data, undefined);
  t.equal(list.error?.errors[0]?.status, '403');
  t.equal(list.error?.errors[0]?.title, 'Forbidden');
  t.same(list.error?.jsonapi, { version: '1.0' });

  api.setToken(undefined);
  const anonymous = await api.GET('/v1/users/{id}', { params: { path: { id } } });
  t.equal(anonymous.response.status, 401, 'without the token the client is anonymous again');

  for (const request of sent) {
    const label = `${request.method} ${request.path}`;
    t.equal(request.headers.get('accept'), JSONAPI, `${label} accepts JSON:API`);
    const type = request.path.startsWith('/v1/auth/') ? 'application/json' : JSONAPI;
    t.equal(request.headers.get('content-type'), request.hasBody ? type : null, `${label} content type`);
  }
  t.same(
    sent.map((r) => r.headers.get('authorization')?.replace(/ .*/, ' <token>') ?? null),
    [null, null, null, 'JWT <token>', 'JWT <token>', 'JWT <token>', null],
    'the token is sent after login and until it is cleared',
  );
});

t.test('a super admin lists users with page, sort and filter and changes another user', async (t) => {
  const { app, baseUrl } = await startServer(t);
  const anonymous = createApiClient(baseUrl);
  const ids: Record<string, string> = {};
  for (const name of ['carol', 'alice', 'bob', 'dave']) {
    const firstName = name[0]!.toUpperCase() + name.slice(1);
    ids[name] = (await register(anonymous, `${name}@team.example.com`, firstName)).data.data.id;
  }
  await register(anonymous, 'outsider@elsewhere.example.org', 'Olga');
  await ensureSuperAdmin(app.db, 'root@example.com', 'root password of the test');
  const admin = createApiClient(baseUrl, {
    token: await login(anonymous, 'root@example.com', 'root password of the test'),
  });

  const filter = JSON.stringify([{ name: 'email', op: 'like', val: '%@team.example.com' }]);
  // `page` and `fields` are objects: openapi-fetch sends them as `page[size]=3`, `fields[user]=email,first-name`.
  const page1 = await admin.GET('/v1/users', {
    params: { query: { page: { size: 3 }, sort: 'email', filter, fields: { user: 'email,first-name' } } },
  });
  t.equal(page1.response.status, 200);
  t.equal(page1.data?.meta.count, 4, 'the filter matches the team only');
  t.same(
    page1.data?.data.map((u) => u.attributes.email),
    ['alice@team.example.com', 'bob@team.example.com', 'carol@team.example.com'],
    'sorted by email, three to a page',
  );
  t.same(Object.keys(page1.data?.data[0]?.attributes ?? {}).sort(), ['email', 'first-name'], 'the fieldset only');
  t.ok(page1.data?.links.next, 'there is a next page');
  t.equal(page1.data?.links.prev, null);

  const page2 = await admin.GET('/v1/users', {
    params: { query: { page: { size: 3, number: 2 }, sort: '-first-name', filter } },
  });
  t.same(
    page2.data?.data.map((u) => u.attributes['first-name']),
    ['Alice'],
    'descending first names: Dave, Carol, Bob, then Alice on page 2',
  );
  t.equal(page2.data?.links.next, null);

  const badSort = await admin.GET('/v1/users', { params: { query: { sort: 'no-such-attribute' } } });
  t.equal(badSort.response.status, 400);
  t.equal(badSort.error?.errors[0]?.source?.parameter, 'sort');

  const bob = ids.bob!;
  const promoted = await admin.PATCH('/v1/users/{id}', {
    params: { path: { id: bob } },
    body: { data: { type: 'user', id: bob, attributes: { 'last-name': 'Builder', 'is-admin': true } } },
  });
  t.equal(promoted.response.status, 200);
  t.equal(promoted.data?.data.id, bob);
  t.equal(promoted.data?.data.attributes['last-name'], 'Builder');
  t.equal(promoted.data?.data.attributes['is-admin'], true);
  t.equal(promoted.data?.data.attributes['first-name'], 'Bob');

  const asBob = createApiClient(baseUrl, { token: await login(anonymous, 'bob@team.example.com') });
  const bobsList = await asBob.GET('/v1/users', { params: { query: { page: { size: 100 } } } });
  t.equal(bobsList.response.status, 200, 'the promoted user may now list users');
  t.equal(bobsList.data?.meta.count, 6);
});

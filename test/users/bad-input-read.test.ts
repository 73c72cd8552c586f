/**
 * Bad input to GET /v1/users, GET /v1/users/{id} and DELETE /v1/users/{id}: a 400 (query or path)
 * or 404 (an id no record can have) error document, never a 500, and nothing written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { countUsers, expectError, seedUser } from '../helpers/users.js';

const f = (filter: unknown) =>
  `filter=${encodeURIComponent(typeof filter === 'string' ? filter : JSON.stringify(filter))}`;
const cond = (name: string, op: string, val: unknown) => ({ name, op, val });
const nested = (depth: number): unknown => (depth === 0 ? cond('email', 'eq', 'x') : { not: nested(depth - 1) });

/** [query, the parameter the error names]. */
const LIST: [string, string][] = [
  ['page[size]=-1', 'page[size]'],
  ['page[size]=10001', 'page[size]'],
  ['page[size]=abc', 'page[size]'],
  ['page[size]=1.5', 'page[size]'],
  ['page[size]=1e400', 'page[size]'],
  ['page[size]=1&page[size]=2', 'page[size]'],
  ['page[number]=0', 'page[number]'],
  ['page[number]=x', 'page[number]'],
  ['page[number]=99999999999', 'page[number]'],
  ['sort=nope', 'sort'],
  ['sort=--email', 'sort'],
  ['sort=', 'sort'],
  ['sort=email,,name', 'sort'],
  ['sort=id,email,name,first-name,last-name,contact', 'sort'],
  ['sort=email&sort=name', 'sort'],
  [`sort=${'a'.repeat(501)}`, 'sort'],
  ['sort=email;drop table users', 'sort'],
  [f('not json'), 'filter'],
  [f('{"name":"email","op":"eq","val":"x"'), 'filter'],
  [f('null'), 'filter'],
  [f('42'), 'filter'],
  [f([cond('nope', 'eq', 'x')]), 'filter'],
  [f([cond('email', 'regex', '.*')]), 'filter'],
  [f([cond('email', 'eq', { $ne: 1 })]), 'filter'],
  [f([cond('is-admin', 'eq', 'maybe')]), 'filter'],
  [f([cond('created-at', 'gt', 'yesterday')]), 'filter'],
  [f([cond('id', 'eq', '1 or 1=1')]), 'filter'],
  [f([cond('id', 'eq', 99999999999)]), 'filter'],
  [f([cond('email', 'in', 'not a list')]), 'filter'],
  [f([cond('email', 'eq', 'x'.repeat(1001))]), 'filter'],
  [f([cond('email', 'eq', 'a\u0000b')]), 'filter'],
  [f([cond('email', 'in', ['a', 'b\u0000'])]), 'filter'],
  [f([{ and: {} }]), 'filter'],
  [f([{ or: 'x' }]), 'filter'],
  [f([{ name: 'email', op: 'eq', val: 'x', extra: 1 }]), 'filter'],
  [f([nested(50)]), 'filter'],
  [f(Array.from({ length: 101 }, () => cond('email', 'eq', 'x'))), 'filter'],
  [f(`[${'x'.repeat(10_001)}]`), 'filter'],
  ['filter[email]=x', 'filter[email]'],
  ['include=bogus', 'include'],
  ['include=', 'include'],
  [`include=${Array.from({ length: 11 }, () => 'a').join(',')}`, 'include'],
  ['fields[user]=nope', 'fields[user]'],
  ['fields[user]=email&fields[user]=name', 'fields[user]'],
  ['fields[widget]=name', 'fields[widget]'],
  ['foo=bar', 'foo'],
];

const IDS = ['abc', '-1', '0', '1.5', '99999999999', '2147483648', '0x10', '1e3', '%20', 'null', '%00'];

t.test('bad input', async (t) => {
  const { app } = await buildTestApp(t);
  const admin = await seedUser(app, { admin: true });
  const user = await seedUser(app);
  const snapshot = async () => app.sql`select * from users order by id`;
  const before = await snapshot();

  t.test('GET /v1/users', async (t) => {
    for (const [query, parameter] of LIST) {
      const res = await call(app, { url: `/v1/users?${query}`, token: admin.token });
      expectError(t, res, 400, { parameter });
    }
    t.equal(await countUsers(app), 2);
  });

  t.test('GET /v1/users with injection-shaped values answers normally', async (t) => {
    for (const val of ["' or 1=1 --", '%', "x'); drop table users; --", '\\', '"']) {
      const res = await call(app, { url: `/v1/users?${f([cond('email', 'eq', val)])}`, token: admin.token });
      t.equal(res.status, 200, `eq ${JSON.stringify(val)}`);
      t.same(res.body.meta, { count: 0 });
    }
    const wildcard = await call(app, { url: `/v1/users?${f([cond('email', 'like', '%')])}`, token: admin.token });
    t.same(wildcard.body.meta, { count: 2 }, 'like % matches everyone, nothing more');
  });

  t.test('GET /v1/users/{id}', async (t) => {
    for (const id of IDS) {
      expectError(t, await call(app, { url: `/v1/users/${id}`, token: admin.token }), 404, {
        detail: 'Object not found.',
      });
    }
    expectError(t, await call(app, { url: `/v1/users/${'1'.repeat(65)}`, token: admin.token }), 400, {
      parameter: 'id',
    });
    for (const [query, parameter] of [
      ['include=password', 'include'],
      ['fields[user]=password', 'fields[user]'],
      ['page[size]=10', 'page[size]'],
      ['sort=email', 'sort'],
      [f([cond('email', 'eq', 'x')]), 'filter'],
    ]) {
      expectError(t, await call(app, { url: `/v1/users/${user.id}?${query}`, token: user.token }), 400, { parameter });
    }
  });

  t.test('DELETE /v1/users/{id}', async (t) => {
    for (const id of IDS) {
      const res = await call(app, { method: 'DELETE', url: `/v1/users/${id}`, token: admin.token });
      expectError(t, res, 404, { detail: 'Object not found.' });
    }
    expectError(t, await call(app, { method: 'DELETE', url: `/v1/users/${'7'.repeat(65)}`, token: admin.token }), 400, {
      parameter: 'id',
    });
    const withBody = await call(app, {
      method: 'DELETE',
      url: `/v1/users/${user.id}`,
      token: user.token,
      body: 'not json',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(t, withBody, 415);
    const malformed = await call(app, {
      method: 'DELETE',
      url: `/v1/users/${user.id}`,
      token: user.token,
      body: '{"data":',
    });
    expectError(t, malformed, 400);
    const onCollection = await call(app, { method: 'DELETE', url: '/v1/users', token: admin.token });
    expectError(t, onCollection, 405);
    t.match(onCollection.headers.allow, /GET/);
  });

  t.test('nothing was written', async (t) => {
    t.same(await snapshot(), before);
  });
});

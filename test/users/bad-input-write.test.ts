/**
 * Bad input to POST and PATCH /v1/users: each a 4xx error document with a fitting status, never a
 * 500, and nothing written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { countUsers, expectError, seedUser } from '../helpers/users.js';

const MB = 1024 * 1024;
const valid = { email: 'valid@example.com', password: 'long enough' };
const doc = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: 'user', attributes, ...extra },
});

/** [what, body (a string is sent as is), status, pointer when one is expected]. */
type Case = [string, unknown, number, string?];

// Sent as is, so it lacks what create and update each require first.
const DEEPLY_NESTED = `{"data":{"type":"user","attributes":{"name":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;

const COMMON: Case[] = [
  ['malformed JSON', '{"data": {"type": "user",', 400],
  ['trailing garbage', '{"data": {}} x', 400],
  ['a JSON string', '"user"', 422, ''],
  ['a JSON array', '[]', 422, ''],
  ['null', 'null', 422, ''],
  ['no data', {}, 422, '/data'],
  ['data is an array', { data: [] }, 422, '/data'],
  ['attributes is a string', { data: { type: 'user', attributes: 'x' } }, 422, '/data/attributes'],
  ['__proto__ member', '{"data":{"type":"user","attributes":{"__proto__":{"is-admin":true}}}}', 400],
  [
    'constructor.prototype member',
    '{"data":{"type":"user","attributes":{"constructor":{"prototype":{"is-admin":true}}}}}',
    400,
  ],
  ['email is a number', doc({ ...valid, email: 42 }), 422, '/data/attributes/email'],
  ['password is a boolean', doc({ ...valid, password: true }), 422, '/data/attributes/password'],
  ['name is an object', doc({ ...valid, name: { first: 'x' } }), 422, '/data/attributes/name'],
  ['is-admin is a string', doc({ ...valid, 'is-admin': 'false' }), 422, '/data/attributes/is-admin'],
  ['a URL that is not one', doc({ ...valid, 'twitter-url': 'not a url' }), 422, '/data/attributes/twitter-url'],
  ['a javascript: URL', doc({ ...valid, 'facebook-url': 'javascript:alert(1)' }), 422, '/data/attributes/facebook-url'],
  ['unknown attribute', doc({ ...valid, role: 'admin' }), 422, '/data/attributes/role'],
  ['the hash column by name', doc({ ...valid, 'password-hash': 'x' }), 422, '/data/attributes/password-hash'],
  ['a camelCase flag', doc({ ...valid, isAdmin: true }), 422, '/data/attributes/isAdmin'],
  ['unknown relationship', doc(valid, { relationships: { bogus: { data: [] } } }), 422, '/data/relationships/bogus'],
  ['unknown member of data', doc(valid, { meta: {} }), 422, '/data/meta'],
  ['unknown top-level member', { ...doc(valid), included: [] }, 422, '/included'],
  ['name over 255 characters', doc({ ...valid, name: 'n'.repeat(256) }), 422, '/data/attributes/name'],
  [
    'a 10k-character email',
    doc({ ...valid, email: `${'e'.repeat(10_000)}@example.com` }),
    422,
    '/data/attributes/email',
  ],
  ['a 129-character password', doc({ ...valid, password: 'p'.repeat(129) }), 422, '/data/attributes/password'],
  ['details over 10,000 characters', doc({ ...valid, details: 'd'.repeat(10_001) }), 422, '/data/attributes/details'],
  ['a NUL character', doc({ ...valid, name: 'a\u0000b' }), 422, '/data/attributes/name'],
  ['a 1 MB name', doc({ ...valid, name: 'n'.repeat(MB) }), 413],
  // the web front end's profile members (open-event-frontend app/models/user.js)
  [
    'language-prefrence over 35 characters',
    doc({ ...valid, 'language-prefrence': 'l'.repeat(36) }),
    422,
    '/data/attributes/language-prefrence',
  ],
  ['company is a number', doc({ ...valid, company: 7 }), 422, '/data/attributes/company'],
  [
    'billing-phone over 64 characters',
    doc({ ...valid, 'billing-phone': '1'.repeat(65) }),
    422,
    '/data/attributes/billing-phone',
  ],
  [
    'billing-zip-code is an array',
    doc({ ...valid, 'billing-zip-code': ['10001'] }),
    422,
    '/data/attributes/billing-zip-code',
  ],
  [
    'billing-address over 1000 characters',
    doc({ ...valid, 'billing-address': 'a'.repeat(1001) }),
    422,
    '/data/attributes/billing-address',
  ],
  [
    'billing-additional-info over 10,000',
    doc({ ...valid, 'billing-additional-info': 'i'.repeat(10_001) }),
    422,
    '/data/attributes/billing-additional-info',
  ],
  [
    'is-profile-public is null',
    doc({ ...valid, 'is-profile-public': null }),
    422,
    '/data/attributes/is-profile-public',
  ],
  ['is-blocked is a string', doc({ ...valid, 'is-blocked': 'true' }), 422, '/data/attributes/is-blocked'],
  ['is-marketer is a number', doc({ ...valid, 'is-marketer': 1 }), 422, '/data/attributes/is-marketer'],
  [
    'last-accessed-at is not a date',
    doc({ ...valid, 'last-accessed-at': 'yesterday' }),
    422,
    '/data/attributes/last-accessed-at',
  ],
];

const CREATE: Case[] = [
  ...COMMON,
  // The members' schemas are checked before the required ones are missed (create requires beside allOf).
  ['deeply nested JSON', DEEPLY_NESTED, 422, '/data/attributes/name'],
  ['type is missing', { data: { attributes: valid } }, 422, '/data/type'],
  ['type is wrong', { data: { type: 'users', attributes: valid } }, 409, '/data/type'],
  ['attributes missing', { data: { type: 'user' } }, 422, '/data/attributes'],
  ['read-only created-at', doc({ ...valid, 'created-at': '2020-01-01T00:00:00Z' }), 422, '/data/attributes/created-at'],
];

t.test('bad input', async (t) => {
  const { app } = await buildTestApp(t);
  const user = await seedUser(app);
  await app.sql`update users set name = 'Original' where id = ${Number(user.id)}`;
  const rowOf = async () => (await app.sql`select * from users where id = ${Number(user.id)}`)[0];
  const original = await rowOf();

  t.test('POST /v1/users', async (t) => {
    for (const [what, body, status, pointer] of CREATE) {
      const before = await countUsers(app);
      const res = await call(app, { method: 'POST', url: '/v1/users', body });
      expectError(t, res, status, pointer !== undefined ? { pointer } : {});
      t.equal(await countUsers(app), before, `${what}: nothing written`);
    }
  });

  t.test('PATCH /v1/users/{id}', async (t) => {
    const id = user.id;
    const CASES: Case[] = [
      // For PATCH the same bodies apply, with the id the document must carry. A self PATCH carries no
      // password unless the case is about it: users change their own at /v1/auth/change-password (403).
      ...COMMON.map(([what, body, status, pointer]): Case => {
        if (
          typeof body !== 'object' ||
          body === null ||
          !('data' in body) ||
          typeof body.data !== 'object' ||
          Array.isArray(body.data)
        ) {
          return [what, body, status, pointer];
        }
        const data = { ...(body.data as { attributes?: unknown }), id };
        if (
          pointer !== '/data/attributes/password' &&
          typeof data.attributes === 'object' &&
          data.attributes !== null
        ) {
          const { password: _, ...rest } = data.attributes as Record<string, unknown>;
          data.attributes = rest;
        }
        return [what, { ...body, data }, status, pointer];
      }),
      ['deeply nested JSON', DEEPLY_NESTED, 422, '/data/id'],
      ['id is missing', { data: { type: 'user', attributes: { name: 'x' } } }, 422, '/data/id'],
      ['id is a number', { data: { type: 'user', id: Number(id), attributes: { name: 'x' } } }, 422, '/data/id'],
      [
        'id of another user',
        { data: { type: 'user', id: String(Number(id) + 1000), attributes: { name: 'x' } } },
        409,
        '/data/id',
      ],
      ['type is wrong', { data: { type: 'event', id, attributes: { name: 'x' } } }, 409, '/data/type'],
      [
        'password too short',
        { data: { type: 'user', id, attributes: { password: 'short' } } },
        422,
        '/data/attributes/password',
      ],
      ['email set to null', { data: { type: 'user', id, attributes: { email: null } } }, 422, '/data/attributes/email'],
      [
        'read-only deleted-at, changed',
        { data: { type: 'user', id, attributes: { 'deleted-at': '2020-01-01T00:00:00Z' } } },
        422,
        '/data/attributes/deleted-at',
      ],
    ];
    const before = await countUsers(app);
    for (const [what, body, status, pointer] of CASES) {
      const res = await call(app, { method: 'PATCH', url: `/v1/users/${id}`, token: user.token, body });
      expectError(t, res, status, pointer !== undefined ? { pointer } : {});
      t.same(await rowOf(), original, `${what}: the row is unchanged`);
    }
    t.equal(await countUsers(app), before);
  });

  t.test('wrong ids in the PATCH path', async (t) => {
    const admin = await seedUser(app, { admin: true });
    const before = await countUsers(app);
    for (const id of ['abc', '-1', '0', '1.5', '99999999999', '2147483648', '1e3', ' 1', '%00']) {
      const res = await call(app, {
        method: 'PATCH',
        url: `/v1/users/${id}`,
        token: admin.token,
        body: { data: { type: 'user', id: decodeURIComponent(id), attributes: { name: 'x' } } },
      });
      expectError(t, res, 404, { detail: 'Object not found.' });
    }
    const long = '9'.repeat(65);
    const res = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${long}`,
      token: admin.token,
      body: { data: { type: 'user', id: long, attributes: { name: 'x' } } },
    });
    expectError(t, res, 400, { parameter: 'id' });
    t.equal(await countUsers(app), before);
    t.same(await rowOf(), original);
  });

  t.test('media types', async (t) => {
    const before = await countUsers(app);
    const body = JSON.stringify(doc({ email: 'media@example.com', password: 'long enough' }));
    for (const type of [
      'application/json',
      'text/plain',
      'application/vnd.api+json; charset=utf-8',
      'application/vnd.api+json; ext=x',
    ]) {
      const res = await call(app, { method: 'POST', url: '/v1/users', body, headers: { 'content-type': type } });
      expectError(t, res, 415);
    }
    const noBody = await call(app, {
      method: 'POST',
      url: '/v1/users',
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expectError(t, noBody, 400);
    const html = await call(app, { method: 'POST', url: '/v1/users', body, headers: { accept: 'text/html' } });
    expectError(t, html, 406);
    const patch = await call(app, {
      method: 'PATCH',
      url: `/v1/users/${user.id}`,
      token: user.token,
      body: JSON.stringify({ data: { type: 'user', id: user.id, attributes: { name: 'x' } } }),
      headers: { 'content-type': 'application/json' },
    });
    expectError(t, patch, 415);
    t.equal(await countUsers(app), before);
    t.same(await rowOf(), original);
  });
});

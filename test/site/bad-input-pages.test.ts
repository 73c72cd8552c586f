/**
 * Bad input to POST /v1/pages and PATCH /v1/pages/{id}. An administrator sends every request, so only
 * validation decides: each answer is a 4xx error document with the expected status and source, never
 * a 500, and the pages table is unchanged.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, expectRefused, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

type Case = RefusedCase<unknown>;
/** [attribute, value, what]: a value refused with 422 at that attribute, on create and on update. */
type Wrong = [string, unknown, string];

const at = (name: string) => `/data/attributes/${name}`;
const valid = { name: 'Terms', url: '/terms', description: 'The terms of use.' };

const WRONG: Wrong[] = [
  // wrong JSON types, attribute by attribute
  ['name', 42, 'a number'],
  ['name', null, 'null'],
  ['name', ['Terms'], 'an array'],
  ['title', 42, 'a number'],
  ['title', { text: 'T' }, 'an object'],
  ['url', 42, 'a number'],
  ['url', null, 'null'],
  ['description', 42, 'a number'],
  ['description', null, 'null'],
  ['description', true, 'a boolean'],
  ['language', 7, 'a number'],
  ['language', false, 'a boolean'],
  ['index', '1', 'a string'],
  ['index', null, 'null'],
  ['index', true, 'a boolean'],
  ['place', 1, 'a number'],
  ['place', ['footer'], 'an array'],
  // values out of range
  ['name', '', 'empty'],
  ['name', 'n'.repeat(256), 'over 255 characters'],
  ['title', 't'.repeat(256), 'over 255 characters'],
  ['language', 'l'.repeat(36), 'over 35 characters'],
  ['description', 'd'.repeat(100_001), 'over 100,000 characters'],
  ['description', 'a\u0000b', 'with a NUL character'],
  ['url', '', 'empty'],
  ['url', '/terms of use', 'with a blank inside'],
  ['url', ' /terms', 'with a leading blank'],
  ['url', '/terms\n', 'with a trailing newline'],
  ['url', 'https://example.com/a\tb', 'an http URL with a tab'],
  ['url', 'javascript:alert(1)', 'a javascript: URL'],
  ['url', 'JavaScript:alert(1)', 'a javascript: URL in mixed case'],
  ['url', 'data:text/html,<script>alert(1)</script>', 'a data: URL'],
  ['url', 'ftp://example.com/terms', 'an ftp URL'],
  ['url', 'mailto:admin@example.com', 'a mailto: URL'],
  ['url', 'terms:of-use', 'a path without a slash holding a colon (could be read as a scheme)'],
  ['url', 'https://', 'a scheme without a host'],
  ['url', '//evil.example.com/terms', 'a protocol-relative URL (another site)'],
  ['url', '/\\evil.example.com', 'a slash-backslash URL (another site in browsers)'],
  ['url', '/terms\u0000', 'with a NUL character'],
  ['url', `https://example.com/${'x'.repeat(2048)}`, 'over 2048 characters'],
  ['place', 'header', 'not in the enum'],
  ['place', 'FOOTER', 'the enum in upper case'],
  ['place', '', 'empty'],
  ['index', -1, 'negative'],
  ['index', 1.5, 'fractional'],
  ['index', 2 ** 31, '2^31, beyond int32'],
  ['index', 1e300, 'huge'],
  ['bogus', 1, 'an unknown attribute'],
  ['id', '5', 'id as an attribute'],
];

function createCases(): Case[] {
  const doc = (attributes: unknown, extra: Record<string, unknown> = {}) => ({
    data: { type: 'page', attributes, ...extra },
  });
  return [
    ['malformed JSON', '{"data":{"type":"page"', 400],
    ['an empty body object', {}, 422, '/data'],
    ['data is an array', { data: [{ type: 'page', attributes: valid }] }, 422, '/data'],
    ['data is null', { data: null }, 422, '/data'],
    ['type is plural', { data: { type: 'pages', attributes: valid } }, 409, '/data/type'],
    ['type of another resource', { data: { type: 'event', attributes: valid } }, 409, '/data/type'],
    ['type missing', { data: { attributes: valid } }, 422, '/data/type'],
    ['client-generated id', doc(valid, { id: '777' }), 403, '/data/id'],
    ['attributes missing', { data: { type: 'page' } }, 422, '/data/attributes'],
    ['attributes is a string', doc('Terms'), 422, '/data/attributes'],
    // Pages have no relationships: an empty member (as responses carry it) passes, any named one is unknown.
    [
      'a relationship',
      doc(valid, { relationships: { event: { data: { type: 'event', id: '1' } } } }),
      422,
      '/data/relationships/event',
    ],
    ...(['name', 'url', 'description'] as const).map(
      (name): Case => [`${name} missing`, doc({ ...valid, [name]: undefined }), 422, at(name)],
    ),
    ...WRONG.map(([name, value, what]): Case => [`${name}: ${what}`, doc({ ...valid, [name]: value }), 422, at(name)]),
  ];
}

function updateCases(id: string, other: string): Case[] {
  const doc = (attributes: unknown, extra: Record<string, unknown> = {}) => ({
    data: { type: 'page', id, attributes, ...extra },
  });
  return [
    ['malformed JSON', '{"data":', 400],
    ['an empty body object', {}, 422, '/data'],
    ['id missing', { data: { type: 'page', attributes: { name: 'X' } } }, 422, '/data/id'],
    ['id of another page', { data: { type: 'page', id: other, attributes: { name: 'X' } } }, 409, '/data/id'],
    ['id as a number', { data: { type: 'page', id: Number(id), attributes: { name: 'X' } } }, 422, '/data/id'],
    ['type is plural', { data: { type: 'pages', id, attributes: { name: 'X' } } }, 409, '/data/type'],
    ['type of another resource', { data: { type: 'setting', id, attributes: { name: 'X' } } }, 409, '/data/type'],
    ['attributes is an array', doc([]), 422, '/data/attributes'],
    ...WRONG.map(([name, value, what]): Case => [`${name}: ${what}`, doc({ [name]: value }), 422, at(name)]),
  ];
}

t.test('bad input to pages', async (t) => {
  const { app } = await buildTestApp(t);
  const admin = (await seedUser(app, { admin: true })).token;
  const id = await create(app, admin, 'pages', 'page', {
    ...valid,
    title: 'Terms',
    language: 'en',
    index: 2,
    place: 'footer',
  });
  const other = await create(app, admin, 'pages', 'page', {
    name: 'Privacy',
    url: 'https://example.com/privacy',
    description: '',
  });
  const snapshot = snapshotOf(app, ['pages']);
  const before = await snapshot();
  /**
   * A request accepted by mistake fails its case on the status; the table is then put back as it
   * was, so that one accepted case does not fail every later case's "nothing written" check too.
   */
  const restoreIfAccepted = async (res: Awaited<ReturnType<typeof call>>) => {
    if (res.status < 300) {
      const rows = JSON.stringify((before as unknown as [{ pages: unknown }])[0].pages);
      await app.sql.begin(async (sql) => {
        await sql`delete from pages`;
        await sql`insert into pages select * from json_populate_recordset(null::pages, ${rows}::json)`;
      });
    }
    return res;
  };
  const each = (t: Test, cases: Case[], send: (body: unknown) => ReturnType<typeof call>) =>
    expectRefused(t, cases, async (body) => restoreIfAccepted(await send(body)), snapshot, before);

  t.test('POST /v1/pages', async (t) => {
    await each(t, createCases(), (body) => call(app, { method: 'POST', url: '/v1/pages', token: admin, body }));
  });

  t.test('PATCH /v1/pages/{id}', async (t) => {
    await each(t, updateCases(id, other), (body) =>
      call(app, { method: 'PATCH', url: `/v1/pages/${id}`, token: admin, body }),
    );
  });

  t.test('media types', async (t) => {
    const bodies: [string, string, unknown][] = [
      ['POST', '/v1/pages', { data: { type: 'page', attributes: valid } }],
      ['PATCH', `/v1/pages/${id}`, { data: { type: 'page', id, attributes: { name: 'Renamed' } } }],
    ];
    for (const [method, url, doc] of bodies) {
      for (const contentType of ['application/json', 'application/vnd.api+json; charset=utf-8', 'text/plain']) {
        const res = await call(app, {
          method: method as 'POST',
          url,
          token: admin,
          body: JSON.stringify(doc),
          headers: { 'content-type': contentType },
        });
        expectError(t, res, 415);
      }
      const notAcceptable = await call(app, {
        method: method as 'POST',
        url,
        token: admin,
        body: doc,
        headers: { accept: 'text/html' },
      });
      expectError(t, notAcceptable, 406);
    }
    t.same(await snapshot(), before, 'nothing written');
  });

  t.test('the page is unchanged and still valid after all of it', async (t) => {
    const res = await call(app, { url: `/v1/pages/${id}` });
    t.equal(res.status, 200);
    t.strictSame(res.body.data.attributes, { ...valid, title: 'Terms', language: 'en', index: 2, place: 'footer' });
    const limits = {
      name: 'n'.repeat(255),
      title: 't'.repeat(255),
      language: 'l'.repeat(35),
      index: 2 ** 31 - 1,
      url: `https://example.com/${'x'.repeat(2028)}`,
    };
    const ok = await call(app, {
      method: 'PATCH',
      url: `/v1/pages/${id}`,
      token: admin,
      body: { data: { type: 'page', id, attributes: limits } },
    });
    t.equal(ok.status, 200, 'the limits themselves are accepted');
    t.match(ok.body.data.attributes, limits, 'and stored as sent');
  });
});

/**
 * Bad input to the event routes (POST /v1/events, PATCH/GET/DELETE /v1/events/{id}, the list), sent
 * by the event's owner so that only validation decides: each a 4xx error document with the expected
 * status and source, never a 500, and nothing written to events or event_roles.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import {
  buildWorld,
  create,
  eventAttributes,
  expectRefused,
  rel,
  snapshotOf,
  type RefusedCase,
} from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

/** [what, body (a string is sent as is), status, pointer when one is expected]. */
type Case = RefusedCase<unknown>;

const valid = eventAttributes('Bad Input Conf');
const doc = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  data: { type: 'event', attributes, ...extra },
});
const at = (name: string) => `/data/attributes/${name}`;

/** Attribute values that are wrong on create and update alike: [attribute, value, what]. */
const WRONG: [string, unknown, string, string?][] = [
  ['name', 42, 'a number for text'],
  ['name', null, 'null for a required text'],
  ['name', '', 'an empty name'],
  ['name', 'n'.repeat(256), 'over maxLength 255'],
  ['name', 'a\u0000b', 'a NUL character'],
  ['description', 'd'.repeat(100_001), 'over maxLength 100,000'],
  ['description', 'a\u0000b', 'a NUL character in a long text'],
  ['location-name', 'l'.repeat(256), 'over maxLength 255'],
  ['latitude', 91, 'latitude above 90'],
  ['latitude', -90.0001, 'latitude below -90'],
  ['latitude', 'north', 'latitude as a string'],
  ['longitude', -181, 'longitude below -180'],
  ['longitude', 180.5, 'longitude above 180'],
  ['state', 'archived', 'an unknown state'],
  ['state', 'Published', 'a state in the wrong case'],
  ['privacy', 'secret', 'an unknown privacy'],
  ['privacy', true, 'privacy as a boolean'],
  ['timezone', 'Mars/Base', 'a time zone that does not exist'],
  ['timezone', '', 'an empty time zone'],
  ['timezone', 'UTC; drop table events', 'a time zone with SQL in it'],
  ['timezone', `Europe/${'B'.repeat(60)}`, 'a time zone over 64 characters'],
  ['starts-at', 'tomorrow', 'a date-time that is not one'],
  ['starts-at', '2030-13-01T09:00:00Z', 'month 13'],
  ['starts-at', '2030-05-01', 'a date without a time'],
  ['ends-at', 1893456000, 'a date-time as a number'],
  ['logo-url', 'ftp://example.com/logo.png', 'an ftp URL'],
  ['ticket-url', 'javascript:alert(1)', 'a javascript: URL'],
  ['external-event-url', 'example.com', 'a URL without a scheme'],
  ['original-image-url', `https://example.com/${'x'.repeat(2048)}`, 'a URL over 2048 characters'],
  ['code-of-conduct', ['be nice'], 'an array for text'],
  ['identifier', 'abcdefgh', 'read-only identifier'],
  ['large-image-url', 'https://example.com/l.png', 'read-only image variant'],
  ['thumbnail-image-url', 'https://example.com/t.png', 'read-only image variant'],
  ['icon-image-url', 'https://example.com/i.png', 'read-only image variant'],
  ['created-at', '2020-01-01T00:00:00Z', 'read-only created-at'],
  ['deleted-at', '2020-01-01T00:00:00Z', 'read-only deleted-at'],
  // The Open Event front end's attributes (open-event-frontend:app/models/event.js:29-110).
  ['online', 'yes', 'a boolean as a word'],
  ['online', null, 'a flag cleared'],
  ['is-map-shown', 1, 'a boolean as a number'],
  ['can-pay-onsite', 'true ', 'a boolean with a blank'],
  ['payment-currency', 'usd', 'a currency in lower case'],
  ['payment-currency', 'EURO', 'a four-letter currency'],
  ['payment-country', 'c'.repeat(256), 'over maxLength 255'],
  ['paypal-email', 'not an address', 'not an e-mail address'],
  ['paypal-email', 42, 'a number for an address'],
  ['public-stream-link', 'javascript:alert(1)', 'a javascript: stream link'],
  ['searchable-location-name', 's'.repeat(256), 'over maxLength 255'],
  ['owner-name', 'o'.repeat(256), 'over maxLength 255'],
  ['owner-description', 'd'.repeat(100_001), 'over maxLength 100,000'],
  ['refund-policy', 'r'.repeat(10_001), 'over maxLength 10,000'],
  ['bank-details', 'a\u0000b', 'a NUL character'],
  ['after-order-message', { text: 'hi' }, 'an object for text'],
  ['schedule-published-on', 'soon', 'a date-time that is not one'],
  ['document-links', 'https://example.org/a.pdf', 'a string for the list'],
  ['document-links', [{ name: 'Map' }], 'a document without its link', at('document-links/0/link')],
  [
    'document-links',
    [{ name: 'Map', link: 'javascript:alert(1)' }],
    'a javascript: document link',
    at('document-links/0/link'),
  ],
  [
    'document-links',
    [{ name: 'Map', link: 'https://example.org/a.pdf', size: 1 }],
    'an unknown member of a document',
    at('document-links/0/size'),
  ],
  [
    'document-links',
    Array.from({ length: 51 }, (_, i) => ({ name: `D${i}`, link: 'https://example.org/a.pdf' })),
    'over 50 documents',
  ],
  ['is-stripe-linked', true, 'read-only is-stripe-linked'],
  ['chat-room-name', 'general', 'read-only chat-room-name'],
  ['pentabarf-url', 'https://example.org/p.xml', 'an export URL this service does not serve'],
  ['owner-id', 1, 'an unknown attribute (a column name)'],
  ['color', '#ffffff', 'an unknown attribute'],
];

const CREATE: Case[] = [
  ['malformed JSON', '{"data": {"type": "event",', 400],
  ['a JSON array', '[]', 422, ''],
  ['no data', {}, 422, '/data'],
  ['attributes missing', { data: { type: 'event' } }, 422, '/data/attributes'],
  ['type missing', { data: { attributes: valid } }, 422, '/data/type'],
  ['type is wrong', { data: { type: 'events', attributes: valid } }, 409, '/data/type'],
  ['type of another resource', { data: { type: 'session', attributes: valid } }, 409, '/data/type'],
  ['client-generated id', doc(valid, { id: '12345' }), 403, '/data/id'],
  ['name missing', doc({ ...valid, name: undefined }), 422, at('name')],
  ['starts-at missing', doc({ ...valid, 'starts-at': undefined }), 422, at('starts-at')],
  ['ends-at missing', doc({ ...valid, 'ends-at': undefined }), 422, at('ends-at')],
  ['timezone missing', doc({ ...valid, timezone: undefined }), 422, at('timezone')],
  ['ends-at before starts-at', doc({ ...valid, 'ends-at': '2030-04-30T09:00:00Z' }), 422, at('ends-at')],
  ['ends-at equal to starts-at', doc({ ...valid, 'ends-at': valid['starts-at'] }), 422, at('ends-at')],
  ['ends-at equal in another offset', doc({ ...valid, 'ends-at': '2030-05-01T11:00:00+02:00' }), 422, at('ends-at')],
  ['a year PostgreSQL cannot store', doc({ ...valid, 'starts-at': '0000-01-01T00:00:00Z' }), 422, at('starts-at')],
  [
    'unknown relationship',
    doc(valid, { relationships: { venue: rel('microlocation', '1') } }),
    422,
    '/data/relationships/venue',
  ],
  ['read-only owner', doc(valid, { relationships: { owner: rel('user', '1') } }), 422, '/data/relationships/owner'],
  [
    'read-only event-copyright',
    doc(valid, { relationships: { 'event-copyright': rel('event-copyright', '1') } }),
    422,
    '/data/relationships/event-copyright',
  ],
  [
    'event-topic of the wrong type',
    doc(valid, { relationships: { 'event-topic': rel('track', '1') } }),
    409,
    '/data/relationships/event-topic/data/type',
  ],
  [
    'event-topic without data',
    doc(valid, { relationships: { 'event-topic': {} } }),
    422,
    '/data/relationships/event-topic/data',
  ],
  [
    'event-topic id is a number',
    doc(valid, { relationships: { 'event-topic': { data: { type: 'event-topic', id: 1 } } } }),
    422,
    '/data/relationships/event-topic/data/id',
  ],
  [
    'event-type of the wrong type',
    doc(valid, { relationships: { 'event-type': rel('event-topic', '1') } }),
    409,
    '/data/relationships/event-type/data/type',
  ],
  [
    'event-sub-topic as a list',
    doc(valid, { relationships: { 'event-sub-topic': { data: [] } } }),
    422,
    '/data/relationships/event-sub-topic/data',
  ],
  [
    'organizers is not a list',
    doc(valid, { relationships: { organizers: rel('user', '1') } }),
    422,
    '/data/relationships/organizers/data',
  ],
  ['unknown member of data', doc(valid, { meta: {} }), 422, '/data/meta'],
  ['unknown top-level member', { ...doc(valid), included: [] }, 422, '/included'],
  ['a 1 MB description', doc({ ...valid, description: 'd'.repeat(1024 * 1024) }), 413],
  ['a date-time without an offset', doc({ ...valid, 'starts-at': '2030-05-01T09:00:00' }), 422, at('starts-at')],
  ['a date-time in year 10000 UTC', doc({ ...valid, 'ends-at': '9999-12-31T23:59:59-01:00' }), 422, at('ends-at')],
  ['a latitude of 1e400', JSON.stringify(doc(valid)).replace('"name"', '"latitude":1e400,"name"'), 422, at('latitude')],
  ['a __proto__ member', JSON.stringify(doc(valid)).replace('"name"', '"__proto__":{"state":"published"},"name"'), 400],
];

const NOT_FOUND_IDS = ['99999999999', '2147483648', '0', '-1', '1.5', 'abc'];

t.test('bad input to events', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const owner = world.cast.owner.token;
  const goneTopic = await create(app, world.cast.admin.token, 'event-topics', 'event-topic', { name: 'Gone' });
  await call(app, { method: 'DELETE', url: `/v1/event-topics/${goneTopic}`, token: world.cast.admin.token });
  // Every row of the event tables, in one statement.
  const snapshot = snapshotOf(app, ['events', 'event_roles', 'event_topics']);
  const before = await snapshot();
  const unchanged = async (t: Test, what: string) => t.same(await snapshot(), before, `${what}: nothing written`);
  const each = (t: Test, cases: Case[], send: (body: unknown) => ReturnType<typeof call>) =>
    expectRefused(t, cases, send, snapshot, before);

  t.test('POST /v1/events', async (t) => {
    const cases: Case[] = [
      ...CREATE,
      ...WRONG.map(
        ([name, value, what, pointer]): Case => [
          `${name}: ${what}`,
          doc({ ...valid, [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
    ];
    await each(t, cases, (body) => call(app, { method: 'POST', url: '/v1/events', token: owner, body }));
  });

  t.test('POST /v1/events with related ids that do not exist', async (t) => {
    const cases: [string, Record<string, unknown>][] = [
      ['event-topic 99999999999', { 'event-topic': rel('event-topic', '99999999999') }],
      ['event-topic 424242', { 'event-topic': rel('event-topic', '424242') }],
      ['event-topic abc', { 'event-topic': rel('event-topic', 'abc') }],
      ['event-type 424242', { 'event-type': rel('event-type', '424242') }],
      ['event-sub-topic abc', { 'event-sub-topic': rel('event-sub-topic', 'abc') }],
      ['organizer 424242', { organizers: { data: [{ type: 'user', id: '424242' }] } }],
      ['coorganizer abc', { coorganizers: { data: [{ type: 'user', id: 'abc' }] } }],
    ];
    const bodies = cases.map(([what, relationships]): Case => [what, doc(valid, { relationships }), 404]);
    await each(t, bodies, (body) => call(app, { method: 'POST', url: '/v1/events', token: owner, body }));
  });

  t.test('media types', async (t) => {
    const body = JSON.stringify(doc(valid));
    for (const type of ['application/json', 'text/plain', 'application/vnd.api+json; charset=utf-8']) {
      expectError(
        t,
        await call(app, { method: 'POST', url: '/v1/events', token: owner, body, headers: { 'content-type': type } }),
        415,
      );
      const patch = JSON.stringify({ data: { type: 'event', id: world.published.event, attributes: { name: 'x' } } });
      const url = `/v1/events/${world.published.event}`;
      expectError(
        t,
        await call(app, { method: 'PATCH', url, token: owner, body: patch, headers: { 'content-type': type } }),
        415,
      );
    }
    await unchanged(t, 'media types');
  });

  t.test('PATCH /v1/events/{id}', async (t) => {
    const id = world.published.event;
    const patch = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      data: { type: 'event', id, attributes, ...extra },
    });
    const cases: Case[] = [
      ['malformed JSON', '{"data":', 400],
      ['no data', {}, 422, '/data'],
      ['id missing', { data: { type: 'event', attributes: { name: 'x' } } }, 422, '/data/id'],
      ['id is a number', { data: { type: 'event', id: Number(id), attributes: { name: 'x' } } }, 422, '/data/id'],
      [
        'id of the other event',
        { data: { type: 'event', id: world.draft.event, attributes: { name: 'x' } } },
        409,
        '/data/id',
      ],
      [
        'identifier of the other event',
        { data: { type: 'event', id: world.draft.identifier, attributes: { name: 'x' } } },
        409,
        '/data/id',
      ],
      ['type is wrong', { data: { type: 'track', id, attributes: { name: 'x' } } }, 409, '/data/type'],
      ['only ends-at, before the stored starts-at', patch({ 'ends-at': '2030-04-01T00:00:00Z' }), 422, at('ends-at')],
      ['only ends-at, equal to the stored starts-at', patch({ 'ends-at': '2030-05-01T09:00:00Z' }), 422, at('ends-at')],
      [
        'only starts-at, after the stored ends-at',
        patch({ 'starts-at': '2030-06-01T00:00:00Z' }),
        422,
        at('starts-at'),
      ],
      [
        'only starts-at, equal to the stored ends-at',
        patch({ 'starts-at': '2030-05-03T18:00:00Z' }),
        422,
        at('starts-at'),
      ],
      [
        'both, swapped',
        patch({ 'starts-at': '2030-05-03T18:00:00Z', 'ends-at': '2030-05-01T09:00:00Z' }),
        422,
        at('ends-at'),
      ],
      ['starts-at cleared', patch({ 'starts-at': null }), 422, at('starts-at')],
      ['timezone cleared', patch({ timezone: null }), 422, at('timezone')],
      [
        'event-topic that does not exist',
        patch({}, { relationships: { 'event-topic': rel('event-topic', '424242') } }),
        404,
      ],
      [
        'organizer that does not exist',
        patch({}, { relationships: { organizers: { data: [{ type: 'user', id: '99999999999' }] } } }),
        404,
      ],
      [
        'read-only owner',
        patch({}, { relationships: { owner: rel('user', world.cast.other.id) } }),
        422,
        '/data/relationships/owner',
      ],
      ...WRONG.map(
        ([name, value, what, pointer]): Case => [
          `${name}: ${what}`,
          patch({ [name]: value }),
          422,
          pointer ?? at(name),
        ],
      ),
    ];
    await each(t, cases, (body) => call(app, { method: 'PATCH', url: `/v1/events/${id}`, token: owner, body }));
    const byIdentifier = await call(app, {
      method: 'PATCH',
      url: `/v1/events/${world.published.identifier}`,
      token: owner,
      body: patch({ 'ends-at': '2030-05-01T08:00:00Z' }),
    });
    expectError(t, byIdentifier, 422, { pointer: at('ends-at') });
    await unchanged(t, 'PATCH by identifier');
  });

  t.test('organizer and topic relationship routes', async (t) => {
    const base = `/v1/events/${world.published.event}/relationships`;
    const users = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'user', id })) });
    const cases: [string, 'PATCH' | 'POST' | 'DELETE', string, unknown, number, string?][] = [
      ['a user that does not exist', 'POST', 'organizers', users('424242'), 404],
      ['a user id that is a word', 'PATCH', 'coorganizers', users(world.cast.other.id, 'abc'), 404],
      [
        'a linkage of the wrong type',
        'POST',
        'organizers',
        { data: [{ type: 'event', id: world.draft.event }] },
        409,
        '/data/0/type',
      ],
      [
        'a to-one linkage for a to-many',
        'PATCH',
        'organizers',
        { data: { type: 'user', id: world.cast.other.id } },
        422,
        '/data',
      ],
      ['no data', 'POST', 'coorganizers', {}, 422, '/data'],
      ['malformed JSON', 'DELETE', 'organizers', '{"data":[', 400],
      ['a topic that does not exist', 'PATCH', 'event-topic', rel('event-topic', '424242'), 404],
      ['a topic that was deleted', 'PATCH', 'event-topic', rel('event-topic', goneTopic), 404],
      ['a topic of the wrong type', 'PATCH', 'event-topic', rel('user', world.cast.other.id), 409, '/data/type'],
      ['the read-only owner', 'PATCH', 'owner', rel('user', world.cast.other.id), 405],
    ];
    for (const [what, method, name, body, status, pointer] of cases) {
      await t.test(what, async (t) => {
        const res = await call(app, { method, url: `${base}/${name}`, token: owner, body });
        expectError(t, res, status, pointer !== undefined ? { pointer } : {});
        await unchanged(t, what);
      });
    }
  });

  t.test('event topics (as an administrator)', async (t) => {
    const admin = world.cast.admin.token;
    const topic = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      data: { type: 'event-topic', attributes, ...extra },
    });
    const id = world.topic;
    const cases: [string, 'POST' | 'PATCH', unknown, number, string?][] = [
      ['malformed JSON', 'POST', '{"data":', 400],
      ['name missing', 'POST', topic({}), 422, at('name')],
      ['name is a number', 'POST', topic({ name: 7 }), 422, at('name')],
      ['name over 255 characters', 'POST', topic({ name: 'n'.repeat(256) }), 422, at('name')],
      ['name with a NUL character', 'POST', topic({ name: 'a\u0000b' }), 422, at('name')],
      ['read-only slug', 'POST', topic({ name: 'Art', slug: 'art' }), 422, at('slug')],
      [
        'an image URL that is not http(s)',
        'POST',
        topic({ name: 'Art', 'system-image-url': 'file:///etc/passwd' }),
        422,
        at('system-image-url'),
      ],
      ['type is wrong', 'POST', { data: { type: 'topic', attributes: { name: 'Art' } } }, 409, '/data/type'],
      ['client-generated id', 'POST', topic({ name: 'Art' }, { id: '3' }), 403, '/data/id'],
      [
        'a read-only relationship',
        'POST',
        topic({ name: 'Art' }, { relationships: { events: { data: [{ type: 'event', id: world.published.event }] } } }),
        422,
        '/data/relationships/events',
      ],
      [
        'PATCH id mismatch',
        'PATCH',
        { data: { type: 'event-topic', id: goneTopic, attributes: { name: 'x' } } },
        409,
        '/data/id',
      ],
      [
        'PATCH name cleared',
        'PATCH',
        { data: { type: 'event-topic', id, attributes: { name: null } } },
        422,
        at('name'),
      ],
    ];
    for (const [what, method, body, status, pointer] of cases) {
      await t.test(what, async (t) => {
        const url = method === 'POST' ? '/v1/event-topics' : `/v1/event-topics/${id}`;
        expectError(
          t,
          await call(app, { method, url, token: admin, body }),
          status,
          pointer !== undefined ? { pointer } : {},
        );
        await unchanged(t, what);
      });
    }
    for (const bad of ['abc', '99999999999', goneTopic]) {
      expectError(t, await call(app, { url: `/v1/event-topics/${bad}` }), 404);
      expectError(t, await call(app, { method: 'DELETE', url: `/v1/event-topics/${bad}`, token: admin }), 404);
    }
    await unchanged(t, 'topic paths');
  });

  t.test('ids in paths that cannot exist', async (t) => {
    for (const id of NOT_FOUND_IDS) {
      expectError(t, await call(app, { url: `/v1/events/${id}`, token: owner }), 404, { detail: 'Object not found.' });
      const body = { data: { type: 'event', id, attributes: { name: 'x' } } };
      expectError(t, await call(app, { method: 'PATCH', url: `/v1/events/${id}`, token: owner, body }), 404);
      expectError(t, await call(app, { method: 'DELETE', url: `/v1/events/${id}`, token: owner }), 404);
      expectError(t, await call(app, { url: `/v1/events/${id}/sessions`, token: owner }), 404);
    }
    expectError(t, await call(app, { url: `/v1/events/${'1'.repeat(65)}`, token: owner }), 400, { parameter: 'id' });
    await unchanged(t, 'ids in paths');
  });

  t.test('GET /v1/events with bad query parameters', async (t) => {
    const f = (filter: unknown) => `filter=${encodeURIComponent(JSON.stringify(filter))}`;
    const cases: [string, string][] = [
      ['sort=nope', 'sort'],
      ['sort=owner', 'sort'],
      ['sort=-organizers', 'sort'],
      [f([{ name: 'nope', op: 'eq', val: 'x' }]), 'filter'],
      [f([{ name: 'owner-id', op: 'eq', val: 1 }]), 'filter'],
      [f([{ name: 'latitude', op: 'gt', val: 'north' }]), 'filter'],
      [f([{ name: 'starts-at', op: 'gt', val: 'soon' }]), 'filter'],
      [f([{ name: 'sessions', op: 'any', val: { name: 'nope', op: 'eq', val: 'x' } }]), 'filter'],
      [f([{ name: 'speakers', op: 'any', val: { name: 'email', op: 'regex', val: 'x' } }]), 'filter'],
      ['include=owner.password', 'include'],
      ['include=venue', 'include'],
      ['fields[event]=secret', 'fields[event]'],
      ['page[size]=10001', 'page[size]'],
    ];
    for (const [query, parameter] of cases) {
      expectError(t, await call(app, { url: `/v1/events?${query}`, token: owner }), 400, { parameter });
    }
    await unchanged(t, 'list queries');
  });
});

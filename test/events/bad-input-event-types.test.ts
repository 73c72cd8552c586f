/**
 * Bad input to the admin-managed lists event types and event sub-topics, sent by an administrator so
 * that only validation decides: each a 4xx error document with the expected status and source, never
 * a 500, and nothing written.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';
import { expectError } from '../helpers/users.js';

type Case = RefusedCase<unknown>;
const at = (name: string) => `/data/attributes/${name}`;

t.test('bad input to event types and sub-topics', async (t) => {
  const { app } = await buildTestApp(t);
  const cast = await createCast(app);
  const admin = cast.admin.token;
  const topic = await create(app, admin, 'event-topics', 'event-topic', { name: 'Science' });
  const gone = await create(app, admin, 'event-topics', 'event-topic', { name: 'Gone' });
  await call(app, { method: 'DELETE', url: `/v1/event-topics/${gone}`, token: admin });
  const type = await create(app, admin, 'event-types', 'event-type', { name: 'Conference' });
  const sub = await create(
    app,
    admin,
    'event-sub-topics',
    'event-sub-topic',
    { name: 'Robotics' },
    { 'event-topic': rel('event-topic', topic) },
  );
  const snapshot = snapshotOf(app, ['event_types', 'event_sub_topics', 'event_topics', 'events']);
  const before = await snapshot();

  const names = (type: string, of: Record<string, unknown> = {}): Case[] => {
    const doc = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      data: { type, attributes, relationships: of, ...extra },
    });
    return [
      ['malformed JSON', `{"data":{"type":"${type}"`, 400],
      ['no data', {}, 422, '/data'],
      [
        'type is wrong',
        { data: { type: 'event-topic', attributes: { name: 'X' }, relationships: of } },
        409,
        '/data/type',
      ],
      ['client-generated id', doc({ name: 'X' }, { id: '9' }), 403, '/data/id'],
      ['name missing', doc({}), 422, at('name')],
      ['name empty', doc({ name: '' }), 422, at('name')],
      ['name a number', doc({ name: 7 }), 422, at('name')],
      ['name over 255 characters', doc({ name: 'n'.repeat(256) }), 422, at('name')],
      ['name with a NUL character', doc({ name: 'a\u0000b' }), 422, at('name')],
      ['slug is read-only', doc({ name: 'X', slug: 'x' }), 422, at('slug')],
      ['unknown attribute', doc({ name: 'X', color: 'red' }), 422, at('color')],
      [
        'unknown relationship',
        doc({ name: 'X' }, { relationships: { ...of, venue: rel('event', '1') } }),
        422,
        '/data/relationships/venue',
      ],
    ];
  };
  const post = (path: string) => (body: unknown) =>
    call(app, { method: 'POST', url: `/v1/${path}`, token: admin, body });

  t.test('POST /v1/event-types', (t) => expectRefused(t, names('event-type'), post('event-types'), snapshot, before));

  t.test('POST /v1/event-sub-topics', async (t) => {
    const of = { 'event-topic': rel('event-topic', topic) };
    const doc = (relationships?: Record<string, unknown>) => ({
      data: { type: 'event-sub-topic', attributes: { name: 'Drones' }, ...(relationships ? { relationships } : {}) },
    });
    const cases: Case[] = [
      ...names('event-sub-topic', of),
      ['no topic', doc(), 422, '/data/relationships'],
      ['topic null', doc({ 'event-topic': { data: null } }), 422, '/data/relationships/event-topic/data'],
      ['topic that does not exist', doc({ 'event-topic': rel('event-topic', '424242') }), 404],
      ['topic that was deleted', doc({ 'event-topic': rel('event-topic', gone) }), 404],
      [
        'topic of the wrong type',
        doc({ 'event-topic': rel('event-type', type) }),
        409,
        '/data/relationships/event-topic/data/type',
      ],
    ];
    await expectRefused(t, cases, post('event-sub-topics'), snapshot, before);
  });

  t.test('PATCH of both', async (t) => {
    const patch = (path: string, id: string) => (body: unknown) =>
      call(app, { method: 'PATCH', url: `/v1/${path}/${id}`, token: admin, body });
    await expectRefused(
      t,
      [
        ['name cleared', { data: { type: 'event-type', id: type, attributes: { name: null } } }, 422, at('name')],
        ['id of another record', { data: { type: 'event-type', id: '424242', attributes: {} } }, 409, '/data/id'],
        [
          'deleted-at is read-only',
          { data: { type: 'event-type', id: type, attributes: { 'deleted-at': '2020-01-01T00:00:00Z' } } },
          422,
          at('deleted-at'),
        ],
      ],
      patch('event-types', type),
      snapshot,
      before,
    );
    await expectRefused(
      t,
      [
        [
          'topic cleared',
          { data: { type: 'event-sub-topic', id: sub, relationships: { 'event-topic': { data: null } } } },
          422,
          '/data/relationships/event-topic/data',
        ],
        [
          'topic that does not exist',
          {
            data: {
              type: 'event-sub-topic',
              id: sub,
              relationships: { 'event-topic': rel('event-topic', '99999999999') },
            },
          },
          404,
        ],
      ],
      patch('event-sub-topics', sub),
      snapshot,
      before,
    );
  });

  t.test('ids and queries', async (t) => {
    for (const path of ['event-types', 'event-sub-topics']) {
      for (const id of ['abc', '99999999999', '0', '-1', '424242']) {
        expectError(t, await call(app, { url: `/v1/${path}/${id}` }), 404, { detail: 'Object not found.' });
        expectError(t, await call(app, { method: 'DELETE', url: `/v1/${path}/${id}`, token: admin }), 404);
      }
      for (const [query, parameter] of [
        ['sort=bogus', 'sort'],
        ['include=bogus', 'include'],
        [`filter=${encodeURIComponent('[{"name":"bogus","op":"eq","val":1}]')}`, 'filter'],
      ]) {
        expectError(t, await call(app, { url: `/v1/${path}?${query}` }), 400, { parameter });
      }
    }
    t.same(await snapshot(), before, 'nothing written');
  });
});

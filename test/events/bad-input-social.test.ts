/**
 * Bad input to feedback, favourites and speaker invites, each sent by a caller the policy admits (the
 * event's owner) so only validation decides: each answer is a 4xx error document with the expected
 * status and source, never a 500, and nothing is written (no record, no mail job counted).
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';

type Case = RefusedCase<unknown>;
const at = (name: string) => `/data/attributes/${name}`;

t.test('bad input to feedback, favourites and speaker invites', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const { owner } = world.cast;
  const { event, session } = world.published;
  // A session of the owner's with nothing rated, favourited or invited yet: a create accepted by mistake would succeed.
  const fresh = await create(
    app,
    owner.token,
    'sessions',
    'session',
    { title: 'Fresh', state: 'accepted' },
    { event: rel('event', event) },
  );
  const feedback = await create(
    app,
    owner.token,
    'feedbacks',
    'feedback',
    { rating: 3 },
    { session: rel('session', session) },
  );
  const snapshot = snapshotOf(app, [
    'feedback',
    'user_favourite_sessions',
    'speaker_invites',
    'sessions',
    'rate_limit_hits',
  ]);
  const before = await snapshot();
  const each = (t: Test, cases: Case[], method: string, url: string) =>
    expectRefused(
      t,
      cases,
      (body) => call(app, { method: method as 'POST', url, token: owner.token, body }),
      snapshot,
      before,
    );
  const doc = (
    type: string,
    attributes: Record<string, unknown>,
    relationships: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => ({
    data: { type, attributes, relationships, ...extra },
  });
  const generic = (type: string, valid: Record<string, unknown>, of: Record<string, unknown>): Case[] => [
    ['malformed JSON', `{"data":{"type":"${type}"`, 400],
    ['no data', {}, 422, '/data'],
    ['type of another resource', doc('session', valid, of), 409, '/data/type'],
    ['client-generated id', doc(type, valid, of, { id: '777' }), 403, '/data/id'],
    ['unknown attribute', doc(type, { ...valid, bogus: 1 }, of), 422, at('bogus')],
    ['unknown relationship', doc(type, valid, { ...of, venue: rel('event', event) }), 422, '/data/relationships/venue'],
    ['session that does not exist', doc(type, valid, { ...of, session: rel('session', '424242') }), 404],
    ['session id that is a word', doc(type, valid, { ...of, session: rel('session', 'abc') }), 404],
    [
      'session of the wrong type',
      doc(type, valid, { ...of, session: rel('track', fresh) }),
      409,
      '/data/relationships/session/data/type',
    ],
    ['session id beyond int32', doc(type, valid, { ...of, session: rel('session', '99999999999') }), 404],
  ];

  t.test('POST /v1/feedbacks', async (t) => {
    const of = { session: rel('session', fresh) };
    const valid = { rating: 4, comment: 'Good' };
    await each(
      t,
      [
        ...generic('feedback', valid, of),
        ['rating missing', doc('feedback', { comment: 'x' }, of), 422, at('rating')],
        ['rating 0', doc('feedback', { rating: 0 }, of), 422, at('rating')],
        ['rating 6', doc('feedback', { rating: 6 }, of), 422, at('rating')],
        ['rating as a string that is not a number', doc('feedback', { rating: 'four' }, of), 422, at('rating')],
        ['rating null', doc('feedback', { rating: null }, of), 422, at('rating')],
        [
          'comment over 10000 characters',
          doc('feedback', { rating: 4, comment: 'x'.repeat(10_001) }, of),
          422,
          at('comment'),
        ],
        ['comment with a NUL character', doc('feedback', { rating: 4, comment: 'a\u0000b' }, of), 422, at('comment')],
        ['comment is a number', doc('feedback', { rating: 4, comment: 5 }, of), 422, at('comment')],
        [
          'read-only deleted-at',
          doc('feedback', { rating: 4, 'deleted-at': '2020-01-01T00:00:00Z' }, of),
          422,
          at('deleted-at'),
        ],
        ['neither session nor event', doc('feedback', valid, {}), 422, '/data/relationships'],
        [
          'the event of another session',
          doc('feedback', valid, { ...of, event: rel('event', world.draft.event) }),
          422,
          '/data/relationships/event',
        ],
        [
          'another user as author',
          doc('feedback', valid, { ...of, user: rel('user', world.cast.other.id) }),
          403,
          '/data/relationships/user',
        ],
      ],
      'POST',
      '/v1/feedbacks',
    );
  });

  t.test('PATCH /v1/feedbacks/{id}', async (t) => {
    const patch = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
      data: { type: 'feedback', id: feedback, attributes, ...(relationships ? { relationships } : {}) },
    });
    await each(
      t,
      [
        ['malformed JSON', '{"data":', 400],
        ['rating cleared', patch({ rating: null }), 422, at('rating')],
        ['rating 5.5', patch({ rating: 5.5 }), 422, at('rating')],
        ['unknown attribute', patch({ stars: 3 }), 422, at('stars')],
        ['moved to another session', patch({}, { session: rel('session', fresh) }), 422, '/data/relationships/session'],
        [
          'given to another user',
          patch({}, { user: rel('user', world.cast.other.id) }),
          422,
          '/data/relationships/user',
        ],
      ],
      'PATCH',
      `/v1/feedbacks/${feedback}`,
    );
  });

  t.test('POST /v1/user-favourite-sessions', async (t) => {
    const of = { session: rel('session', fresh) };
    await each(
      t,
      [
        ...generic('user-favourite-session', {}, of),
        ['session missing', doc('user-favourite-session', {}, {}), 422, '/data/relationships/session'],
        [
          'session null',
          doc('user-favourite-session', {}, { session: { data: null } }),
          422,
          '/data/relationships/session/data',
        ],
        [
          "another user's schedule",
          doc('user-favourite-session', {}, { ...of, user: rel('user', world.cast.other.id) }),
          422,
          '/data/relationships/user',
        ],
        [
          'read-only created-at',
          doc('user-favourite-session', { 'created-at': '2020-01-01T00:00:00Z' }, of),
          422,
          at('created-at'),
        ],
      ],
      'POST',
      '/v1/user-favourite-sessions',
    );
  });

  t.test('POST /v1/speaker-invites', async (t) => {
    const of = { session: rel('session', fresh), event: rel('event', event) };
    const valid = { email: 'guest@example.org', status: 'pending' };
    await each(
      t,
      [
        ...generic('speaker-invite', valid, of),
        ['email missing', doc('speaker-invite', { status: 'pending' }, of), 422, at('email')],
        ['email is not an address', doc('speaker-invite', { email: 'not an address' }, of), 422, at('email')],
        [
          'email over 254 characters',
          doc('speaker-invite', { email: `${'x'.repeat(250)}@example.org` }, of),
          422,
          at('email'),
        ],
        ['email is a number', doc('speaker-invite', { email: 7 }, of), 422, at('email')],
        ['status unknown', doc('speaker-invite', { ...valid, status: 'maybe' }, of), 422, at('status')],
        ['created accepted', doc('speaker-invite', { ...valid, status: 'accepted' }, of), 422, at('status')],
        [
          'created-at not a date',
          doc('speaker-invite', { ...valid, 'created-at': 'yesterday' }, of),
          422,
          at('created-at'),
        ],
        [
          'event missing',
          doc('speaker-invite', valid, { session: rel('session', fresh) }),
          422,
          '/data/relationships/event',
        ],
        [
          'session of another event',
          doc('speaker-invite', valid, { session: rel('session', fresh), event: rel('event', world.draft.event) }),
          422,
          '/data/relationships/session',
        ],
      ],
      'POST',
      '/v1/speaker-invites',
    );
  });
});

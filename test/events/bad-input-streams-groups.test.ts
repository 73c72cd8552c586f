/**
 * Bad input to video streams, groups and group follows, and to the relationships that name them
 * (a microlocation's video-stream, an event's group). The owner of everything sends each request, so
 * only validation and the resources' own rules decide: each answer is a 4xx error document with the
 * expected status and source, never a 500, and no table changes.
 */
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, expectRefused, rel, snapshotOf, type RefusedCase } from '../helpers/events.js';

type Case = RefusedCase<unknown>;
const at = (name: string) => `/data/attributes/${name}`;
/** [attribute, value, what, the member the error points at when deeper than the attribute]. */
type Wrong = [string, unknown, string, string?];
const URLS = (name: string): Wrong[] => [
  [name, 'not a url', 'not a URL'],
  [name, 'javascript:alert(1)', 'a javascript: URL'],
  [name, `https://example.com/${'x'.repeat(2048)}`, 'a URL over 2048 characters'],
];

t.test('bad input to video streams, groups and follows', async (t) => {
  const { app } = await buildTestApp(t);
  const world = await buildWorld(app);
  const { owner } = world.cast;
  const p = world.published;
  await app.sql`update users set is_verified = true where id = ${Number(owner.id)}`;
  const stream = await create(
    app,
    owner.token,
    'video-streams',
    'video-stream',
    { name: 'Main', url: 'https://meet.example.org/main' },
    { event: rel('event', p.event) },
  );
  const draftRoom = world.draft.microlocation;
  const draftStream = await create(
    app,
    owner.token,
    'video-streams',
    'video-stream',
    { name: 'Draft', url: 'https://meet.example.org/d' },
    { rooms: { data: [{ type: 'microlocation', id: draftRoom }] } },
  );
  const group = await create(app, owner.token, 'groups', 'group', { name: 'Summits' });
  const follow = await create(
    app,
    owner.token,
    'user-follow-groups',
    'user-follow-group',
    {},
    { group: rel('group', group) },
  );
  const other = await create(app, owner.token, 'groups', 'group', { name: 'Other' });
  const snapshot = snapshotOf(app, ['video_streams', 'microlocations', 'groups', 'user_follow_groups', 'events']);
  const before = await snapshot();
  const refused = (t: Test, cases: Case[], method: string, url: string) =>
    expectRefused(t, cases, (body) => call(app, { method, url, token: owner.token, body }), snapshot, before);

  const rooms = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'microlocation', id })) });
  const streamDoc = (
    attributes: Record<string, unknown>,
    relationships: Record<string, unknown> = { rooms: rooms(p.microlocation) },
  ) => ({
    data: {
      type: 'video-stream',
      attributes: { name: 'Room', url: 'https://meet.example.org/r', ...attributes },
      relationships,
    },
  });

  t.test('POST /v1/video-streams', async (t) => {
    const wrong: Wrong[] = [
      ['name', '', 'an empty name'],
      ['name', 'n'.repeat(256), 'a name over 255 characters'],
      ['name', 42, 'a number as name'],
      ...URLS('url'),
      ['url', null, 'a required url cleared'],
      ['password', 'p'.repeat(256), 'a password over 255 characters'],
      ['is-chat-enabled', 'yes', 'a string as a flag'],
      ['extra', { autoplay: 'yes' }, 'a string as autoplay', 'extra/autoplay'],
      [
        'extra',
        { bbb_options: { record: true, meetingID: 'x' } },
        'an unknown BBB option',
        'extra/bbb_options/meetingID',
      ],
      ['extra', { response: { moderatorPW: 'x' } }, 'an unknown member of extra', 'extra/response'],
      ['extra', [], 'a list as extra'],
      ['chat-room-name', 'mine', 'a read-only member with another value'],
    ];
    await refused(
      t,
      [
        ['name missing', streamDoc({ name: undefined }), 422, at('name')],
        ['url missing', streamDoc({ url: undefined }), 422, at('url')],
        ...wrong.map(
          ([name, value, what, deeper]): Case => [
            `${name}: ${what}`,
            streamDoc({ [name]: value }),
            422,
            at(deeper ?? name),
          ],
        ),
        ['an unknown attribute', streamDoc({ channel: 'bbb' }), 422, at('channel')],
        [
          'an unknown relationship',
          streamDoc({}, { rooms: rooms(p.microlocation), 'video-channel': rel('video-channel', '1') }),
          422,
          '/data/relationships/video-channel',
        ],
        ['neither event nor rooms', streamDoc({}, {}), 422, '/data/relationships'],
        [
          'both event and rooms',
          streamDoc({}, { rooms: rooms(p.microlocation), event: rel('event', p.event) }),
          422,
          '/data/relationships',
        ],
        [
          'rooms of two events',
          streamDoc({}, { rooms: rooms(p.microlocation, draftRoom) }),
          422,
          '/data/relationships/rooms',
        ],
        ['a room that does not exist', streamDoc({}, { rooms: rooms('424242') }), 404],
        ['a room id that is no id', streamDoc({}, { rooms: rooms('abc') }), 404],
        [
          'a second stream of the event',
          streamDoc({}, { event: rel('event', p.event) }),
          409,
          '/data/relationships/event',
        ],
        ['an event that does not exist', streamDoc({}, { event: rel('event', '424242') }), 404],
        ['malformed JSON', '{"data": ', 400],
      ],
      'POST',
      '/v1/video-streams',
    );
  });

  t.test('PATCH /v1/video-streams/{id}', async (t) => {
    const doc = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
      data: { type: 'video-stream', id: stream, attributes, ...(relationships ? { relationships } : {}) },
    });
    await refused(
      t,
      [
        ['url cleared', doc({ url: null }), 422, at('url')],
        ['another event', doc({}, { event: rel('event', world.draft.event) }), 422, '/data/relationships/event'],
        ["another event's room", doc({}, { rooms: rooms(draftRoom) }), 422, '/data/relationships/rooms'],
        [
          'event and rooms together',
          doc({}, { event: rel('event', p.event), rooms: rooms(p.microlocation) }),
          422,
          '/data/relationships',
        ],
        ['a type mismatch', { data: { type: 'group', id: stream, attributes: {} } }, 409, '/data/type'],
      ],
      'PATCH',
      `/v1/video-streams/${stream}`,
    );
  });

  t.test("a microlocation's video-stream: only a stream of its own event", async (t) => {
    const doc = {
      data: {
        type: 'microlocation',
        id: p.microlocation,
        relationships: { 'video-stream': rel('video-stream', draftStream) },
      },
    };
    await refused(
      t,
      [
        ["another event's stream", doc, 422, '/data/relationships/video-stream'],
        [
          'a stream that does not exist',
          { data: { ...doc.data, relationships: { 'video-stream': rel('video-stream', '424242') } } },
          404,
        ],
      ],
      'PATCH',
      `/v1/microlocations/${p.microlocation}`,
    );
  });

  const groupDoc = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
    data: { type: 'group', attributes: { name: 'G', ...attributes }, ...(relationships ? { relationships } : {}) },
  });

  t.test('POST /v1/groups', async (t) => {
    const wrong: Wrong[] = [
      ['name', '', 'an empty name'],
      ['name', null, 'a required name cleared'],
      ['name', 'n'.repeat(256), 'a name over 255 characters'],
      ['about', 7, 'a number as about'],
      ...URLS('logo-url'),
      ...URLS('banner-url'),
      ['social-links', [{ name: 'x', link: 'javascript:alert(1)' }], 'a javascript: link', 'social-links/0/link'],
      ['social-links', [{ name: 'x' }], 'a link missing', 'social-links/0/link'],
      [
        'social-links',
        [{ name: 'x', link: '', colour: 'red' }],
        'an unknown member of a link',
        'social-links/0/colour',
      ],
      ['social-links', Array.from({ length: 51 }, () => ({ name: 'x', link: '' })), 'over 50 links'],
      ['social-links', 'https://example.com', 'a string as the links'],
      ['is-promoted', 'true', 'a string as a flag'],
      ['follower-count', 99, 'a read-only count with another value'],
      ['thumbnail-image-url', 'https://example.com/t.png', 'a read-only URL'],
    ];
    await refused(
      t,
      [
        ['name missing', groupDoc({ name: undefined }), 422, at('name')],
        ...wrong.map(
          ([name, value, what, deeper]): Case => [
            `${name}: ${what}`,
            groupDoc({ [name]: value }),
            422,
            at(deeper ?? name),
          ],
        ),
        ['an unknown attribute', groupDoc({ colour: 'red' }), 422, at('colour')],
        [
          'a user other than the caller',
          groupDoc({}, { user: rel('user', world.cast.other.id) }),
          422,
          '/data/relationships/user',
        ],
        ['an event that does not exist', groupDoc({}, { events: { data: [{ type: 'event', id: '424242' }] } }), 404],
      ],
      'POST',
      '/v1/groups',
    );
  });

  t.test('follows', async (t) => {
    const followDoc = (relationships: Record<string, unknown>) => ({
      data: { type: 'user-follow-group', relationships },
    });
    await refused(
      t,
      [
        ['no group', followDoc({}), 422, '/data/relationships/group'],
        ['a group that does not exist', followDoc({ group: rel('group', '424242') }), 404],
        ['a group id that is no id', followDoc({ group: rel('group', 'abc') }), 404],
        ['a second follow', followDoc({ group: rel('group', group) }), 409, '/data/relationships/group'],
        [
          'an attribute',
          {
            data: {
              type: 'user-follow-group',
              attributes: { 'created-at': '2020-01-01T00:00:00Z' },
              relationships: { group: rel('group', group) },
            },
          },
          422,
          at('created-at'),
        ],
      ],
      'POST',
      '/v1/user-follow-groups',
    );
    await refused(
      t,
      [
        [
          'moving a follow to another group',
          { data: { type: 'user-follow-group', id: follow, relationships: { group: rel('group', other) } } },
          422,
          '/data/relationships/group',
        ],
      ],
      'PATCH',
      `/v1/user-follow-groups/${follow}`,
    );
  });
});

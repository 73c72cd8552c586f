/**
 * open-event-frontend:app/routes/public.js:16-18: the public event page loads the event with
 * `include=social-links,event-copyright,speakers-call,tax,owner,organizers,video-stream,custom-forms,group,group.followers,group.followers.user`,
 * then asks `GET /v1/events/{id}/has-streams` (app/controllers/public.js:201-205, app/services/event.ts:16-26)
 * before it offers the join button: `{exists, can_access}`.
 * The page is read here with that exact include (speakers call and tax are the subject of
 * routes-public-index.test.ts); this file looks at the video stream and the group chain.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { completeOrder, create, createCast, createEvent, fillEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { speakersCallAttributes, taxAttributes } from '../helpers/ticket-bodies.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Stream Conf', 'published');
await fillEvent(app, cast, event);
const visitor = frontEnd(base);
const follower = await seedUser(app);

// The owner verifies the address (groups need it), makes a group and puts the event in it.
await app.sql`update users set is_verified = true where id = ${Number(cast.owner.id)}`;
const group = await create(
  app,
  cast.owner.token,
  'groups',
  'group',
  { name: 'Summits', about: 'Yearly', 'social-links': [] },
  {},
);
const patched = await call(app, {
  method: 'PATCH',
  url: `/v1/events/${event}`,
  token: cast.owner.token,
  body: { data: { type: 'event', id: event, relationships: { group: rel('group', group) } } },
});
if (patched.status !== 200) throw new Error(`event group: ${patched.status} ${JSON.stringify(patched.body)}`);
const stream = await create(
  app,
  cast.owner.token,
  'video-streams',
  'video-stream',
  { name: 'Main', url: 'https://meet.example.org/main', password: 's3cret' },
  { event: rel('event', event) },
);
await create(
  app,
  follower.token,
  'user-follow-groups',
  'user-follow-group',
  {},
  { group: rel('group', group), user: rel('user', follower.id) },
);

await create(app, cast.owner.token, 'taxes', 'tax', taxAttributes({ 'tax-id': 'DE999' }), {
  event: rel('event', event),
});
await create(app, cast.owner.token, 'speakers-calls', 'speakers-call', speakersCallAttributes({}), {
  event: rel('event', event),
});

const PUBLIC_INCLUDE =
  'social-links,event-copyright,speakers-call,tax,owner,organizers,video-stream,custom-forms,group,group.followers,group.followers.user';

t.test(
  'the public page include: the stream without what it takes to join, the group without its followers',
  async (t) => {
    const res = await visitor.adapter('GET', `/v1/events/${identifier}`, { query: { include: PUBLIC_INCLUDE } });
    t.equal(res.status, 200);
    t.strictSame(res.body.data.relationships['video-stream'].data, { type: 'video-stream', id: stream });
    t.strictSame(res.body.data.relationships.group.data, { type: 'group', id: group });
    const byType = (type: string) => res.body.included.filter((r: { type: string }) => r.type === type);
    t.equal(byType('speakers-call').length, 1, 'the speakers call');
    t.equal(byType('tax').length, 1, 'the tax');
    t.notOk('tax-id' in byType('tax')[0].attributes, 'without its invoicing details');
    const [s] = byType('video-stream');
    t.match(s.attributes, { name: 'Main', 'chat-room-name': `Main-${stream}`, 'is-chat-enabled': false });
    t.notOk(
      'url' in s.attributes || 'password' in s.attributes || 'extra' in s.attributes,
      'no url, password or extra for a visitor',
    );
    const [g] = byType('group');
    t.match(g.attributes, { name: 'Summits', 'follower-count': 1, 'is-promoted': false });
    t.strictSame(g.relationships.followers.data, [], 'a visitor sees no follower');
    t.strictSame(byType('user-follow-group'), []);
    t.strictSame(
      byType('user').map((u: { id: string }) => u.id),
      [],
      'no user record for a visitor',
    );
  },
);

t.test('has-streams: whether the event streams, and who may join (app/controllers/public.js:201-205)', async (t) => {
  const buyer = await seedUser(app);
  const order = await create(
    app,
    buyer.token,
    'orders',
    'order',
    { amount: 0, attendees: [{ name: 'Bo', email: 'bo@example.org' }] },
    { event: rel('event', event) },
  );
  await completeOrder(app, cast.owner.token, order);
  const pending = await seedUser(app);
  await create(
    app,
    pending.token,
    'orders',
    'order',
    { amount: 0, attendees: [{ name: 'Al', email: 'al@example.org' }] },
    { event: rel('event', event) },
  );
  const asks = async (token?: string) => {
    const res = await frontEnd(base, token).loader('GET', `/v1/events/${event}/has-streams`);
    t.equal(res.status, 200);
    return res.body;
  };
  t.strictSame(await asks(), { exists: true, can_access: false }, 'a visitor');
  t.strictSame(await asks(cast.other.token), { exists: true, can_access: false }, 'a signed-in stranger');
  t.strictSame(await asks(pending.token), { exists: true, can_access: false }, 'an unpaid order is not a ticket');
  t.strictSame(await asks(buyer.token), { exists: true, can_access: true }, 'a ticket buyer');
  t.strictSame(await asks(cast.speaker.token), { exists: true, can_access: true }, 'a speaker of an accepted session');
  t.strictSame(await asks(cast.coorganizer.token), { exists: true, can_access: true }, 'a coorganizer');
  const byIdentifier = await visitor.loader('GET', `/v1/events/${identifier}/has-streams`);
  t.strictSame(byIdentifier.body, { exists: true, can_access: false }, 'named by identifier, as the loader may');

  const { id: quiet } = await createEvent(app, cast, 'Quiet Conf', 'published');
  t.strictSame(
    (await visitor.loader('GET', `/v1/events/${quiet}/has-streams`)).body,
    { exists: false, can_access: false },
    'no stream',
  );
  const room = await create(
    app,
    cast.owner.token,
    'microlocations',
    'microlocation',
    { name: 'Side' },
    { event: rel('event', quiet) },
  );
  await create(
    app,
    cast.owner.token,
    'video-streams',
    'video-stream',
    { name: 'Side stream', url: 'https://meet.example.org/side' },
    { rooms: { data: [{ type: 'microlocation', id: room }] } },
  );
  t.strictSame(
    (await visitor.loader('GET', `/v1/events/${quiet}/has-streams`)).body,
    { exists: true, can_access: false },
    "a room's stream counts",
  );

  const { id: draft } = await createEvent(app, cast, 'Draft Conf', 'draft');
  t.equal(
    (await visitor.loader('GET', `/v1/events/${draft}/has-streams`)).status,
    404,
    'a draft does not exist for a visitor',
  );
  t.strictSame((await frontEnd(base, cast.organizer.token).loader('GET', `/v1/events/${draft}/has-streams`)).body, {
    exists: false,
    can_access: true,
  });
});

t.test('the organizers see and change what it takes to join', async (t) => {
  const organizer = frontEnd(base, cast.organizer.token);
  const res = await organizer.adapter('GET', `/v1/events/${identifier}`, { query: { include: 'video-stream' } });
  const s = res.body.included.find((r: { type: string }) => r.type === 'video-stream');
  t.match(s.attributes, {
    url: 'https://meet.example.org/main',
    password: 's3cret',
    extra: null,
    'additional-information': null,
  });
  // The chat panel's save (app/controllers/events/view/chat.js:31-34): every attr the stream was read with, changed flags.
  const attributes = { ...s.attributes, 'is-chat-enabled': true, 'is-global-event-room': true };
  const saved = await organizer.adapter('PATCH', `/v1/video-streams/${stream}`, {
    body: {
      data: {
        type: 'video-stream',
        id: stream,
        attributes,
        relationships: { event: { data: { type: 'event', id: event } } },
      },
    },
  });
  t.equal(saved.status, 200);
  t.match(saved.body.data.attributes, {
    'is-chat-enabled': true,
    'is-global-event-room': true,
    'chat-room-name': `Main-${stream}`,
  });
  const second = await organizer.adapter('POST', '/v1/video-streams', {
    body: {
      data: {
        type: 'video-stream',
        attributes: { name: 'Again', url: 'https://meet.example.org/again' },
        relationships: { event: { data: { type: 'event', id: event } } },
      },
    },
  });
  t.equal(second.status, 409, 'an event has one stream of its own');
  t.equal(second.body.errors[0].source.pointer, '/data/relationships/event');
});

/**
 * open-event-frontend:app/routes/public.js:16-18: the public event page loads the event with
 * `include=social-links,event-copyright,speakers-call,tax,owner,organizers,video-stream,custom-forms,group,group.followers,group.followers.user`,
 * then asks `GET /v1/events/{id}/has-streams` (app/controllers/public.js:201-205, app/services/event.ts:16-26)
 * before it offers the join button: `{exists, can_access}`.
 * The include paths speakers-call and tax belong to other resources (issue 21); this file covers the
 * video stream and the group chain, with the paths the service serves today.
 */
import t from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, createCast, createEvent, fillEvent, rel } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event, identifier } = await createEvent(app, cast, 'Stream Conf', 'published');
const records = await fillEvent(app, cast, event);
const owner = frontEnd(base, cast.owner.token);
const visitor = frontEnd(base);
const follower = await seedUser(app);

// The owner verifies the address (groups need it), makes a group and puts the event in it.
await app.sql`update users set is_verified = true where id = ${Number(cast.owner.id)}`;
const group = await create(app, cast.owner.token, 'groups', 'group', { name: 'Summits', about: 'Yearly', 'social-links': [] }, {});
const patched = await call(app, {
  method: 'PATCH',
  url: `/v1/events/${event}`,
  token: cast.owner.token,
  body: { data: { type: 'event', id: event, relationships: { group: rel('group', group) } } },
});
if (patched.status !== 200) throw new Error(`event group: ${patched.status} ${JSON.stringify(patched.body)}`);
const stream = await create(app, cast.owner.token, 'video-streams', 'video-stream', { name: 'Main', url: 'https://meet.example.org/main', password: 's3cret' }, { event: rel('event', event) });
await create(app, follower.token, 'user-follow-groups', 'user-follow-group', {}, { group: rel('group', group), user: rel('user', follower.id) });

const PUBLIC_INCLUDE = 'social-links,event-copyright,owner,organizers,video-stream,custom-forms,group,group.followers,group.followers.user';

t.test('the public page include: the stream without what it takes to join, the group without its followers', async (t) => {
  const res = await visitor.adapter('GET', `/v1/events/${identifier}`, { query: { include: PUBLIC_INCLUDE } });
  t.equal(res.status, 200);
  t.strictSame(res.body.data.relationships['video-stream'].data, { type: 'video-stream', id: stream });
  t.strictSame(res.body.data.relationships.group.data, { type: 'group', id: group });
  const byType = (type: string) => res.body.included.filter((r: { type: string }) => r.type === type);
  const [s] = byType('video-stream');
  t.match(s.attributes, { name: 'Main', 'chat-room-name': `Main-${stream}`, 'is-chat-enabled': false });
  t.notOk('url' in s.attributes || 'password' in s.attributes || 'extra' in s.attributes, 'no url, password or extra for a visitor');
  const [g] = byType('group');
  t.match(g.attributes, { name: 'Summits', 'follower-count': 1, 'is-promoted': false });
  t.strictSame(g.relationships.followers.data, [], 'a visitor sees no follower');
  t.strictSame(byType('user-follow-group'), []);
  t.strictSame(byType('user').map((u: { id: string }) => u.id), [], 'no user record for a visitor');
});

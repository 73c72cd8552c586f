/**
 * Groups as the Open Event front end uses them:
 * - open-event-frontend:app/routes/groups/create.js:15-17 makes `createRecord('group', {events: []})`; the settings
 *   form (app/components/forms/group/group-settings-form.js:55-59) sets `socialLinks = []` when unset and saves.
 *   The body is every non-readOnly attr of app/models/group.js:13-23 (name, about, logo-url, banner-url,
 *   modified-at, deleted-at, is-promoted (default false), follower-count, social-links; thumbnail-image-url and
 *   created-at are readOnly), and `events` (a hasMany without inverse: event.group is `inverse: null`, models/event.js:117).
 * - the events form (app/components/forms/group/group-events-form.js:30,101) pushes an event into `group.events` and saves.
 * - following (app/components/forms/group/group-view.js:74-78, group-card.js:57-61):
 *   `createRecord('user-follow-group', {group, user: currentUser}).save()`; unfollowing `follower.destroyRecord()`.
 *   app/models/user-follow-group.ts:7-9: relationships group and user, `createdAt` an untyped attr (unset: left out).
 * - the user's follows: `currentUser.query('followedGroups', {include: 'group,user'})` (app/routes/group-public.js:22-24)
 *   and the followed groups list (app/routes/my-groups/following.js:13-35).
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { createCast, createEvent } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const base = await listening(app);
const cast = await createCast(app);
const { id: event } = await createEvent(app, cast, 'Group Conf', 'published');
const owner = frontEnd(base, cast.owner.token);
const fan = await seedUser(app);
const fanClient = frontEnd(base, fan.token);
const stranger = frontEnd(base, cast.other.token);
await app.sql`update users set is_verified = true where id = ${Number(cast.owner.id)}`;

/** A group as ember-data serialises it (app/models/group.js:13-31). */
const groupBody = (
  attributes: Record<string, unknown>,
  events: string[],
  id?: string,
  more: Record<string, unknown> = {},
) => ({
  data: {
    ...(id ? { id } : {}),
    type: 'group',
    attributes: {
      name: null,
      about: null,
      'logo-url': null,
      'banner-url': null,
      'modified-at': null,
      'deleted-at': null,
      'is-promoted': false,
      'follower-count': null,
      'social-links': [],
      ...attributes,
    },
    relationships: { events: { data: events.map((e) => ({ type: 'event', id: e })) }, ...more },
  },
});

let group = '';
let saved: { attributes: Record<string, unknown> } | undefined;

t.test('a verified user creates a group as the settings form saves it', async (t) => {
  const res = await owner.adapter('POST', '/v1/groups', {
    body: groupBody({ name: 'Summits', about: 'Yearly summits' }, []),
  });
  t.equal(res.status, 201);
  group = res.body.data.id;
  saved = res.body.data;
  t.match(res.body.data.attributes, {
    name: 'Summits',
    'follower-count': 0,
    'is-promoted': false,
    'social-links': [],
    'thumbnail-image-url': null,
  });
  t.strictSame(res.body.data.relationships.user.data, { type: 'user', id: cast.owner.id }, 'the creator owns it');
});

t.test('an unverified user may not create one; nobody but administrators promotes one', async (t) => {
  const res = await stranger.adapter('POST', '/v1/groups', { body: groupBody({ name: 'Mine' }, []) });
  t.equal(res.status, 403);
  const promoted = await owner.adapter('POST', '/v1/groups', {
    body: groupBody({ name: 'Top', 'is-promoted': true }, []),
  });
  t.equal(promoted.status, 403);
  t.equal(promoted.body.errors[0].source.pointer, '/data/attributes/is-promoted');
});

t.test('the events form adds the event: the whole record saved back, with its events', async (t) => {
  const attributes: Record<string, unknown> = {
    ...saved!.attributes,
    'social-links': [{ name: 'Blog', link: 'https://blog.example.org', is_custom: true }],
  };
  delete attributes['thumbnail-image-url'];
  delete attributes['created-at'];
  const res = await owner.adapter('PATCH', `/v1/groups/${group}`, {
    body: groupBody(attributes, [event], group, { user: { data: { type: 'user', id: cast.owner.id } } }),
  });
  t.equal(res.status, 200);
  const listed = await owner.adapter('GET', `/v1/groups/${group}/events`);
  t.strictSame(
    listed.body.data.map((e: { id: string }) => e.id),
    [event],
  );
  const shown = await owner.adapter('GET', `/v1/events/${event}`, { query: { include: 'group' } });
  t.strictSame(shown.body.data.relationships.group.data, { type: 'group', id: group }, 'the event names its group');
  // Someone else's group cannot take the owner's event.
  await app.sql`update users set is_verified = true where id = ${Number(cast.other.id)}`;
  const theirs = await stranger.adapter('POST', '/v1/groups', { body: groupBody({ name: 'Grabbers' }, [event]) });
  t.equal(theirs.status, 403, "only the event's owner moves it into a group");
});

let follow = '';

t.test('following and unfollowing as the group view does', async (t) => {
  const res = await fanClient.adapter('POST', '/v1/user-follow-groups', {
    body: {
      data: {
        type: 'user-follow-group',
        attributes: {},
        relationships: { group: { data: { type: 'group', id: group } }, user: { data: { type: 'user', id: fan.id } } },
      },
    },
  });
  t.equal(res.status, 201);
  follow = res.body.data.id;
  t.match(res.body.data.attributes, { 'created-at': String });
  const again = await fanClient.adapter('POST', '/v1/user-follow-groups', {
    body: {
      data: {
        type: 'user-follow-group',
        attributes: {},
        relationships: { group: { data: { type: 'group', id: group } }, user: { data: { type: 'user', id: fan.id } } },
      },
    },
  });
  t.equal(again.status, 409, 'a second follow');
  const forOther = await stranger.adapter('POST', '/v1/user-follow-groups', {
    body: {
      data: {
        type: 'user-follow-group',
        relationships: { group: { data: { type: 'group', id: group } }, user: { data: { type: 'user', id: fan.id } } },
      },
    },
  });
  t.equal(forOther.status, 403, 'nobody follows for someone else');
  const counted = await fanClient.adapter('GET', `/v1/groups/${group}`, {
    query: { include: 'followers,user,follower' },
  });
  t.equal(counted.body.data.attributes['follower-count'], 1);
  t.strictSame(
    counted.body.data.relationships.follower.data,
    { type: 'user-follow-group', id: follow },
    "the caller's own follow",
  );
  t.strictSame(
    counted.body.data.relationships.followers.data,
    [{ type: 'user-follow-group', id: follow }],
    'the follower sees their follow',
  );
  t.notOk(
    counted.body.included.some((r: { type: string }) => r.type === 'user'),
    "the owner's user record stays private",
  );
});

t.test("the user's follows and the followed groups list", async (t) => {
  const mine = await fanClient.adapter('GET', `/v1/users/${fan.id}/followed-groups`, {
    query: { include: 'group,user' },
  });
  t.equal(mine.status, 200);
  t.strictSame(
    mine.body.data.map((f: { id: string }) => f.id),
    [follow],
  );
  t.ok(mine.body.included.some((r: { type: string; id: string }) => r.type === 'group' && r.id === group));
  const filter = [
    { name: 'followers', op: 'any', val: { name: 'user', op: 'has', val: { name: 'id', op: 'eq', val: fan.id } } },
  ];
  const following = await fanClient.adapter('GET', '/v1/groups', {
    query: { include: 'follower,user,events', filter, 'page[size]': 10, 'page[number]': 1 },
  });
  t.equal(following.status, 200);
  t.strictSame(
    following.body.data.map((g: { id: string }) => g.id),
    [group],
  );
  const theirs = await stranger.adapter('GET', `/v1/users/${fan.id}/followed-groups`);
  t.equal(theirs.status, 403, "another user's follows");
  const owned = await owner.adapter('GET', `/v1/users/${cast.owner.id}/groups`, {
    query: { include: 'follower,user,events', 'page[size]': 10, 'page[number]': 1 },
  });
  t.strictSame(
    owned.body.data.map((g: { id: string }) => g.id),
    [group],
    'my groups (app/routes/my-groups/list.js:13-22)',
  );
});

t.test('the public event page: the group chain as the follower, the owner and a visitor see it', async (t) => {
  const include = 'owner,organizers,video-stream,custom-forms,group,group.followers,group.followers.user';
  const seen = async (client: ReturnType<typeof frontEnd>) => {
    const res = await client.adapter('GET', `/v1/events/${event}`, { query: { include } });
    t.equal(res.status, 200);
    return res.body.included
      .filter((r: { type: string }) => r.type === 'user-follow-group' || r.type === 'user')
      .map((r: { type: string; id: string }) => `${r.type} ${r.id}`)
      .sort();
  };
  t.strictSame(
    await seen(fanClient),
    [`user ${fan.id}`, `user-follow-group ${follow}`],
    'the follower: their follow and their own record',
  );
  t.ok((await seen(owner)).includes(`user-follow-group ${follow}`), "the group's owner sees who follows");
  t.notOk((await seen(owner)).includes(`user ${fan.id}`), "but not the follower's private record");
  t.strictSame(await seen(frontEnd(base)), [], 'a visitor sees no follower and no user');
});

t.test('unfollowing: the follow is gone and the count goes down', async (t) => {
  const res = await fanClient.adapter('DELETE', `/v1/user-follow-groups/${follow}`);
  t.equal(res.status, 200);
  const group1 = await fanClient.adapter('GET', `/v1/groups/${group}`, { query: { include: 'follower' } });
  t.equal(group1.body.data.attributes['follower-count'], 0);
  t.equal(group1.body.data.relationships.follower.data, null);
});

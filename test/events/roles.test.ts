/**
 * Event roles through /v1/events/{id}/relationships/organizers|coorganizers: only the owner (or an
 * administrator) manages them, and rights follow the linkage at once, both ways.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { create, createCast, eventAttributes, rel } from '../helpers/events.js';
import { expectError, seedUser, type TestUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const owner = cast.owner.token;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const users = (...list: TestUser[]) => list.map((u) => ({ type: 'user', id: u.id }));
const roles = (method: Method, event: string, name: string, token?: string, data?: unknown) =>
  call(app, {
    method,
    url: `/v1/events/${event}/relationships/${name}`,
    token,
    ...(data !== undefined ? { body: { data } } : {}),
  });
/** Linkage lists users in id order. */
const byId = (list: { type: string; id: string }[]) => [...list].sort((a, b) => Number(a.id) - Number(b.id));
const linkageDoc = (event: string, name: string, data: unknown) => ({
  links: { self: `/v1/events/${event}/relationships/${name}`, related: `/v1/events/${event}/${name}` },
  data,
  jsonapi: { version: '1.0' },
});

/** A draft event of the cast's owner with no roles, and a track under it. */
async function draftEvent(name: string) {
  const event = await create(app, owner, 'events', 'event', eventAttributes(name, 'draft'));
  const track = await create(
    app,
    owner,
    'tracks',
    'track',
    { name: 'T', color: '#000000' },
    { event: rel('event', event) },
  );
  return { event, track };
}

/** What a user may do with the draft: see it (200/404) and edit its track (200/403/404). */
async function rights(user: TestUser, event: string, track: string) {
  const see = (await call(app, { url: `/v1/events/${event}`, token: user.token })).status;
  const listed = (await call(app, { url: '/v1/events?page[size]=100', token: user.token })).body.data.some(
    (e: { id: string }) => e.id === event,
  );
  const edit = (
    await call(app, {
      method: 'PATCH',
      url: `/v1/tracks/${track}`,
      token: user.token,
      body: { data: { type: 'track', id: track, attributes: { name: `by ${user.id}` } } },
    })
  ).status;
  return { see, listed, edit };
}
const NONE = { see: 404, listed: false, edit: 404 };
const FULL = { see: 200, listed: true, edit: 200 };

t.test('the owner adds and removes an organizer, whose rights follow at once', async (t) => {
  const { event, track } = await draftEvent('Organized');
  const newcomer = await seedUser(app);
  const empty = await roles('GET', event, 'organizers', owner);
  assertDocument(t, empty, 200);
  t.strictSame(empty.body, linkageDoc(event, 'organizers', []));
  t.same(await rights(newcomer, event, track), NONE, 'before: nothing');

  const added = await roles('POST', event, 'organizers', owner, users(newcomer));
  assertDocument(t, added, 200);
  t.strictSame(added.body, linkageDoc(event, 'organizers', users(newcomer)));
  t.same(await rights(newcomer, event, track), FULL, 'after POST: sees the draft and edits its records');
  t.strictSame(
    (await roles('GET', event, 'organizers', newcomer.token)).body,
    linkageDoc(event, 'organizers', users(newcomer)),
  );
  const again = await roles('POST', event, 'organizers', owner, users(newcomer, cast.organizer));
  t.strictSame(again.body.data, byId(users(newcomer, cast.organizer)), 'POST adds; one already linked stays once');

  const removed = await roles('DELETE', event, 'organizers', owner, users(newcomer));
  assertDocument(t, removed, 200);
  t.strictSame(removed.body, linkageDoc(event, 'organizers', users(cast.organizer)));
  t.same(await rights(newcomer, event, track), NONE, 'after DELETE: nothing again');
  t.same(await rights(cast.organizer, event, track), FULL, 'the other organizer keeps their rights');

  const replaced = await roles('PATCH', event, 'organizers', owner, users(newcomer));
  t.strictSame(replaced.body, linkageDoc(event, 'organizers', users(newcomer)), 'PATCH replaces the list');
  t.same(await rights(newcomer, event, track), FULL);
  t.same(await rights(cast.organizer, event, track), NONE, 'the replaced organizer lost their rights');

  const cleared = await roles('PATCH', event, 'organizers', owner, []);
  t.strictSame(cleared.body, linkageDoc(event, 'organizers', []));
  t.same(await rights(newcomer, event, track), NONE);
});

t.test('coorganizers: added and removed the same way; they edit but neither delete nor manage roles', async (t) => {
  const { event, track } = await draftEvent('Cooperative');
  const co = await seedUser(app);
  t.same(await rights(co, event, track), NONE);
  const added = await roles('POST', event, 'coorganizers', owner, users(co));
  t.strictSame(added.body, linkageDoc(event, 'coorganizers', users(co)));
  t.same(await rights(co, event, track), FULL, 'a coorganizer sees the draft and edits its records');
  t.strictSame((await roles('GET', event, 'organizers', owner)).body.data, [], 'coorganizers are not organizers');

  const edit = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token: co.token,
    body: { data: { type: 'event', id: event, attributes: { name: 'Edited by co' } } },
  });
  t.equal(edit.status, 200, 'a coorganizer edits the event');
  const sponsor = await call(app, {
    method: 'POST',
    url: '/v1/sponsors',
    token: co.token,
    body: { data: { type: 'sponsor', attributes: { name: 'Co Ltd' }, relationships: { event: rel('event', event) } } },
  });
  t.equal(sponsor.status, 201, 'and creates records');
  t.equal(
    (await call(app, { method: 'DELETE', url: `/v1/sponsors/${sponsor.body.data.id}`, token: co.token })).status,
    200,
    'and deletes them',
  );

  for (const name of ['organizers', 'coorganizers'])
    for (const method of ['POST', 'PATCH', 'DELETE'] as const)
      expectError(
        t,
        await roles(method, event, name, co.token, name === 'coorganizers' && method === 'PATCH' ? [] : users(co)),
        403,
      );
  // The front end sends every loaded role list back on each save of the event: the same list is no change.
  t.equal(
    (await roles('PATCH', event, 'coorganizers', co.token, users(co))).status,
    200,
    'an unchanged role list is no change',
  );
  const viaDocument = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token: co.token,
    body: { data: { type: 'event', id: event, relationships: { organizers: { data: users(co) } } } },
  });
  expectError(t, viaDocument, 403);
  expectError(t, await call(app, { method: 'DELETE', url: `/v1/events/${event}`, token: co.token }), 403);
  t.equal((await call(app, { url: `/v1/events/${event}`, token: owner })).status, 200, 'the event survives');
  t.strictSame((await roles('GET', event, 'coorganizers', owner)).body.data, users(co), 'the roles are unchanged');

  const identifier = (await call(app, { url: `/v1/events/${event}`, token: owner })).body.data.attributes.identifier;
  const removed = await roles('DELETE', identifier, 'coorganizers', owner, users(co));
  t.strictSame(removed.body, linkageDoc(event, 'coorganizers', []), 'by identifier too');
  t.same(await rights(co, event, track), NONE, 'removed: nothing');
});

t.test('organizers delete the event but do not manage roles; administrators do both', async (t) => {
  const { event } = await draftEvent('Managed');
  await roles('POST', event, 'organizers', owner, users(cast.organizer));
  const outsider = await seedUser(app);
  for (const method of ['POST', 'PATCH', 'DELETE'] as const)
    expectError(t, await roles(method, event, 'coorganizers', cast.organizer.token, users(outsider)), 403);
  expectError(t, await roles('POST', event, 'organizers', undefined, users(outsider)), 404, {
    detail: 'Object not found.',
  });
  expectError(t, await roles('POST', event, 'organizers', outsider.token, users(outsider)), 404, {
    detail: 'Object not found.',
  });
  expectError(t, await roles('GET', event, 'organizers', outsider.token), 404);
  t.strictSame((await roles('GET', event, 'coorganizers', owner)).body.data, [], 'nothing was written');

  const byAdmin = await roles('POST', event, 'coorganizers', cast.admin.token, users(outsider, cast.coorganizer));
  assertDocument(t, byAdmin, 200);
  t.strictSame(
    byAdmin.body,
    linkageDoc(event, 'coorganizers', byId(users(outsider, cast.coorganizer))),
    'an administrator manages roles; linkage lists the user ids',
  );
  expectError(t, await roles('POST', event, 'coorganizers', owner, [{ type: 'user', id: '999999' }]), 404);

  const deleted = await call(app, { method: 'DELETE', url: `/v1/events/${event}`, token: cast.organizer.token });
  t.equal(deleted.status, 200, 'an organizer deletes the event');
});

t.test('on a published event, unrelated users read the linkage but may not change it', async (t) => {
  const event = await create(app, owner, 'events', 'event', eventAttributes('Open'), {
    organizers: { data: users(cast.organizer) },
    coorganizers: { data: users(cast.coorganizer) },
  });
  t.strictSame((await roles('GET', event, 'organizers')).body, linkageDoc(event, 'organizers', users(cast.organizer)));
  t.strictSame(
    (await roles('GET', event, 'coorganizers')).body,
    linkageDoc(event, 'coorganizers', users(cast.coorganizer)),
  );
  expectError(t, await roles('POST', event, 'organizers', undefined, users(cast.other)), 401);
  expectError(t, await roles('POST', event, 'organizers', cast.other.token, users(cast.other)), 403);
  expectError(t, await roles('PATCH', event, 'coorganizers', cast.other.token, users(cast.other)), 403);

  const patched = await call(app, {
    method: 'PATCH',
    url: `/v1/events/${event}`,
    token: owner,
    body: { data: { type: 'event', id: event, relationships: { coorganizers: { data: users(cast.other) } } } },
  });
  t.equal(patched.status, 200, 'the owner may also set roles in the event document');
  t.strictSame((await roles('GET', event, 'coorganizers')).body.data, users(cast.other));
  t.strictSame((await roles('GET', event, 'organizers')).body.data, users(cast.organizer), 'roles not named stay');
});

t.test(
  "an event's role lists (/v1/events/{id}/coorganizers) show its team to the team, nothing to others",
  async (t) => {
    const { event } = await draftEvent('Team page');
    const co = await seedUser(app);
    await roles('POST', event, 'coorganizers', owner, users(co));
    const listed = async (token?: string) => {
      const res = await call(app, { url: `/v1/events/${event}/coorganizers`, token });
      assertDocument(t, res, 200);
      return res.body.data.map((u: { id: string }) => u.id);
    };
    t.strictSame(await listed(owner), [co.id], 'the owner sees the coorganizer');
    t.strictSame(await listed(co.token), [co.id], 'the coorganizer sees themself');
    t.strictSame(await listed(cast.admin.token), [co.id], 'administrators see every team');
    // The front end asks as anyone who opens the event; a draft is 404 to outsiders, a published one lists nobody.
    expectError(t, await call(app, { url: `/v1/events/${event}/coorganizers`, token: cast.other.token }), 404);
    await call(app, {
      method: 'PATCH',
      url: `/v1/events/${event}`,
      token: owner,
      body: { data: { type: 'event', id: event, attributes: { state: 'published' } } },
    });
    t.strictSame(await listed(cast.other.token), [], 'an outsider: nobody');
    t.strictSame(await listed(undefined), [], 'anonymous: nobody');
  },
);

/**
 * open-event-frontend `app/routes/events/view.js:17`: the organizer dashboard loads the event with its
 * role lists included (owner, organizers, coorganizers, track-organizers, registrars, moderators; the
 * other paths of that include belong to other resources), and every later `event.save()` sends the loaded
 * to-many lists of users back (`app/serializers/application.js:16-35`: hasMany written when loaded), changed
 * or not. Only the owner changes who holds a role; an unchanged list is no change.
 */
import t from 'tap';
import { buildTestApp } from '../helpers/app.js';
import { create, createCast, eventAttributes } from '../helpers/events.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';

const { app } = await buildTestApp(t);
const cast = await createCast(app);
const base = await listening(app);
const event = await create(app, cast.owner.token, 'events', 'event', eventAttributes('Dashboard', 'draft'), {
  organizers: { data: [{ type: 'user', id: cast.organizer.id }] },
  coorganizers: { data: [{ type: 'user', id: cast.coorganizer.id }] },
});
const INCLUDE = 'owner,organizers,coorganizers,track-organizers,registrars,moderators';
const LISTS = ['organizers', 'coorganizers', 'track-organizers', 'registrars', 'moderators'] as const;

/** What a save sends back of the relationships the dashboard loaded: each list as read, `owner` too. */
function saved(
  read: { id: string; relationships: Record<string, { data: unknown }> },
  change: Record<string, string[]> = {},
) {
  const relationships: Record<string, unknown> = { owner: { data: read.relationships.owner!.data } };
  for (const name of LISTS)
    relationships[name] = {
      data: change[name] ? change[name]!.map((id) => ({ type: 'user', id })) : read.relationships[name]!.data,
    };
  return { data: { type: 'event', id: read.id, attributes: { name: 'Dashboard' }, relationships } };
}

t.test('the dashboard reads the role lists and saves them back', async (t) => {
  const coorganizer = frontEnd(base, cast.coorganizer.token);
  const read = await coorganizer.adapter('GET', `/v1/events/${event}`, { query: { include: INCLUDE } });
  t.equal(read.status, 200);
  for (const name of LISTS) t.ok(Array.isArray(read.body.data.relationships[name].data), `${name} linkage loaded`);
  t.strictSame(read.body.data.relationships.coorganizers.data, [{ type: 'user', id: cast.coorganizer.id }]);

  const same = await coorganizer.adapter('PATCH', `/v1/events/${event}`, { body: saved(read.body.data) });
  t.equal(same.status, 200, 'a coorganizer saves the event with the lists unchanged');
  const grab = await coorganizer.adapter('PATCH', `/v1/events/${event}`, {
    body: saved(read.body.data, { registrars: [cast.coorganizer.id] }),
  });
  t.equal(grab.status, 403, 'but changes no list');

  const owner = frontEnd(base, cast.owner.token);
  const add = await owner.adapter('PATCH', `/v1/events/${event}`, {
    body: saved(read.body.data, {
      'track-organizers': [cast.other.id],
      registrars: [cast.speaker.id],
      moderators: [cast.other.id, cast.speaker.id],
    }),
  });
  t.equal(add.status, 200);
  const after = await owner.adapter('GET', `/v1/events/${event}`, { query: { include: INCLUDE } });
  const ids = (name: string) => after.body.data.relationships[name].data.map((u: { id: string }) => u.id).sort();
  t.strictSame(ids('track-organizers'), [cast.other.id]);
  t.strictSame(ids('registrars'), [cast.speaker.id]);
  t.strictSame(ids('moderators'), [cast.other.id, cast.speaker.id].sort());

  // Each new role sees the draft, changes nothing, and reads no private data (the event's orders).
  const other = frontEnd(base, cast.other.token);
  t.equal((await other.adapter('GET', `/v1/events/${event}`)).status, 200);
  t.equal((await other.adapter('DELETE', `/v1/events/${event}`)).status, 403);
  t.equal((await other.adapter('GET', `/v1/events/${event}/orders`)).status, 403);
  const me = await other.adapter('GET', `/v1/users/${cast.other.id}`);
  t.match(me.body.data.attributes, {
    'is-user-track-organizer': true,
    'is-user-moderator': true,
    'is-user-registrar': false,
    'is-user-coorganizer': false,
  });
  t.strictSame(me.body.data.relationships['marketer-events'].links, {
    self: `/v1/users/${cast.other.id}/relationships/marketer-events`,
    related: `/v1/users/${cast.other.id}/marketer-events`,
  });
  t.strictSame((await other.adapter('GET', `/v1/users/${cast.other.id}/marketer-events`)).body.data, []);

  // A user sent back with the flags it read (is-user-* are read-only) saves; a changed flag is refused.
  const attrs = me.body.data.attributes;
  const flags = Object.fromEntries(Object.entries(attrs).filter(([k]) => k.startsWith('is-user-')));
  const put = (a: Record<string, unknown>) =>
    other.adapter('PATCH', `/v1/users/${cast.other.id}`, {
      body: { data: { type: 'user', id: cast.other.id, attributes: a } },
    });
  t.equal((await put({ ...flags, 'first-name': 'Ola' })).status, 200);
  t.equal((await put({ 'is-user-owner': true })).status, 422);

  // "My events" (app/routes/events/list.js:86): include roles.role,roles.user.
  const mine = await other.adapter('GET', `/v1/users/${cast.other.id}/events`, {
    query: { include: 'roles.role,roles.user' },
  });
  t.equal(mine.status, 200);
  t.strictSame(
    mine.body.data.map((e: { id: string }) => e.id),
    [event],
  );
  const roles = mine.body.included.filter((r: { type: string }) => r.type === 'users-events-roles');
  t.strictSame(
    roles.map((r: { relationships: { role: { data: { id: string } } } }) => r.relationships.role.data.id).sort(),
    ['moderator', 'track_organizer'],
    'a track organizer reads only their own roles of the event',
  );
  const owners = await owner.adapter('GET', `/v1/users/${cast.owner.id}/events`, {
    query: { include: 'roles.role,roles.user' },
  });
  const all = owners.body.included.filter((r: { type: string }) => r.type === 'users-events-roles');
  t.equal(
    all.length,
    7,
    'the owner reads every role: owner, organizer, coorganizer, track organizer, registrar, two moderators',
  );
});

/**
 * The event role permissions are enforced: the writes of tracks, sessions, speakers, sponsors and microlocations
 * follow the `permissions` rows, and an administrator's change of a row holds from the next request on.
 */
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { eventRoles } from '../../db/schema/index.js';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, rel } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const { cast } = world;
const event = world.published.event;
const [moderator, trackOrganizer] = [await seedUser(app), await seedUser(app)];
await app.db.insert(eventRoles).values([
  { eventId: Number(event), userId: Number(moderator.id), role: 'moderator' },
  { eventId: Number(event), userId: Number(trackOrganizer.id), role: 'track_organizer' },
]);

/** The id of the permission row of `role` and `service`, read as the admin page reads them. */
async function permissionOf(app: FastifyInstance, role: string, service: string): Promise<string> {
  const res = await call(app, {
    url: '/v1/event-role-permissions?page[size]=0&include=role,service',
    token: cast.admin.token,
  });
  const services = new Map<string, string>(
    res.body.included.filter((r: any) => r.type === 'service').map((r: any) => [r.id, r.attributes.name]),
  );
  const row = res.body.data.find(
    (r: any) => r.relationships.role.data.id === role && services.get(r.relationships.service.data.id) === service,
  );
  return row.id as string;
}

const setRight = async (role: string, service: string, right: string, value: boolean) => {
  const id = await permissionOf(app, role, service);
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/event-role-permissions/${id}`,
    token: cast.admin.token,
    body: { data: { type: 'event-role-permissions', id, attributes: { [right]: value } } },
  });
  t.equal(res.status, 200, `admin sets ${role} ${service} ${right} = ${value}`);
};

const post = (token: string, path: string, type: string, attributes: Record<string, unknown>) =>
  call(app, {
    method: 'POST',
    url: `/v1/${path}`,
    token,
    body: { data: { type, attributes, relationships: { event: rel('event', event) } } },
  });
const patch = (token: string, path: string, type: string, id: string, attributes: Record<string, unknown>) =>
  call(app, { method: 'PATCH', url: `/v1/${path}/${id}`, token, body: { data: { type, id, attributes } } });

t.test('the seeds: thirty rows, one per event role and service, as the reference decorators allow', async (t) => {
  const res = await call(app, { url: '/v1/event-role-permissions?page[size]=35&include=role,service' });
  assertDocument(t, res, 200);
  t.equal(res.body.meta.count, 30, 'six roles times five services');
  const services = new Map(
    res.body.included.filter((r: any) => r.type === 'service').map((r: any) => [r.id, r.attributes.name]),
  );
  const rights = (role: string, service: string) => {
    const row = res.body.data.find(
      (r: any) => r.relationships.role.data.id === role && services.get(r.relationships.service.data.id) === service,
    );
    return row.attributes;
  };
  const all = { 'can-create': true, 'can-read': true, 'can-update': true, 'can-delete': true };
  const readOnly = { 'can-create': false, 'can-read': true, 'can-update': false, 'can-delete': false };
  t.same(rights('coorganizer', 'session'), all);
  t.same(rights('track_organizer', 'track'), all);
  t.same(rights('track_organizer', 'sponsor'), readOnly);
  t.same(rights('moderator', 'session'), readOnly);
  t.same(rights('registrar', 'microlocation'), readOnly);
  t.equal(res.body.data[0].type, 'event-role-permissions', "the reference's type");
});

t.test('a track organizer writes tracks, nothing else, as the seeds say', async (t) => {
  const track = await post(trackOrganizer.token, 'tracks', 'track', { name: 'Data', color: '#112233' });
  assertDocument(t, track, 201);
  assertDocument(
    t,
    await patch(trackOrganizer.token, 'tracks', 'track', track.body.data.id, { name: 'Big data' }),
    200,
  );
  expectError(t, await post(trackOrganizer.token, 'sponsors', 'sponsor', { name: 'X', level: 1 }), 403, {
    detail: 'Your role in the event may not create its sponsors',
  });
  expectError(t, await patch(trackOrganizer.token, 'sponsors', 'sponsor', world.published.sponsor, { name: 'Y' }), 403);
  assertDocument(
    t,
    await call(app, { method: 'DELETE', url: `/v1/tracks/${track.body.data.id}`, token: trackOrganizer.token }),
    200,
  );
});

t.test("taking coorganizers' update of tracks refuses their PATCH at once; giving it back allows it", async (t) => {
  const edit = () => patch(cast.coorganizer.token, 'tracks', 'track', world.published.track, { name: 'Web 2' });
  assertDocument(t, await edit(), 200);
  await setRight('coorganizer', 'track', 'can-update', false);
  expectError(t, await edit(), 403, { detail: 'Your role in the event may not update its tracks' });
  assertDocument(t, await patch(cast.organizer.token, 'tracks', 'track', world.published.track, { name: 'W' }), 200);
  await setRight('coorganizer', 'track', 'can-update', true);
  assertDocument(t, await edit(), 200);
});

t.test('giving moderators the creation of sessions lets a moderator create one', async (t) => {
  const create = () => post(moderator.token, 'sessions', 'session', { title: 'Moderated', state: 'accepted' });
  // Without the right a moderator is a speaker submitting a session, which this event takes none of.
  const refused = { pointer: '/data/relationships/event', detail: /takes no speaker or session submissions/ };
  expectError(t, await create(), 403, refused);
  await setRight('moderator', 'session', 'can-create', true);
  const res = await create();
  assertDocument(t, res, 201);
  t.equal(res.body.data.attributes.state, 'accepted', "created through the organizers' door, in any organizer state");
  await setRight('moderator', 'session', 'can-create', false);
  expectError(t, await create(), 403, refused);
});

t.test('each service follows its own rows: create and delete of sponsors, microlocations, speakers', async (t) => {
  await setRight('coorganizer', 'sponsor', 'can-delete', false);
  const sponsor = await post(cast.coorganizer.token, 'sponsors', 'sponsor', { name: 'Beta', level: 2 });
  assertDocument(t, sponsor, 201);
  const remove = () =>
    call(app, { method: 'DELETE', url: `/v1/sponsors/${sponsor.body.data.id}`, token: cast.coorganizer.token });
  expectError(t, await remove(), 403, { detail: 'Your role in the event may not delete its sponsors' });
  await setRight('coorganizer', 'sponsor', 'can-delete', true);
  assertDocument(t, await remove(), 200);

  await setRight('coorganizer', 'microlocation', 'can-create', false);
  expectError(t, await post(cast.coorganizer.token, 'microlocations', 'microlocation', { name: 'Hall' }), 403);
  assertDocument(t, await post(cast.organizer.token, 'microlocations', 'microlocation', { name: 'Hall' }), 201);
  await setRight('coorganizer', 'microlocation', 'can-create', true);
  assertDocument(t, await post(cast.coorganizer.token, 'microlocations', 'microlocation', { name: 'Hall 2' }), 201);

  await setRight('organizer', 'speaker', 'can-update', false);
  const editSpeaker = () => patch(cast.organizer.token, 'speakers', 'speaker', world.published.speaker, { name: 'A' });
  expectError(t, await editSpeaker(), 403, { detail: 'Your role in the event may not update its speakers' });
  await setRight('organizer', 'speaker', 'can-update', true);
  assertDocument(t, await editSpeaker(), 200);
  // The event's owner holds the owner role too: taking the organizers' rights leaves the owner's.
  await setRight('organizer', 'speaker', 'can-update', false);
  assertDocument(t, await patch(cast.owner.token, 'speakers', 'speaker', world.published.speaker, { name: 'B' }), 200);
  await setRight('organizer', 'speaker', 'can-update', true);
});

t.test('administrators pass whatever the rows say; outsiders still find no draft (404)', async (t) => {
  await setRight('owner', 'track', 'can-create', false);
  assertDocument(t, await post(cast.admin.token, 'tracks', 'track', { name: 'Admin', color: '#000000' }), 201);
  expectError(t, await post(cast.owner.token, 'tracks', 'track', { name: 'Owner', color: '#000000' }), 403);
  await setRight('owner', 'track', 'can-create', true);
  const res = await call(app, {
    method: 'POST',
    url: '/v1/tracks',
    token: cast.other.token,
    body: {
      data: {
        type: 'track',
        attributes: { name: 'Nope', color: '#000000' },
        relationships: { event: rel('event', world.draft.event) },
      },
    },
  });
  expectError(t, res, 404);
});

t.test('who writes the permissions: administrators; nobody creates or deletes one', async (t) => {
  const id = await permissionOf(app, 'registrar', 'track');
  const body = { data: { type: 'event-role-permissions', id, attributes: { 'can-create': true } } };
  expectError(t, await call(app, { method: 'PATCH', url: `/v1/event-role-permissions/${id}`, body }), 401);
  for (const token of [cast.owner.token, cast.organizer.token]) {
    expectError(t, await call(app, { method: 'PATCH', url: `/v1/event-role-permissions/${id}`, token, body }), 403);
  }
  expectError(
    t,
    await call(app, { method: 'DELETE', url: `/v1/event-role-permissions/${id}`, token: cast.admin.token }),
    403,
  );
  const read = await call(app, { url: `/v1/event-role-permissions/${id}`, token: cast.organizer.token });
  assertDocument(t, read, 200);
  t.equal(read.body.data.attributes['can-create'], false, 'unchanged by the refused writes');
});

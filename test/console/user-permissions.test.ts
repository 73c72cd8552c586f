/**
 * The user permissions are enforced: create_event and publish_event decide what an account that has not verified
 * its address may do with events, from the next request after an administrator changes them.
 */
import { eq } from 'drizzle-orm';
import t from 'tap';
import { users } from '../../db/schema/index.js';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { eventAttributes } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const [admin, unverified, verified] = [await seedUser(app, { admin: true }), await seedUser(app), await seedUser(app)];
await app.db
  .update(users)
  .set({ isVerified: true })
  .where(eq(users.id, Number(verified.id)));

const permissions = async () => {
  const res = await call(app, { url: '/v1/user-permissions' });
  return new Map<string, string>(res.body.data.map((p: any) => [p.attributes.name, p.id]));
};
const setUnverified = async (name: string, value: boolean) => {
  const id = (await permissions()).get(name)!;
  const res = await call(app, {
    method: 'PATCH',
    url: `/v1/user-permissions/${id}`,
    token: admin.token,
    body: { data: { type: 'user-permission', id, attributes: { 'unverified-user': value } } },
  });
  t.equal(res.status, 200, `${name} unverified-user = ${value}`);
};
const createEvent = (token: string, state: 'draft' | 'published') =>
  call(app, {
    method: 'POST',
    url: '/v1/events',
    token,
    body: { data: { type: 'event', attributes: eventAttributes(`Event ${state}`, state) } },
  });
const publish = (token: string, id: string) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/events/${id}`,
    token,
    body: { data: { type: 'event', id, attributes: { state: 'published' } } },
  });

t.test('the seeds: both actions open to unverified accounts, readable by everyone', async (t) => {
  const res = await call(app, { url: '/v1/user-permissions?sort=name' });
  assertDocument(t, res, 200);
  t.same(
    res.body.data.map((p: any) => [p.attributes.name, p.attributes['unverified-user'], p.attributes['anonymous-user']]),
    [
      ['create_event', true, false],
      ['publish_event', true, false],
    ],
  );
  assertDocument(t, await createEvent(unverified.token, 'published'), 201);
});

t.test('create_event closed to unverified accounts: their event creation is refused, verified ones pass', async (t) => {
  await setUnverified('create_event', false);
  const before = await app.sql`select count(*)::int as n from events`;
  expectError(t, await createEvent(unverified.token, 'draft'), 403, { detail: 'Please verify your email' });
  const after = await app.sql`select count(*)::int as n from events`;
  t.equal(after[0]!.n, before[0]!.n, 'nothing written');
  assertDocument(t, await createEvent(verified.token, 'draft'), 201);
  await setUnverified('create_event', true);
  assertDocument(t, await createEvent(unverified.token, 'draft'), 201);
});

t.test('publish_event closed to unverified accounts: drafts yes, publishing no', async (t) => {
  const draft = await createEvent(unverified.token, 'draft');
  assertDocument(t, draft, 201);
  await setUnverified('publish_event', false);
  const refused = { pointer: '/data/attributes/state', detail: 'Only verified accounts can publish events' };
  expectError(t, await createEvent(unverified.token, 'published'), 403, refused);
  expectError(t, await publish(unverified.token, draft.body.data.id), 403, refused);
  assertDocument(t, await createEvent(unverified.token, 'draft'), 201);
  assertDocument(t, await createEvent(verified.token, 'published'), 201);
  await setUnverified('publish_event', true);
  assertDocument(t, await publish(unverified.token, draft.body.data.id), 200);
});

t.test('without its row an action is for verified accounts alone', async (t) => {
  const id = (await permissions()).get('create_event')!;
  const gone = await call(app, { method: 'DELETE', url: `/v1/user-permissions/${id}`, token: admin.token });
  assertDocument(t, gone, 200);
  expectError(t, await createEvent(unverified.token, 'draft'), 403, { detail: 'Please verify your email' });
  assertDocument(t, await createEvent(verified.token, 'draft'), 201);
  const back = await call(app, {
    method: 'POST',
    url: '/v1/user-permissions',
    token: admin.token,
    body: { data: { type: 'user-permission', attributes: { name: 'create_event', 'unverified-user': 'true' } } },
  });
  assertDocument(t, back, 201);
  assertDocument(t, await createEvent(unverified.token, 'draft'), 201);
});

t.test('only administrators write user permissions', async (t) => {
  const id = (await permissions()).get('publish_event')!;
  const body = { data: { type: 'user-permission', id, attributes: { 'unverified-user': false } } };
  expectError(t, await call(app, { method: 'PATCH', url: `/v1/user-permissions/${id}`, body }), 401);
  const token = verified.token;
  expectError(t, await call(app, { method: 'PATCH', url: `/v1/user-permissions/${id}`, token, body }), 403);
  const twin = await call(app, {
    method: 'POST',
    url: '/v1/user-permissions',
    token: admin.token,
    body: { data: { type: 'user-permission', attributes: { name: 'publish_event' } } },
  });
  expectError(t, twin, 409, { pointer: '/data/attributes/name' });
});

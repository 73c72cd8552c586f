import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { buildWorld, create, eventAttributes } from '../helpers/events.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const world = await buildWorld(app);
const [user, admin, superAdmin] = [
  await seedUser(app),
  await seedUser(app, { admin: true }),
  await seedUser(app, { superAdmin: true }),
];

const MAILS = '/v1/admin/statistics/mails';
const SESSIONS = '/v1/admin/statistics/sessions';
const EVENTS = '/v1/admin/statistics/events';
const USERS = '/v1/admin/statistics/users';
const GROUPS = '/v1/admin/statistics/groups';
const ALL = [EVENTS, USERS, GROUPS, MAILS, SESSIONS];
/** As the admin unless told; `null`: anonymous. */
const get = (url: string, token: string | null = admin.token) => call(app, { url, token: token ?? undefined });

const mailDocument = (attributes: Record<string, number>) => ({
  data: { type: 'admin-statistics-mail', id: '1', attributes, links: { self: MAILS } },
  links: { self: MAILS },
  jsonapi: { version: '1.0' },
});
const sessionDocument = (attributes: Record<string, number>) => ({
  data: { type: 'admin-statistics-session', id: '1', attributes, links: { self: SESSIONS } },
  links: { self: SESSIONS },
  jsonapi: { version: '1.0' },
});

/** The document of one statistic: `type` as the Open Event front end's model names it. */
const statistic = (url: string, type: string, attributes: Record<string, number>) => ({
  data: { type, id: '1', attributes, links: { self: url } },
  links: { self: url },
  jsonapi: { version: '1.0' },
});

t.test('permissions: anonymous 401, user 403, admin and super admin 200', async (t) => {
  for (const url of ALL) {
    expectError(t, await get(url, null), 401);
    expectError(t, await get(url, user.token), 403, { detail: 'Admin access is required' });
    assertDocument(t, await get(url, admin.token), 200);
    assertDocument(t, await get(url, superAdmin.token), 200);
  }
});

t.test('mail statistics count real sends by their sent_at window; pending and failed mails do not count', async (t) => {
  const zero = { 'one-day': 0, 'three-days': 0, 'seven-days': 0, 'thirty-days': 0 };
  const empty = await get(MAILS);
  assertDocument(t, empty, 200);
  t.strictSame(empty.body, mailDocument(zero), 'nothing sent yet');

  const ids: number[] = [];
  for (const n of [1, 2, 3, 4, 5]) {
    const result = await app.mailer.send({
      to: { address: `r${n}@example.org` },
      subject: `Mail ${n}`,
      action: 'test-mail',
      text: 'x',
    });
    t.equal(result.status, 'sent', `mail ${n} written to the outbox`);
    ids.push(result.id!);
  }
  t.strictSame(
    (await get(MAILS)).body,
    mailDocument({ 'one-day': 5, 'three-days': 5, 'seven-days': 5, 'thirty-days': 5 }),
    'all sent now',
  );

  const ages = ['1 hour', '2 days', '5 days', '20 days', '40 days'];
  for (const [i, age] of ages.entries()) {
    await app.sql`update mails set sent_at = now() - ${age}::interval where id = ${ids[i]!}`;
  }
  // Recorded, but not sent: never counted, whatever their time stamps.
  await app.sql`
    insert into mails (recipient, subject, action, status, attempts, last_error, raw, sent_at) values
      ('p@example.org', 'Pending', 'test-mail', 'pending', 1, 'refused', ${Buffer.from('raw')}, now()),
      ('f@example.org', 'Failed', 'test-mail', 'failed', 3, 'refused', null, now() - interval '1 hour')`;

  const res = await get(MAILS);
  assertDocument(t, res, 200);
  t.strictSame(res.body, mailDocument({ 'one-day': 1, 'three-days': 2, 'seven-days': 3, 'thirty-days': 4 }));
  t.strictSame((await get(MAILS, superAdmin.token)).body, res.body, 'the same for a super admin');
});

t.test('session statistics count live sessions by state', async (t) => {
  const initial = await get(SESSIONS);
  assertDocument(t, initial, 200);
  // buildWorld: one accepted session in the published event and one in the draft event.
  t.strictSame(
    initial.body,
    sessionDocument({ confirmed: 0, accepted: 2, submitted: 0, draft: 0, rejected: 0, pending: 0 }),
  );

  const live = [world.published.event, world.draft.event];
  const states = [
    'confirmed',
    'confirmed',
    'confirmed',
    'submitted',
    'draft',
    'draft',
    'rejected',
    'pending',
    'canceled',
    'withdrawn',
  ];
  for (const [i, state] of states.entries()) {
    await app.sql`insert into sessions (event_id, title, state) values (${live[i % 2]!}, ${`Session ${i}`}, ${state})`;
  }
  // The published event's original session moves from accepted to rejected.
  await app.sql`update sessions set state = 'rejected' where id = ${world.published.session}`;
  // A soft-deleted session, and a live session of a soft-deleted event: neither counts.
  await app.sql`insert into sessions (event_id, title, state, deleted_at) values (${world.published.event}, 'Deleted', 'confirmed', now())`;
  const gone = await create(app, world.cast.owner.token, 'events', 'event', eventAttributes('Gone Event'));
  await app.sql`insert into sessions (event_id, title, state) values (${gone}, 'Of a deleted event', 'confirmed')`;
  await app.sql`insert into sessions (event_id, title, state) values (${gone}, 'Of a deleted event', 'accepted')`;
  const expected = { confirmed: 3, accepted: 1, submitted: 1, draft: 2, rejected: 2, pending: 1 };

  const beforeDelete = (await get(SESSIONS)).body.data.attributes;
  t.strictSame(beforeDelete, { ...expected, confirmed: 4, accepted: 2 }, 'the event still counts before it is deleted');
  await app.sql`update events set deleted_at = now() where id = ${gone}`;

  const res = await get(SESSIONS);
  assertDocument(t, res, 200);
  t.strictSame(res.body, sessionDocument(expected));
});

t.test('event statistics count live events: drafts and published ones not ended, and those ended', async (t) => {
  // buildWorld: one published and one draft event, moved to next month so that they have not ended whenever this runs.
  await app.sql`update events set starts_at = now() + interval '30 days', ends_at = now() + interval '32 days'`;
  t.strictSame(
    (await get(EVENTS)).body,
    statistic(EVENTS, 'admin-statistics-event', { draft: 1, published: 1, past: 0 }),
  );
  const owner = world.cast.owner.token;
  const past = await create(app, owner, 'events', 'event', {
    ...eventAttributes('Last Year'),
    'starts-at': '2020-05-01T09:00:00Z',
    'ends-at': '2020-05-02T09:00:00Z',
  });
  await create(app, owner, 'events', 'event', {
    ...eventAttributes('Old Draft', 'draft'),
    'starts-at': '2020-06-01T09:00:00Z',
    'ends-at': '2020-06-02T09:00:00Z',
  });
  const soon = {
    'starts-at': new Date(Date.now() + 86_400_000).toISOString(),
    'ends-at': new Date(Date.now() + 2 * 86_400_000).toISOString(),
  };
  await create(app, owner, 'events', 'event', { ...eventAttributes('Another Draft', 'draft'), ...soon });
  const gone = await create(app, owner, 'events', 'event', { ...eventAttributes('Gone'), ...soon });
  await app.sql`update events set deleted_at = now() where id = ${gone}`;
  t.strictSame(
    (await get(EVENTS)).body.data.attributes,
    { draft: 2, published: 1, past: 2 },
    'a deleted event does not count',
  );
  await app.sql`update events set deleted_at = now() where id = ${past}`;
  t.strictSame((await get(EVENTS)).body.data.attributes, { draft: 2, published: 1, past: 1 });
});

t.test('user statistics count live users by their flags, their event roles and the attendees of orders', async (t) => {
  const body = (await get(USERS)).body;
  // buildWorld's cast: an owner of both events, an organizer and a coorganizer of both, one admin, and two more
  // users (none verified); and this file's admins and user.
  t.strictSame(
    body,
    statistic(USERS, 'admin-statistics-user', {
      'super-admin': 1,
      admin: 2,
      verified: 0,
      unverified: 6,
      owner: 1,
      organizer: 1,
      coorganizer: 1,
      attendee: 0,
      'track-organizer': 0,
    }),
  );
  await app.sql`update users set is_verified = true where id = ${user.id}`;
  t.match(
    (await get(USERS)).body.data.attributes,
    { verified: 1, unverified: 5 },
    'a verified address moves the user over',
  );
  const buyer = await seedUser(app);
  const attendees = (emails: string[]) =>
    JSON.stringify(emails.map((email) => ({ firstname: 'A', lastname: 'B', email })));
  await app.sql`insert into orders (identifier, event_id, user_id, attendees) values
    ('order-a', ${world.published.event}, ${buyer.id}, ${attendees(['ada@example.org', 'bob@example.org'])}::jsonb),
    ('order-b', ${world.draft.event}, ${buyer.id}, ${attendees(['ADA@example.org', 'cy@example.org'])}::jsonb)`;
  t.equal(
    (await get(USERS)).body.data.attributes.attendee,
    3,
    'distinct attendee addresses, whatever their letter case',
  );
  const ghost = await seedUser(app, { admin: true });
  await app.sql`update users set deleted_at = now() where id = ${ghost.id}`;
  t.equal((await get(USERS)).body.data.attributes.admin, 2, 'a deleted administrator does not count');
});

t.test('group statistics count live groups, their follows and their live events', async (t) => {
  t.strictSame(
    (await get(GROUPS)).body,
    statistic(GROUPS, 'admin-statistics-group', { groups: 0, followers: 0, 'group-events': 0 }),
  );
  const owner = world.cast.owner.id;
  const [a, b, gone] = await app.sql<
    { id: number }[]
  >`insert into groups (name, user_id) values ('A', ${owner}), ('B', ${owner}), ('Gone', ${owner}) returning id`;
  await app.sql`update groups set deleted_at = now() where id = ${gone!.id}`;
  await app.sql`insert into user_follow_groups (group_id, user_id) values (${a!.id}, ${owner}), (${a!.id}, ${user.id}), (${b!.id}, ${owner}), (${gone!.id}, ${owner})`;
  await app.sql`update events set group_id = ${a!.id} where id = ${world.published.event}`;
  await app.sql`update events set group_id = ${gone!.id} where id = ${world.draft.event}`;
  t.strictSame(
    (await get(GROUPS)).body.data.attributes,
    { groups: 2, followers: 3, 'group-events': 1 },
    'what is in deleted groups does not count',
  );
});

t.test('the filter forms and other query parameters', async (t) => {
  for (const url of ALL) {
    const plain = await get(url);
    assertDocument(t, plain, 200);
    for (const val of [1, '"1"']) {
      const filter = encodeURIComponent(`[{"name":"id","op":"eq","val":${val}}]`);
      const res = await get(`${url}?filter=${filter}`);
      assertDocument(t, res, 200);
      t.strictSame(res.body, plain.body, `${url} filter val ${val}: the same document`);
    }
    expectError(t, await get(`${url}?filter=${encodeURIComponent('[{"name":"id","op":"eq","val":2}]')}`), 404);
    expectError(t, await get(`${url}?filter=${encodeURIComponent('[{"name":"id","op":"eq","val":"2"}]')}`), 404);
    for (const bad of [
      '[{"name":"state","op":"eq","val":1}]',
      '[{"name":"id","op":"ne","val":1}]',
      '[{"name":"id","op":"eq"}]',
      '[{"name":"id","op":"eq","val":null}]',
      'not json',
      '{"name":"id"',
    ]) {
      expectError(t, await get(`${url}?filter=${encodeURIComponent(bad)}`), 400, { parameter: 'filter' });
    }
    // As the Open Event front end sends it (app/routes/admin/index.js: queryRecord with filterOptions).
    const options = 'filterOptions%5Bname%5D=id&filterOptions%5Bop%5D=eq&filterOptions%5Bval%5D=1';
    t.strictSame((await get(`${url}?${options}`)).body, plain.body, `${url} filterOptions: the same document`);
    expectError(t, await get(`${url}?${options.replace('val%5D=1', 'val%5D=2')}`), 404);
    expectError(t, await get(`${url}?${options.replace('op%5D=eq', 'op%5D=ne')}`), 400, { parameter: 'filterOptions' });
    expectError(t, await get(`${url}?filterOptions%5Bname%5D=id`), 400, { parameter: 'filterOptions' });
    expectError(t, await get(`${url}?filterOptions%5Bother%5D=1`), 400, { parameter: 'filterOptions[other]' });
    expectError(t, await get(`${url}?unknown=1`), 400, { parameter: 'unknown' });
    expectError(t, await get(`${url}?page%5Bsize%5D=1`), 400, { parameter: 'page[size]' });
  }
});

/**
 * What a finished import leaves its requester: one `notification` (readable by them and admins only,
 * marked read or deleted by them alone, never created through the API), and the task at
 * /v1/tasks/{id}, which only the requester and admins may poll.
 */
import t from 'tap';
import { assertDocument, buildTestApp, call } from '../helpers/app.js';
import { create, eventAttributes } from '../helpers/events.js';
import { multipart } from '../helpers/images.js';
import { taskEnded } from '../helpers/service.js';
import { expectError, seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t, { ROLE: 'all' });
const [owner, importer, stranger, admin] = [
  await seedUser(app),
  await seedUser(app),
  await seedUser(app),
  await seedUser(app, { admin: true }),
];
const NAME = 'Bell Summit';

// An export of a small event by its owner, imported by another user.
const eventId = await create(app, owner.token, 'events', 'event', eventAttributes(NAME));
const started = await call(app, {
  method: 'POST',
  url: `/v1/events/${eventId}/export/json`,
  token: owner.token,
  body: {},
  headers: { 'content-type': 'application/json' },
});
const exportTaskUrl: string = started.body.task_url;
const exported = await taskEnded(app, exportTaskUrl, owner.token);
const zip = await app.inject({
  url: new URL(exported.result.download_url).pathname,
  headers: { authorization: `JWT ${owner.token}` },
});
const { payload, headers } = multipart([['file', 'event.zip', zip.rawPayload]]);
const importAsked = Date.now();
const posted = await app.inject({
  method: 'POST',
  url: '/v1/events/import/json',
  headers: { ...headers, authorization: `JWT ${importer.token}` },
  payload,
});
const taskUrl: string = posted.json().task_url;
const imported = await taskEnded(app, taskUrl, importer.token);
const taskId = taskUrl.split('/').pop()!;

const notificationsOf = async (userId: number) =>
  (
    await app.sql<
      { id: number; title: string; is_read: boolean }[]
    >`select id, title, is_read from notifications where user_id = ${userId} order by id`
  ).map((r) => ({ ...r }));
const [row] = await notificationsOf(Number(importer.id));
const id = String(row?.id);
const url = `/v1/notifications/${id}`;

// Every subtest is declared after the last top-level await: tap ends the file once none is pending.
t.test('the import succeeded', async (t) => {
  t.equal(exported.state, 'SUCCESS', 'the export succeeded');
  t.equal(posted.statusCode, 200, 'the import was accepted');
  t.match(taskUrl, /^\/v1\/tasks\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a task URL');
  t.equal(imported.state, 'SUCCESS', `SUCCESS (${JSON.stringify(imported.result)})`);
  t.equal(imported.result.event_name, NAME);
});

t.test('the requester has one notification naming the event', async (t) => {
  t.equal((await notificationsOf(Number(importer.id))).length, 1, 'one row for the requester');
  t.strictSame(await notificationsOf(Number(owner.id)), [], 'none for the exporting owner');
  const [newEvent] = await app.sql<
    { identifier: string }[]
  >`select identifier from events where id = ${Number(imported.result.id)}`;
  for (const list of [`/v1/users/${importer.id}/notifications`, '/v1/notifications']) {
    const res = await call(app, { url: list, token: importer.token });
    assertDocument(t, res, 200);
    t.equal(res.body.data.length, 1, `${list}: one notification`);
    const [n] = res.body.data;
    t.equal(n.type, 'notification');
    t.equal(n.id, id);
    t.strictSame(
      Object.keys(n.attributes).sort(),
      ['created-at', 'is-read', 'message', 'received-at', 'title'],
      'its attributes',
    );
    t.match(n.attributes.title, NAME, 'the title names the event');
    t.match(n.attributes.message, NAME, 'the message names the event');
    t.match(n.attributes.message, `/e/${newEvent!.identifier}`, 'the message holds the URL of the new event');
    t.equal(n.attributes['is-read'], false, 'unread');
    const created = Date.parse(n.attributes['created-at']);
    t.ok(
      created >= importAsked - 1000 && created <= Date.now() + 1000,
      `created by the import (${n.attributes['created-at']})`,
    );
  }
  const one = await call(app, { url, token: importer.token });
  assertDocument(t, one, 200);
  t.equal(one.body.data.id, id, 'the detail');
});

t.test('another user sees none of it; admins see it', async (t) => {
  const list = await call(app, { url: '/v1/notifications', token: stranger.token });
  assertDocument(t, list, 200);
  t.strictSame(list.body.data, [], 'no notifications of others in the list');
  expectError(t, await call(app, { url: `/v1/users/${importer.id}/notifications`, token: stranger.token }), 403);
  const detail = await call(app, { url, token: stranger.token });
  t.ok([403, 404].includes(detail.status), `the detail is refused (${detail.status})`);
  expectError(t, detail, detail.status === 403 ? 403 : 404);
  expectError(t, await call(app, { url: '/v1/notifications' }), 401);

  for (const path of ['/v1/notifications', `/v1/users/${importer.id}/notifications`]) {
    const res = await call(app, { url: path, token: admin.token });
    assertDocument(t, res, 200);
    t.ok(
      res.body.data.some((n: { id: string }) => n.id === id),
      `an admin sees it at ${path}`,
    );
  }
  const byAdmin = await call(app, { url, token: admin.token });
  assertDocument(t, byAdmin, 200);
  t.equal(byAdmin.body.data.attributes.title, row?.title, 'an admin reads the detail');
});

const patch = (token: string, attributes: Record<string, unknown>) =>
  call(app, { method: 'PATCH', url, token, body: { data: { type: 'notification', id, attributes } } });

t.test('only its user changes it, and only is-read', async (t) => {
  const read = await patch(importer.token, { 'is-read': true });
  assertDocument(t, read, 200);
  t.equal(read.body.data.attributes['is-read'], true, 'marked read');
  t.strictSame(
    await notificationsOf(Number(importer.id)),
    [{ id: Number(id), title: row?.title, is_read: true }],
    'stored as read',
  );

  const title = await patch(importer.token, { title: 'Something else' });
  t.ok([403, 422].includes(title.status), `the title is read-only (${title.status})`);
  if (title.status === 422) expectError(t, title, 422, { pointer: '/data/attributes/title' });
  else expectError(t, title, 403);

  for (const token of [stranger.token]) {
    const other = await patch(token, { 'is-read': false });
    t.ok([403, 404].includes(other.status), `another user cannot PATCH (${other.status})`);
    expectError(t, other, other.status === 403 ? 403 : 404);
    const gone = await call(app, { method: 'DELETE', url, token });
    t.ok([403, 404].includes(gone.status), `another user cannot DELETE (${gone.status})`);
    expectError(t, gone, gone.status === 403 ? 403 : 404);
  }
  t.strictSame(
    await notificationsOf(Number(importer.id)),
    [{ id: Number(id), title: row?.title, is_read: true }],
    'unchanged by the refusals',
  );
});

t.test('nobody creates notifications through the API', async (t) => {
  for (const [who, user] of [
    ['a user', importer],
    ['an admin', admin],
  ] as const) {
    const res = await call(app, {
      method: 'POST',
      url: '/v1/notifications',
      token: user.token,
      body: { data: { type: 'notification', attributes: { 'is-read': false } } },
    });
    expectError(t, res, 403);
    t.pass(`${who}: 403`);
  }
  const [all] = await app.sql<{ n: number }[]>`select count(*)::int as n from notifications`;
  t.equal(all?.n, 1, 'still one notification in all');
});

t.test('GET /v1/tasks/{id}: the requester and admins only', async (t) => {
  const mine = await call(app, { url: taskUrl, token: importer.token });
  t.equal(mine.status, 200);
  t.strictSame(Object.keys(mine.body).sort(), ['result', 'state', 'status'], 'state, status and result only');
  t.strictSame(mine.body, {
    state: 'SUCCESS',
    status: null,
    result: { event_name: NAME, id: imported.result.id, url: imported.result.url, warnings: { total: 0, items: [] } },
  });
  t.match(imported.result.id, /^\d+$/, 'the new id, as a string');
  t.not(imported.result.id, eventId, 'a new event');
  const byAdmin = await call(app, { url: taskUrl, token: admin.token });
  t.equal(byAdmin.status, 200, 'an admin reads it');
  t.strictSame(byAdmin.body, mine.body, 'the same document');
  expectError(t, await call(app, { url: taskUrl, token: stranger.token }), 404);
  expectError(t, await call(app, { url: taskUrl, token: owner.token }), 404, {});
  expectError(t, await call(app, { url: exportTaskUrl, token: importer.token }), 404);
  expectError(t, await call(app, { url: taskUrl }), 401);
  expectError(t, await call(app, { url: taskUrl, headers: { authorization: 'JWT not-a-token' } }), 401);
  const malformed = [
    'nope',
    '42',
    'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    '-'.repeat(36),
    `${taskId.slice(0, 35)}-`,
    `${taskId}0`,
    `${taskId.slice(0, 8)}`,
  ];
  for (const bad of malformed) {
    const res = await call(app, { url: `/v1/tasks/${encodeURIComponent(bad)}`, token: importer.token });
    t.equal(
      res.status,
      404,
      `malformed ${JSON.stringify(bad)}: 404 (got ${res.status}: ${JSON.stringify(res.body?.errors?.[0]?.detail)})`,
    );
    expectError(t, res, 404);
  }
  expectError(
    t,
    await call(app, { url: '/v1/tasks/00000000-0000-4000-8000-000000000000', token: importer.token }),
    404,
  );
  expectError(t, await call(app, { url: '/v1/tasks/00000000-0000-4000-8000-000000000000', token: admin.token }), 404);
});

t.test('its user deletes it', async (t) => {
  const del = await call(app, { method: 'DELETE', url, token: importer.token });
  assertDocument(t, del, 200);
  t.strictSame(del.body, { meta: { message: 'Object successfully deleted' }, jsonapi: { version: '1.0' } });
  t.strictSame(await notificationsOf(Number(importer.id)), [], 'the row is gone');
  expectError(t, await call(app, { url, token: importer.token }), 404);
  const list = await call(app, { url: `/v1/users/${importer.id}/notifications`, token: importer.token });
  t.strictSame(list.body.data, [], 'the list is empty');
});

t.test(
  "an administrator changes and deletes a user's notification (the reference's is_user_itself admits them)",
  async (t) => {
    const [made] = await app.sql<{ id: number }[]>`
    insert into notifications (user_id, title, message) values (${Number(importer.id)}, 'Another', 'Hello')
    returning id`;
    const other = String(made!.id);
    const at = `/v1/notifications/${other}`;
    const read = await call(app, {
      method: 'PATCH',
      url: at,
      token: admin.token,
      body: { data: { type: 'notification', id: other, attributes: { 'is-read': true } } },
    });
    assertDocument(t, read, 200);
    t.equal(read.body.data.attributes['is-read'], true, 'marked read by an admin');
    const strangers = await call(app, { method: 'DELETE', url: at, token: stranger.token });
    t.ok([403, 404].includes(strangers.status), `another user still cannot DELETE (${strangers.status})`);
    const del = await call(app, { method: 'DELETE', url: at, token: admin.token });
    assertDocument(t, del, 200);
    const [left] = await app.sql<{ n: number }[]>`select count(*)::int as n from notifications where id = ${made!.id}`;
    t.equal(left?.n, 0, 'deleted by an admin');
  },
);

/**
 * open-event-frontend app/components/notification-dropdown.js: the unread notifications of the current
 * user (:17-26, `currentUser.query('notifications', {filter is-read eq false, sort -created-at})`), and
 * "mark as read" (:44-47), which saves the whole record as app/models/notification.js serializes it:
 * title, message, is-read, received-at (:6-9) and the `user` it belongs to (:14).
 */
import t from 'tap';
import { notifications } from '../../db/schema/index.js';
import { buildTestApp } from '../helpers/app.js';
import { frontEnd, listening } from '../helpers/front-end-client.js';
import { seedUser } from '../helpers/users.js';

const { app } = await buildTestApp(t);
const apiHost = await listening(app);
const user = await seedUser(app);
const other = await seedUser(app);
const client = frontEnd(apiHost, user.token);
const [first, second] = await app.db
  .insert(notifications)
  .values([
    { userId: Number(user.id), title: 'Import finished', message: 'Your event was imported.' },
    { userId: Number(user.id), title: 'Export ready', message: 'Download your export.' },
  ])
  .returning({ id: notifications.id });

/** The record as ember-data saves it after `notification.set('isRead', true)`. */
const markRead = (
  read: { id: string; attributes: Record<string, unknown> },
  changes: Record<string, unknown> = {},
) => ({
  data: {
    type: 'notification',
    id: read.id,
    attributes: {
      title: read.attributes.title,
      message: read.attributes.message,
      'is-read': true,
      'received-at': read.attributes['received-at'],
      ...changes,
    },
    relationships: { user: { data: { type: 'user', id: user.id } } },
  },
});

const unread = () =>
  client.adapter('GET', `/v1/users/${user.id}/notifications`, {
    query: { filter: [{ name: 'is-read', op: 'eq', val: false }], sort: '-created-at' },
  });

t.test('the dropdown lists the unread notifications with received-at', async (t) => {
  const res = await unread();
  t.equal(res.status, 200);
  t.strictSame(
    res.body.data.map((n: { id: string }) => n.id),
    [String(second!.id), String(first!.id)],
    'newest first',
  );
  for (const n of res.body.data) {
    t.match(n.attributes['received-at'], /^\d{4}-\d\d-\d\dT/, 'received-at is a date-time');
    t.equal(n.attributes['received-at'], n.attributes['created-at'], 'when it arrived');
  }
});

t.test('mark as read: the whole record saved back is accepted', async (t) => {
  const [latest] = (await unread()).body.data;
  const res = await client.adapter('PATCH', `/v1/notifications/${latest.id}`, { body: markRead(latest) });
  t.equal(res.status, 200, JSON.stringify(res.body?.errors ?? []));
  t.equal(res.body.data.attributes['is-read'], true);
  t.equal(res.body.data.attributes['received-at'], latest.attributes['received-at'], 'received-at unchanged');
  t.strictSame(
    (await unread()).body.data.map((n: { id: string }) => n.id),
    [String(first!.id)],
    'one left unread',
  );
});

t.test("received-at is the server's: another value is refused, nothing written", async (t) => {
  const [left] = (await unread()).body.data;
  const res = await client.adapter('PATCH', `/v1/notifications/${left.id}`, {
    body: markRead(left, { 'received-at': '2000-01-01T00:00:00.000Z' }),
  });
  t.equal(res.status, 422);
  t.equal(res.body.errors[0].source.pointer, '/data/attributes/received-at');
  t.equal((await unread()).body.data.length, 1, 'still unread');
  const typed = await client.adapter('PATCH', `/v1/notifications/${left.id}`, {
    body: markRead(left, { 'received-at': 42 }),
  });
  t.equal(typed.status, 422, 'a number for received-at');
});

t.test('another user cannot mark them read', async (t) => {
  const [left] = (await unread()).body.data;
  const res = await frontEnd(apiHost, other.token).adapter('PATCH', `/v1/notifications/${left.id}`, {
    body: markRead(left),
  });
  t.ok([403, 404].includes(res.status), `refused (${res.status})`);
  t.equal((await unread()).body.data.length, 1, 'still unread');
});

/**
 * Message settings (/v1/message-settings) and every mail the service sends consulting them, through a real SMTP
 * server: a mail of a kind that is on goes out and is logged with its text; one whose kind an administrator
 * switched off goes nowhere and is not logged; the account mails a user cannot do without stay on.
 */
import t from 'tap';
import { MESSAGE_ACTIONS } from '../../plugins/mail-choices.js';
import { assertError, buildTestApp, call } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';

const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url });
const admin = await seedUser(app, { admin: true });
const user = await seedUser(app);

const list = async () => {
  const res = await call(app, { url: '/v1/message-settings?page[size]=100', token: admin.token });
  t.equal(res.status, 200);
  return res.body.data as { id: string; attributes: Record<string, unknown> }[];
};
const idOf = async (action: string) => (await list()).find((s) => s.attributes.action === action)!.id;
const setEnabled = (id: string, enabled: boolean, token = admin.token) =>
  call(app, {
    method: 'PATCH',
    url: `/v1/message-settings/${id}`,
    token,
    body: { data: { type: 'message-setting', id, attributes: { enabled } } },
  });

t.test('one setting per kind of mail the service sends, in the catalogue order, with its texts', async (t) => {
  const settings = await list();
  t.same(
    settings.map((s) => s.attributes.action),
    MESSAGE_ACTIONS.map((a) => a.action),
    'the seeds are the catalogue',
  );
  const [role] = settings;
  t.same(role!.attributes, {
    action: 'event_role',
    enabled: true,
    recipient: 'User',
    'email-subject': 'Invitation to be {role} of {event} at {app_name}',
    'email-message': MESSAGE_ACTIONS[0]!.message,
    'created-at': role!.attributes['created-at'],
    'modified-at': role!.attributes['modified-at'],
  });
  const detail = await call(app, { url: `/v1/message-settings/${role!.id}`, token: admin.token });
  t.equal(detail.body.data.type, 'message-setting');
});

t.test('administrators only: 401 without a login, 403 for a user, whatever the route', async (t) => {
  const id = await idOf('event_role');
  assertError(t, await call(app, { url: '/v1/message-settings' }), 401);
  assertError(t, await call(app, { url: '/v1/message-settings', token: user.token }), 403);
  assertError(t, await call(app, { url: `/v1/message-settings/${id}`, token: user.token }), 403);
  assertError(t, await setEnabled(id, false, user.token), 403);
  const post = await call(app, {
    method: 'POST',
    url: '/v1/message-settings',
    token: admin.token,
    body: { data: { type: 'message-setting', attributes: { enabled: true } } },
  });
  assertError(t, post, 403);
  assertError(t, await call(app, { method: 'DELETE', url: `/v1/message-settings/${id}`, token: admin.token }), 403);
  const rows = await app.sql`select count(*)::int as n, bool_and(enabled) as on from message_settings`;
  t.same(rows[0], { n: MESSAGE_ACTIONS.length, on: true }, 'nothing written');
});

t.test('bad input: a string for enabled, an unknown member, a changed action, a wrong id', async (t) => {
  const id = await idOf('event_role');
  const patch = (attributes: Record<string, unknown>, at = id) =>
    call(app, {
      method: 'PATCH',
      url: `/v1/message-settings/${at}`,
      token: admin.token,
      body: { data: { type: 'message-setting', id: at, attributes } },
    });
  t.equal((await patch({ enabled: 'yes' })).status, 422);
  t.equal((await patch({ colour: 'red' })).status, 422);
  assertError(t, await patch({ action: 'speaker_invite' }), 422, { pointer: '/data/attributes/action' });
  t.equal((await patch({ enabled: true, action: 'event_role' })).status, 200, 'the action sent back unchanged is fine');
  assertError(t, await patch({ enabled: false }, '999999'), 404);
  assertError(t, await patch({ enabled: false }, 'abc'), 404);
});

t.test('the account mails a user cannot do without cannot be switched off', async (t) => {
  for (const action of ['password_reset', 'user_confirmation']) {
    const res = await setEnabled(await idOf(action), false);
    assertError(t, res, 422, { pointer: '/data/attributes/enabled' }, /always sent/);
  }
  t.equal((await setEnabled(await idOf('password_reset'), true)).status, 200, 'switching one on is fine');
});

/** Every mail action of every kind: sent and logged while its kind is on, neither once an administrator turns it off. */
for (const kind of MESSAGE_ACTIONS) {
  t.test(
    `${kind.action}: sent when enabled, not sent when disabled${kind.always ? ' (never: always sent)' : ''}`,
    async (t) => {
      const id = await idOf(kind.action);
      for (const action of kind.mails) {
        const address = `${action}-on@example.org`;
        const before = smtp.received.length;
        const sent = await app.mailer.send({
          to: { address },
          subject: `A ${action} mail`,
          action,
          text: `The ${action} text`,
        });
        t.equal(sent.status, 'sent', `${action} goes out`);
        const received = (await smtp.waitFor(before + 1)).slice(before);
        t.same(received[0]!.envelope.to, [address]);
        const logged = await app.sql`select action, subject, message from mails where recipient = ${address}`;
        t.same(
          logged,
          [{ action, subject: `A ${action} mail`, message: `The ${action} text` }],
          'logged with its text',
        );
      }
      if (kind.always) {
        t.equal((await setEnabled(id, false)).status, 422);
        return;
      }
      t.equal((await setEnabled(id, false)).status, 200);
      t.teardown(() => setEnabled(id, true));
      for (const action of kind.mails) {
        const address = `${action}-off@example.org`;
        const before = smtp.received.length;
        const skipped = await app.mailer.send({ to: { address }, subject: 'Held back', action, text: 'No.' });
        t.same(skipped, { id: null, status: 'skipped' }, `${action} is held back`);
        // A mail of another kind sent afterwards arrives alone: nothing of the held-back one is on its way.
        await app.mailer.send({
          to: { address: 'marker@example.org' },
          subject: 'Marker',
          action: 'test-mail',
          text: '.',
        });
        const received = (await smtp.waitFor(before + 1)).slice(before);
        t.same(
          received.map((m) => m.envelope.to[0]),
          ['marker@example.org'],
          'only the marker arrived',
        );
        t.same(await app.sql`select id from mails where recipient = ${address}`, [], 'nothing logged');
      }
    },
  );
}

t.test('a held-back mail still commits what goes with it (a task ends without its mail)', async (t) => {
  const id = await idOf('event_exported');
  t.equal((await setEnabled(id, false)).status, 200);
  t.teardown(() => setEnabled(id, true));
  const [row] = await app.sql<{ id: number }[]>`insert into notifications (user_id, title, message)
    values (${Number(user.id)}, 'before', 'x') returning id`;
  const result = await app.mailer.send(
    { to: { address: 'export@example.org' }, subject: 'Exported', action: 'export-done', text: 'Done' },
    (tx) => tx.execute(`update notifications set title = 'after' where id = ${row!.id}`),
  );
  t.equal(result.status, 'skipped');
  const [after] = await app.sql`select title from notifications where id = ${row!.id}`;
  t.equal(after!.title, 'after', 'what goes alongside committed');
});

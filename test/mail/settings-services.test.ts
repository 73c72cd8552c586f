/**
 * The mail settings as the web front end's admin page sets them (open-event-frontend
 * app/templates/components/forms/admin/settings/system/mail-settings.hbs): the port as a string,
 * encryption `tls-optional` or `no-encryption`, email-service `disable` or `sendgrid`. A real SMTP
 * peer (plain, no STARTTLS offered) receives what the settings route to it.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SENDGRID, transportOptionsOf } from '../../plugins/mailer.js';
import type { settings } from '../../db/schema/index.js';
import { buildTestApp, call } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';

const letter = (address: string, subject: string) => ({
  to: { name: 'Ada', address },
  subject,
  action: 'test-mail',
  text: 'Hello.',
});

const fallback = await startSmtp(t);
const server = await startSmtp(t, { auth: { user: 'mailer', pass: 'secret' } });
const outbox = await mkdtemp(join(tmpdir(), 'oe-mail-services-'));
t.teardown(() => rm(outbox, { recursive: true, force: true }));
const { app } = await buildTestApp(t, {
  SMTP_URL: fallback.url,
  MAIL_OUTBOX_DIR: outbox,
  MAIL_FROM: 'no-reply@open-event.test',
});
const admin = await seedUser(app, { admin: true });
const patchSettings = async (attributes: Record<string, unknown>) => {
  const res = await call(app, {
    method: 'PATCH',
    url: '/v1/settings/1',
    token: admin.token,
    body: { data: { type: 'setting', id: '1', attributes } },
  });
  if (res.status !== 200) throw new Error(`settings: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.attributes as Record<string, unknown>;
};
const smtp = {
  'email-service': 'smtp',
  'smtp-host': '127.0.0.1',
  'smtp-username': 'mailer',
  'smtp-password': 'secret',
};

t.test('smtp with the port as a string and tls-optional: delivered (the server offers no STARTTLS)', async (t) => {
  const saved = await patchSettings({ ...smtp, 'smtp-port': String(server.port), 'smtp-encryption': 'tls-optional' });
  t.equal(saved['smtp-port'], server.port, 'the port answered as a number');
  t.equal((await app.mailer.send(letter('a@example.org', 'tls-optional'))).status, 'sent');
  t.equal((await server.waitFor(1))[0]!.parsed.subject, 'tls-optional');
});

t.test('no-encryption delivers; tls (STARTTLS required) refuses a server without it and keeps the mail', async (t) => {
  await patchSettings({ 'smtp-encryption': 'no-encryption' });
  t.equal((await app.mailer.send(letter('b@example.org', 'no-encryption'))).status, 'sent');
  t.equal((await server.waitFor(2))[1]!.parsed.subject, 'no-encryption');
  await patchSettings({ 'smtp-encryption': 'tls' });
  const refused = await app.mailer.send(letter('c@example.org', 'tls required'));
  t.equal(refused.status, 'pending', 'kept for a retry');
  t.equal(server.received.length, 2, 'nothing sent in the clear');
  await patchSettings({ 'smtp-encryption': 'none' });
  t.equal(await app.mailer.deliver(refused.id!), 'sent', 'delivered once the encryption is changed back');
});

t.test('disable: mail goes to the outbox folder, not to SMTP_URL', async (t) => {
  await patchSettings({ 'email-service': 'disable' });
  const before = fallback.received.length;
  t.equal((await app.mailer.send(letter('d@example.org', 'disabled'))).status, 'sent');
  t.equal((await readdir(outbox)).filter((f) => f.endsWith('.eml')).length, 1, 'one .eml file');
  t.equal(fallback.received.length, before, 'SMTP_URL got nothing');
  await patchSettings({ 'email-service': null });
  t.equal((await app.mailer.send(letter('e@example.org', 'fallback'))).status, 'sent');
  t.equal((await fallback.waitFor(before + 1)).at(-1)!.parsed.subject, 'fallback', 'null: SMTP_URL again');
});

t.test('sendgrid: its SMTP relay with the API key; the key is stored and given to administrators only', async (t) => {
  const row = { emailService: 'sendgrid', sendgridKey: 'SG.key' } as typeof settings.$inferSelect;
  t.match(transportOptionsOf(row, 'smtp://fallback'), { ...SENDGRID, auth: { user: 'apikey', pass: 'SG.key' } });
  t.match(SENDGRID, { host: 'smtp.sendgrid.net', port: 587, requireTLS: true });
  t.equal(transportOptionsOf({ ...row, emailService: 'disable' }, 'smtp://fallback'), null, 'disable: the outbox');
  const saved = await patchSettings({ 'email-service': 'sendgrid', 'sendgrid-key': 'SG.example-key' });
  t.equal(saved['sendgrid-key'], 'SG.example-key');
  const anonymous = await call(app, { url: '/v1/settings' });
  t.notOk('sendgrid-key' in anonymous.body.data.attributes, 'not in the limited variant');
  await patchSettings({ 'email-service': null });
});

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import t, { type Test } from 'tap';
import { MAIL_QUEUE, type OutgoingMail } from '../../plugins/mailer.js';
import { buildTestApp, call } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { seedUser } from '../helpers/users.js';

const MAIL_FROM = 'Open Event <no-reply@open-event.test>';

async function tempDir(t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'oe-mailer-test-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const letter = (address: string, subject: string): OutgoingMail => ({
  to: { name: 'Ada Lovelace', address },
  subject,
  action: 'test-mail',
  text: 'First line of the body.\nSecond line.',
  attachments: [{ filename: 'notes.txt', content: 'the attached notes', contentType: 'text/plain' }],
});

t.test('with no SMTP at all the mail becomes exactly one .eml file in the outbox', async (t) => {
  const outbox = await tempDir(t);
  const { app } = await buildTestApp(t, { MAIL_OUTBOX_DIR: outbox, MAIL_FROM });
  const [settings] = await app.sql`select email_service, smtp_host from settings where id = 1`;
  t.same(settings, { email_service: null, smtp_host: null }, 'no SMTP in the settings');

  const result = await app.mailer.send(letter('ada@example.org', 'Hello from the outbox'));
  t.equal(result.status, 'sent');
  t.type(result.id, 'number');

  const files = await readdir(outbox);
  t.equal(files.length, 1, 'exactly one file, no partial temp file left');
  t.match(files[0], /^[^.].*\.eml$/, 'a finished .eml file (not a hidden partial one)');
  const parsed = await simpleParser(await readFile(join(outbox, files[0]!)));
  t.same(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value : null, [
    { address: 'ada@example.org', name: 'Ada Lovelace' },
  ]);
  t.same(parsed.from?.value, [{ address: 'no-reply@open-event.test', name: 'Open Event' }], 'from is MAIL_FROM');
  t.equal(parsed.subject, 'Hello from the outbox');
  t.equal(parsed.text?.trim(), 'First line of the body.\nSecond line.');
  t.equal(parsed.attachments.length, 1);
  t.equal(parsed.attachments[0]?.filename, 'notes.txt');
  t.equal(parsed.attachments[0]?.contentType, 'text/plain');
  t.equal(parsed.attachments[0]?.content.toString('utf8'), 'the attached notes');

  const rows =
    await app.sql`select recipient, subject, action, status, attempts, last_error, via, raw, sent_at is not null as stamped from mails`;
  t.same(rows, [
    {
      recipient: 'ada@example.org',
      subject: 'Hello from the outbox',
      action: 'test-mail',
      status: 'sent',
      attempts: 1,
      last_error: null,
      via: 'outbox',
      raw: await readFile(join(outbox, files[0]!)),
      stamped: true,
    },
  ]);
  const jobs = await app.boss.findJobs(MAIL_QUEUE, { data: { mailId: result.id } });
  t.equal(jobs.length, 1, 'the safety-net delivery job was recorded with the mail');
});

t.test('MAIL_OUTBOX_DIR none (several machines): the mails table is the outbox, no file is written', async (t) => {
  const cwd = await tempDir(t);
  const { app } = await buildTestApp(t, { MAIL_OUTBOX_DIR: 'none', MAIL_FROM });
  const before = process.cwd();
  process.chdir(cwd);
  t.teardown(() => process.chdir(before));
  const result = await app.mailer.send(letter('ada@example.org', 'Kept in the table'));
  t.equal(result.status, 'sent');
  t.same(await readdir(cwd), [], 'no folder, no file');
  const [row] = await app.sql<{ via: string; raw: Buffer }[]>`select via, raw from mails where id = ${result.id}`;
  t.equal(row!.via, 'outbox');
  const parsed = await simpleParser(row!.raw);
  t.equal(parsed.subject, 'Kept in the table', 'the whole message is in the row');
  t.equal(parsed.attachments[0]?.content.toString('utf8'), 'the attached notes');
});

t.test('SMTP: SMTP_URL delivers, settings SMTP takes precedence, a failure keeps the mail pending', async (t) => {
  const fallback = await startSmtp(t);
  const configured = await startSmtp(t, { auth: { user: 'mailer', pass: 'right password' } });
  const outbox = await tempDir(t);
  const { app } = await buildTestApp(t, { SMTP_URL: fallback.url, MAIL_FROM, MAIL_OUTBOX_DIR: outbox });
  const admin = await seedUser(app, { admin: true });
  const patchSettings = (attributes: Record<string, unknown>) =>
    call(app, {
      method: 'PATCH',
      url: '/v1/settings/1',
      token: admin.token,
      body: { data: { type: 'setting', id: '1', attributes } },
    });
  const rowOf = async (id: number) =>
    (
      await app.sql`select status, attempts, last_error, raw is not null as has_raw, sent_at is not null as stamped from mails where id = ${id}`
    )[0];

  await t.test('with SMTP_URL the message arrives at that server from MAIL_FROM', async (t) => {
    const result = await app.mailer.send(letter('grace@example.org', 'Through SMTP_URL'));
    t.equal(result.status, 'sent');
    const [mail] = await fallback.waitFor(1);
    t.same(mail!.envelope, { from: 'no-reply@open-event.test', to: ['grace@example.org'] });
    t.same(mail!.parsed.from?.value, [{ address: 'no-reply@open-event.test', name: 'Open Event' }]);
    const to = mail!.parsed.to && !Array.isArray(mail!.parsed.to) ? mail!.parsed.to.value : null;
    t.same(to, [{ address: 'grace@example.org', name: 'Ada Lovelace' }]);
    t.equal(mail!.parsed.subject, 'Through SMTP_URL');
    t.equal(mail!.parsed.text?.trim(), 'First line of the body.\nSecond line.');
    t.equal(mail!.parsed.attachments[0]?.content.toString('utf8'), 'the attached notes');
    t.same(await rowOf(result.id!), { status: 'sent', attempts: 1, last_error: null, has_raw: false, stamped: true });
    t.same(
      (await app.sql`select via from mails where id = ${result.id}`)[0],
      { via: 'smtp' },
      'sent through SMTP: the message is not kept',
    );
    t.same(await readdir(outbox), [], 'nothing written to the outbox');
  });

  await t.test("the settings' SMTP server (authenticated) and sender win over SMTP_URL", async (t) => {
    const res = await patchSettings({
      'email-service': 'smtp',
      'smtp-host': '127.0.0.1',
      'smtp-port': configured.port,
      'smtp-username': 'mailer',
      'smtp-password': 'right password',
      'smtp-encryption': 'none',
      'email-from': 'events@settings.test',
      'email-from-name': 'Settings Sender',
    });
    t.equal(res.status, 200, 'settings saved');
    const result = await app.mailer.send(letter('hedy@example.org', 'Through the settings'));
    t.equal(result.status, 'sent');
    const [mail] = await configured.waitFor(1);
    t.same(
      mail!.envelope,
      { from: 'events@settings.test', to: ['hedy@example.org'] },
      'accepted by a server that requires AUTH',
    );
    t.same(mail!.parsed.from?.value, [{ address: 'events@settings.test', name: 'Settings Sender' }]);
    t.equal(mail!.parsed.subject, 'Through the settings');
    t.equal(fallback.received.length, 1, 'SMTP_URL got nothing more');
    t.same(await rowOf(result.id!), { status: 'sent', attempts: 1, last_error: null, has_raw: false, stamped: true });
  });

  await t.test('a wrong password in the settings: the mail stays pending with the error, nothing lost', async (t) => {
    t.equal((await patchSettings({ 'smtp-password': 'wrong password' })).status, 200);
    const result = await app.mailer.send(letter('ida@example.org', 'Refused login'));
    t.equal(result.status, 'pending');
    const row = await rowOf(result.id!);
    t.match(row, { status: 'pending', attempts: 1, has_raw: true, stamped: false });
    t.match(row?.last_error, /auth|invalid|credentials|535/i, 'the SMTP error is recorded');
    t.equal(configured.received.length, 1, 'the configured server got nothing');
    t.equal(fallback.received.length, 1, 'no silent fallback to SMTP_URL');
    t.same(await readdir(outbox), [], 'no silent fallback to the outbox');

    // The kept message goes out unchanged once the password is right again.
    t.equal((await patchSettings({ 'smtp-password': 'right password' })).status, 200);
    t.equal(await app.mailer.deliver(result.id!), 'sent');
    const mail = (await configured.waitFor(2))[1];
    t.same(mail!.envelope.to, ['ida@example.org']);
    t.equal(mail!.parsed.subject, 'Refused login');
    t.same(await rowOf(result.id!), { status: 'sent', attempts: 2, last_error: null, has_raw: false, stamped: true });
  });
});

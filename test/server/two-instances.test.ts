/**
 * Two instances as two machines would run them (issue 25's proof): real processes (`npm start`) with
 * data folders of their own, on one PostgreSQL and one S3 server (s3rver): A serves the API only, B
 * serves it and runs the jobs. Nothing one of them keeps is missing on the other: skills with their
 * history and rollback, the assistant's settings files, uploads, exports, mails.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import postgres from 'postgres';
import sharp from 'sharp';
import t from 'tap';
import { TEST_SECRET, until } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { dataUri, makeImage } from '../helpers/images.js';
import { startS3 } from '../helpers/s3.js';
import { startServerProcess } from '../helpers/server-process.js';
import { account, send, taskEnded } from '../helpers/service.js';
import { editFields } from '../helpers/skill-editor.js';
import { cmsGet } from '../helpers/susi-clients.js';

const s3 = await startS3(t);
const db = await createTestDatabase();
const root = await mkdtemp(join(tmpdir(), 'oe-two-instances-'));
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
const processes: ReturnType<typeof startServerProcess>[] = [];
t.teardown(async () => {
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await Promise.all(processes.map((p) => p.exited));
  await sql.end();
  await db.drop();
  await rm(root, { recursive: true, force: true });
});

// The administrator chose the bucket before the machines start (README, Production).
await sql`
  update settings set storage_place = 's3', s3_endpoint = ${s3.endpoint}, s3_bucket = ${s3.bucket}, s3_region = ${s3.region},
    s3_access_key = ${s3.accessKey}, s3_secret_key = ${s3.secretKey}
  where id = 1`;

/** One machine's folders: nothing in them is shared. */
const folders = (name: string) => ({
  DATA_DIR: join(root, name),
  STORAGE_DIR: join(root, name, 'storage'),
  UPLOAD_TMP_DIR: join(root, name, 'uploads'),
  ASSISTANT_SETTINGS_DIR: join(root, name, 'settings'),
  SKILL_REPO_DIR: join(root, name, 'skills'),
  // Several machines: the mails table is the outbox, no folder.
  MAIL_OUTBOX_DIR: 'none',
});
const base = {
  DATABASE_URL: db.url,
  JWT_SECRET: TEST_SECRET,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  FETCH_ALLOW_PRIVATE: 'true',
};
async function machine(name: string, role: 'api' | 'all') {
  const p = startServerProcess({ ...base, ...folders(name) }, ['--role', role]);
  processes.push(p);
  return new URL((await p.urls).API!).origin;
}
const [a, b] = await Promise.all([machine('a', 'api'), machine('b', 'all')]);
const bannerOfA = await until('A’s banner', async () =>
  /^Database:/m.test(processes[0]!.output()) ? processes[0]!.output() : undefined,
);

const owner = await account(a, 'owner@example.org');
const editor = await account(b, 'editor@example.org');
await sql`update users set is_admin = true, is_super_admin = true where email = 'owner@example.org'`;

const form = async (origin: string, path: string, fields: Record<string, string>, image?: Buffer) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (image) body.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'planets.png');
  const res = await fetch(origin + path, { method: 'POST', body });
  return { status: res.status, body: await res.json() };
};
const cms = async (origin: string, path: string, payload: Record<string, string>) =>
  (await fetch(origin + cmsGet(path, payload))).json();

t.test('a skill created through A is read, modified and rolled back through B, with its history', async (t) => {
  const skill = { model: 'general', group: 'Science', language: 'en', skill: 'Planets' };
  const text = (n: number) => `::name Planets\n::author_email owner@example.org\nplanets\nVersion ${n}.`;
  const modify = (origin: string, content: string, changelog: string, token: string) =>
    form(origin, '/cms/modifySkill.json', editFields(skill, 'planets.png', content, changelog, token));
  const created = await form(
    a,
    '/cms/createSkill.json',
    { ...skill, content: text(1), image_name: 'planets.png', access_token: owner.token },
    await makeImage('png', 64, 64),
  );
  t.equal(created.body.accepted, true, JSON.stringify(created.body));
  t.equal((await cms(b, '/cms/getSkill.json', skill)).text, text(1), 'B reads it at once');
  const image = await fetch(b + cmsGet('/cms/getImage.png', { ...skill, image: 'images/planets.png' }));
  t.same([image.status, image.headers.get('content-type')], [200, 'image/jpeg'], 'B serves its image');

  t.equal((await modify(b, text(2), 'Second version', editor.token)).body.accepted, true, 'modified through B');
  const history = await cms(a, '/cms/getSkillHistory.json', skill);
  t.same(
    history.commits.map((c: { commit_message: string }) => c.commit_message),
    ['Second version', 'Created Planets'],
    'A lists both commits',
  );
  t.same(
    (await cms(b, '/cms/getSkillHistory.json', skill)).commits,
    history.commits,
    'B the same, with the same commit ids',
  );

  const first = history.commits[1].commitID as string;
  const old = await cms(b, '/cms/getFileAtCommitID.json', { ...skill, commitID: first });
  t.equal(old.file, text(1), 'B reads the first version at its commit');
  t.equal(
    (await modify(b, old.file, `Rollback to ${first}`, owner.token)).body.accepted,
    true,
    'rolled back through B',
  );
  t.equal((await cms(a, '/cms/getSkill.json', skill)).text, text(1), 'A reads the rolled-back text');
  t.equal((await cms(a, '/cms/getSkillHistory.json', skill)).commits.length, 3, 'the rollback is a commit of its own');
});

t.test('both list the same settings files, with the same bytes', async (t) => {
  const list = (origin: string) => cms(origin, '/aaa/listSettings.json', { access_token: owner.token });
  const names = (await list(a)).files as string[];
  t.same((await list(b)).files, names, `the same names: ${names}`);
  t.ok(names.includes('authorization.json'));
  for (const file of ['accounting', 'authorization', 'groups']) {
    const [fromA, fromB] = await Promise.all(
      [a, b].map(async (origin) =>
        Buffer.from(
          await (await fetch(`${origin}/data/settings?file=${file}&access_token=${owner.token}`)).arrayBuffer(),
        ),
      ),
    );
    t.ok(fromA!.length > 2 && fromA!.equals(fromB!), `${file}.json`);
  }
  t.match(
    (await (await fetch(`${b}/data/settings?file=authorization&access_token=${owner.token}`)).json())[
      'email:owner@example.org'
    ],
    { userRole: 'superadmin' },
    'the role set in the database, as B reads it',
  );
});

t.test('an upload through A is used by B, whose worker stores its variants in the bucket', async (t) => {
  const photo = await makeImage('png', 400, 200);
  const uploaded = await send(a, '/v1/upload/image', {
    method: 'POST',
    token: owner.token,
    body: { data: dataUri(photo, 'png') },
    type: 'application/json',
  });
  t.equal(uploaded.status, 200);
  const original = uploaded.body.url as string;
  t.ok(original.startsWith(s3.endpoint), `in the bucket: ${original}`);
  const created = await send(b, '/v1/events', {
    method: 'POST',
    token: owner.token,
    body: {
      data: {
        type: 'event',
        attributes: {
          name: 'Pictured',
          'starts-at': '2030-05-01T09:00:00Z',
          'ends-at': '2030-05-02T18:00:00Z',
          timezone: 'UTC',
          'original-image-url': original,
        },
      },
    },
  });
  t.equal(created.status, 201, JSON.stringify(created.body));
  const variants = await until('the variants', async () => {
    const res = await send(a, `/v1/events/${created.body.data.id}`, { token: owner.token });
    const urls = ['large-image-url', 'thumbnail-image-url', 'icon-image-url'].map((k) => res.body.data.attributes[k]);
    return urls.every((u) => typeof u === 'string') ? (urls as string[]) : undefined;
  });
  for (const url of variants) {
    const res = await fetch(url);
    t.equal(res.status, 200, url);
    t.equal((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).format, 'jpeg');
  }
});

t.test('an export run by B’s worker downloads through A', async (t) => {
  t.match(bannerOfA, /^Role:\s+API only/m, 'A runs no jobs');
  const created = await send(a, '/v1/events', {
    method: 'POST',
    token: owner.token,
    body: {
      data: {
        type: 'event',
        attributes: {
          name: 'Exported',
          'starts-at': '2030-06-01T09:00:00Z',
          'ends-at': '2030-06-02T18:00:00Z',
          timezone: 'UTC',
        },
      },
    },
  });
  const started = await send(a, `/v1/events/${created.body.data.id}/export/json`, {
    method: 'POST',
    token: owner.token,
    body: {},
    type: 'application/json',
  });
  t.equal(started.status, 200, JSON.stringify(started.body));
  const ended = await taskEnded(a, started.body.task_url, owner.token);
  t.equal(ended.state, 'SUCCESS', JSON.stringify(ended));
  const link = new URL(ended.result.download_url as string);
  const res = await fetch(a + link.pathname + link.search);
  t.equal(res.status, 200, 'downloaded through A');
  const zip = new AdmZip(Buffer.from(await res.arrayBuffer()));
  t.match(JSON.parse(zip.readAsText('event.json')), { name: 'Exported' });
});

t.test('mails sent by either are in the same statistics, kept in the mails table', async (t) => {
  for (const [origin, email] of [
    [a, 'owner@example.org'],
    [b, 'editor@example.org'],
  ] as const) {
    t.equal(
      (
        await send(origin, '/v1/auth/reset-password', {
          method: 'POST',
          body: { data: { email } },
          type: 'application/json',
        })
      ).status,
      200,
      `reset asked through ${origin}`,
    );
  }
  // The account mails go out through a job (B's worker).
  const rows = await until('both reset mails sent', async () => {
    const sent = await sql<
      { action: string; via: string; kept: boolean }[]
    >`select action, via, raw is not null as kept from mails where status = 'sent' order by id`;
    return sent.filter((r) => r.action === 'reset-password').length === 2 ? sent : undefined;
  });
  t.same(
    rows.map((r) => r.action).sort(),
    ['export-done', 'reset-password', 'reset-password', 'verify-email', 'verify-email'],
    'the sign-up mails (A and B), the export mail (B’s worker), the reset mails asked through A and B',
  );
  t.ok(
    rows.every((r) => r.via === 'outbox' && r.kept),
    'each message kept in the table (no SMTP server)',
  );
  const stats = async (origin: string) =>
    (await send(origin, '/v1/admin/statistics/mails', { token: owner.token })).body.data.attributes;
  const [fromA, fromB] = await Promise.all([stats(a), stats(b)]);
  t.same(fromA, fromB, 'A and B answer the same figures');
  t.equal(fromA['one-day'], rows.length, 'every mail sent, by either, counted');
  for (const name of ['a', 'b']) {
    t.notOk((await readdir(join(root, name))).includes('outbox'), `no outbox folder on ${name}`);
    t.same(await readdir(join(root, name, 'storage')).catch(() => []), [], `nothing stored on ${name}'s disk`);
  }
});

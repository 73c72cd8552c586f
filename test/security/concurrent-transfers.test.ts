/**
 * The reference kept export options in a process-wide dict and extracted imports into a shared
 * folder, so jobs running at the same time mixed their results. Here two services' workers share one
 * database and one storage: two exports started together with different media flags each get an
 * archive of their own flags, and two imports of one archive started together each create one
 * complete event of their own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, call, TEST_SECRET } from '../helpers/app.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { makeImage, multipart, uploadImage } from '../helpers/images.js';
import { taskEnded } from '../helpers/service.js';

const PUBLIC_URL = 'https://api.example.test';
const dir = await mkdtemp(join(tmpdir(), 'oe-concurrent-transfers-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const env = { ROLE: 'all', PUBLIC_URL, STORAGE_DIR: join(dir, 'storage') };
const { app, url } = await buildTestApp(t, env);
const { cast, published } = await buildWorld(app);
const owner = cast.owner.token;

/** A second service on the same database and storage, so that two jobs run at the same time. */
async function secondWorker(): Promise<FastifyInstance> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    READ_CACHE_MB: '0',
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
    ASSISTANT_SETTINGS_DIR: join(dir, 'settings'),
    SKILL_REPO_DIR: join(dir, 'skills'),
    ...env,
    ROLE: 'worker',
  });
  const worker = await buildApp({ ...config, DATABASE_URL: url, JWT_SECRET: TEST_SECRET });
  await worker.ready();
  return worker;
}

async function upload(name: string, content: string) {
  const form = multipart([['file', name, content]]);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/upload/file',
    payload: form.payload,
    headers: { ...form.headers, authorization: `JWT ${owner}` },
  });
  if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return res.json().url as string;
}

// Media of every kind the two exports split between them, all in this service's storage.
const logo = await uploadImage(app, owner, await makeImage('png', 40, 30), 'png');
const slides = await upload('slides.pdf', '%PDF-1.4 slides');
const audio = await upload('talk.mp3', 'ID3 audio');
const patched = await call(app, {
  method: 'PATCH',
  url: `/v1/events/${published.event}`,
  token: owner,
  body: { data: { type: 'event', id: published.event, attributes: { 'logo-url': logo } } },
});
if (patched.status !== 200) throw new Error(`patch: ${patched.status}`);
const talk = await create(
  app,
  owner,
  'sessions',
  'session',
  { title: 'Media talk', 'slides-url': slides, 'audio-url': audio },
  { event: rel('event', published.event) },
);

let archive: Buffer | undefined;

t.test('two exports at once with different media flags: each archive has its own', async (t) => {
  const worker = await secondWorker();
  try {
    const flags = [
      { image: true, video: false, audio: false, document: false },
      { image: false, video: false, audio: true, document: true },
    ];
    const started = await Promise.all(
      flags.map((body) =>
        call(app, {
          method: 'POST',
          url: `/v1/events/${published.event}/export/json`,
          token: owner,
          headers: { 'content-type': 'application/json' },
          body,
        }),
      ),
    );
    t.same(
      started.map((s) => s.status),
      [200, 200],
    );
    const tasks = await Promise.all(started.map((s) => taskEnded(app, s.body.task_url, owner, 90_000)));
    t.same(
      tasks.map((task) => task.state),
      ['SUCCESS', 'SUCCESS'],
      JSON.stringify(tasks.map((task) => task.result)),
    );
    t.not(tasks[0].result.download_url, tasks[1].result.download_url, 'two archives');

    const zips = [];
    for (const task of tasks) {
      const res = await app.inject({
        url: new URL(task.result.download_url).pathname,
        headers: { authorization: `JWT ${owner}` },
      });
      t.equal(res.statusCode, 200);
      zips.push(new AdmZip(res.rawPayload));
    }
    const [images, documents] = zips as [AdmZip, AdmZip];
    const json = (zip: AdmZip, name: string) => JSON.parse(zip.getEntry(name)!.getData().toString('utf8'));
    const mediaOf = (zip: AdmZip) =>
      zip
        .getEntries()
        .map((e) => e.entryName)
        .filter((n) => !n.endsWith('.json'))
        .sort();
    const sessionOf = (zip: AdmZip) =>
      (json(zip, 'sessions.json') as Record<string, unknown>[]).find((s) => s.id === Number(talk))!;

    t.same(json(images, 'meta.json').media, flags[0], 'the first archive names its own flags');
    t.same(mediaOf(images), ['images/logo.png'], 'the first archive holds the images only');
    t.equal(json(images, 'event.json').logo_url, 'images/logo.png');
    t.match(sessionOf(images), { slides_url: slides, audio_url: audio }, 'its session media stay URLs');

    t.same(json(documents, 'meta.json').media, flags[1], 'the second archive names its own flags');
    t.same(
      mediaOf(documents),
      [`audio/session_${talk}_audio.mp3`, `slides/session_${talk}_slides.pdf`],
      'the second holds the slides and audio only',
    );
    t.equal(json(documents, 'event.json').logo_url, logo, 'its logo stays a URL');
    t.match(sessionOf(documents), {
      slides_url: `slides/session_${talk}_slides.pdf`,
      audio_url: `audio/session_${talk}_audio.mp3`,
    });
    t.equal(
      documents.getEntry(`slides/session_${talk}_slides.pdf`)!.getData().toString(),
      '%PDF-1.4 slides',
      'the slides bytes',
    );
    archive = images.toBuffer();
  } finally {
    await worker.close();
  }
});

t.test('two imports of one archive at once: two complete, distinct events', async (t) => {
  const worker = await secondWorker();
  try {
    const importer = cast.other.token;
    const started = await Promise.all(
      [1, 2].map(async () => {
        const form = multipart([['file', 'event.zip', archive!]]);
        const res = await app.inject({
          method: 'POST',
          url: '/v1/events/import/json',
          payload: form.payload,
          headers: { ...form.headers, authorization: `JWT ${importer}` },
        });
        return { status: res.statusCode, body: res.json() };
      }),
    );
    t.same(
      started.map((s) => s.status),
      [200, 200],
      JSON.stringify(started.map((s) => s.body)),
    );
    const tasks = await Promise.all(started.map((s) => taskEnded(app, s.body.task_url, importer, 90_000)));
    t.same(
      tasks.map((task) => task.state),
      ['SUCCESS', 'SUCCESS'],
      JSON.stringify(tasks.map((task) => task.result)),
    );
    const ids = tasks.map((task) => String(task.result.id));
    t.not(ids[0], ids[1], 'two events');
    t.not(ids[0], published.event);

    const KINDS = [
      'sessions',
      'speakers',
      'tracks',
      'microlocations',
      'sponsors',
      'session-types',
      'social-links',
      'custom-forms',
    ];
    const contentOf = async (event: string, token: string) => {
      const read = await call(app, { url: `/v1/events/${event}`, token });
      const kinds: Record<string, string[]> = {};
      for (const kind of KINDS) {
        const list = await call(app, { url: `/v1/events/${event}/${kind}?page[size]=100&sort=id`, token });
        kinds[kind] = list.body.data.map((r: { attributes: Record<string, unknown> }) =>
          String(r.attributes.name ?? r.attributes.title ?? r.attributes['field-identifier']),
        );
      }
      return {
        identifier: read.body.data.attributes.identifier as string,
        name: read.body.data.attributes.name as string,
        kinds,
      };
    };
    const source = await contentOf(published.event, owner);
    const copies = await Promise.all(ids.map((id) => contentOf(id, importer)));
    t.not(copies[0]!.identifier, copies[1]!.identifier, 'each has its own identifier');
    for (const [i, copy] of copies.entries()) {
      t.equal(copy.name, source.name, `import ${i + 1}: the event`);
      t.same(copy.kinds, source.kinds, `import ${i + 1}: every record of every kind, once`);
    }
    const [sessions] = await app.sql<
      { n: number }[]
    >`select count(*)::int as n from sessions where event_id in ${app.sql(ids.map(Number))}`;
    t.equal(sessions!.n, 2 * source.kinds.sessions!.length, 'no session was imported twice or into the other event');
  } finally {
    await worker.close();
  }
});

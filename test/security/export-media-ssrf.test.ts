/**
 * An export with every media flag on must not make the server fetch from its own network: with
 * FETCH_ALLOW_PRIVATE off, media URLs on loopback (by address and by name) are never requested, the
 * export still succeeds, and the archive keeps those URLs as they were. With the flag on (the control),
 * the same kind of URL is fetched into the archive, so the first export did have something to refuse.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import t, { type Test } from 'tap';
import { buildTestApp, call } from '../helpers/app.js';
import { create, eventAttributes, rel } from '../helpers/events.js';
import { makeImage } from '../helpers/images.js';
import { taskEnded } from '../helpers/service.js';
import { seedUser } from '../helpers/users.js';

const png = await makeImage('png', 8, 8);

/** A loopback HTTP server (IPv4 and, where the host has it, IPv6) that answers every path with a PNG and records it. */
async function mediaServer(t: Test) {
  const requests: string[] = [];
  const servers: Server[] = [];
  const listen = (host: string, port: number) =>
    new Promise<Server | undefined>((resolve) => {
      const server = createServer((request, response) => {
        requests.push(`${host} ${request.method} ${request.url}`);
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
      });
      server.once('error', () => resolve(undefined)).listen(port, host, () => resolve(server));
    });
  const v4 = (await listen('127.0.0.1', 0))!;
  servers.push(v4);
  const port = (v4.address() as AddressInfo).port;
  const v6 = await listen('::1', port);
  if (v6) servers.push(v6);
  t.teardown(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));
  return { port, requests, hosts: ['127.0.0.1', 'localhost', ...(v6 ? ['[::1]'] : [])] };
}

/** Runs an export of `event` with every media flag to its end; answers the task and the archive. */
async function exportAll(app: FastifyInstance, event: string, token: string) {
  const started = await call(app, {
    method: 'POST',
    url: `/v1/events/${event}/export/json`,
    token,
    headers: { 'content-type': 'application/json' },
    body: { image: true, video: true, audio: true, document: true },
  });
  if (started.status !== 200) throw new Error(`export: ${started.status} ${JSON.stringify(started.body)}`);
  const task = await taskEnded(app, started.body.task_url, token);
  if (task.state !== 'SUCCESS') return { task, zip: undefined };
  const download = await app.inject({
    method: 'GET',
    url: new URL(task.result.download_url).pathname,
    headers: { authorization: `JWT ${token}` },
  });
  return { task, zip: new AdmZip(download.rawPayload) };
}

const entry = (zip: AdmZip, name: string) => JSON.parse(zip.getEntry(name)!.getData().toString('utf8'));

t.test(
  'without FETCH_ALLOW_PRIVATE: no request reaches loopback, the export succeeds and keeps the URLs',
  async (t) => {
    const loopback = await mediaServer(t);
    const { app } = await buildTestApp(t, { ROLE: 'all', PUBLIC_URL: 'https://api.example.test' });
    const owner = await seedUser(app);
    const event = await create(app, owner.token, 'events', 'event', eventAttributes('Inside Job'));
    const of = { event: rel('event', event) };
    const at = (host: string, file: string) => `http://${host}:${loopback.port}/${file}`;

    // Every media field of the archive, on every loopback spelling.
    const urls: { file: string; field: string; url: string }[] = [];
    for (const host of loopback.hosts) {
      const tag = host.replace(/\W/g, '');
      const logo = at(host, `logo-${tag}.png`);
      const original = at(host, `original-${tag}.png`);
      const patched = await call(app, {
        method: 'PATCH',
        url: `/v1/events/${event}`,
        token: owner.token,
        body: { data: { type: 'event', id: event, attributes: { 'logo-url': logo, 'original-image-url': original } } },
      });
      t.equal(patched.status, 200, `the event's images on ${host}`);
      urls.push(
        { file: 'event', field: 'logo_url', url: logo },
        { file: 'event', field: 'original_image_url', url: original },
      );
      const sponsorLogo = at(host, `sponsor-${tag}.png`);
      await create(app, owner.token, 'sponsors', 'sponsor', { name: `Sponsor ${tag}`, 'logo-url': sponsorLogo }, of);
      urls.push({ file: 'sponsors', field: 'logo_url', url: sponsorLogo });
      const photo = at(host, `photo-${tag}.png`);
      await create(app, owner.token, 'speakers', 'speaker', { name: `Speaker ${tag}`, 'photo-url': photo }, of);
      urls.push({ file: 'speakers', field: 'photo_url', url: photo });
      const media = {
        'slides-url': at(host, `slides-${tag}.pdf`),
        'audio-url': at(host, `talk-${tag}.mp3`),
        'video-url': at(host, `talk-${tag}.mp4`),
      };
      await create(app, owner.token, 'sessions', 'session', { title: `Talk ${tag}`, ...media }, of);
      urls.push(
        ...Object.entries(media).map(([field, url]) => ({ file: 'sessions', field: field.replace(/-/g, '_'), url })),
      );
    }
    // The event keeps the last spelling's logo; the earlier ones were only checked by the image jobs.
    const eventUrls = urls.filter(
      (u) => u.file !== 'event' || u.url.includes(loopback.hosts.at(-1)!.replace(/[[\]]/g, '')),
    );

    const { task, zip } = await exportAll(app, event, owner.token);
    t.equal(task.state, 'SUCCESS', JSON.stringify(task.result));
    t.same(
      zip!
        .getEntries()
        .map((e) => e.entryName)
        .filter((name) => !name.endsWith('.json')),
      [],
      'no media file in the archive',
    );
    for (const { file, field, url } of eventUrls) {
      const records =
        file === 'event' ? [entry(zip!, 'event.json')] : (entry(zip!, `${file}.json`) as Record<string, unknown>[]);
      t.ok(
        records.some((r) => r[field] === url),
        `${file}.${field} keeps ${url}`,
      );
    }
    t.same(loopback.requests, [], 'the loopback server received no request');
  },
);

t.test('control, with FETCH_ALLOW_PRIVATE: the same kind of URL is fetched into the archive', async (t) => {
  const loopback = await mediaServer(t);
  const { app } = await buildTestApp(t, {
    ROLE: 'all',
    FETCH_ALLOW_PRIVATE: 'true',
    PUBLIC_URL: 'https://api.example.test',
  });
  const owner = await seedUser(app);
  const event = await create(app, owner.token, 'events', 'event', eventAttributes('Allowed'));
  const slides = `http://127.0.0.1:${loopback.port}/slides.pdf`;
  await create(
    app,
    owner.token,
    'sessions',
    'session',
    { title: 'Talk', 'slides-url': slides },
    { event: rel('event', event) },
  );
  const { task, zip } = await exportAll(app, event, owner.token);
  t.equal(task.state, 'SUCCESS');
  t.ok(loopback.requests.includes('127.0.0.1 GET /slides.pdf'), 'the slides were requested');
  const [session] = entry(zip!, 'sessions.json') as Record<string, unknown>[];
  t.match(session?.slides_url, /^slides\/session_\d+_slides\.pdf$/, 'and are a file of the archive');
});

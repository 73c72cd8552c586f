/**
 * An app built against this service's own API with a seeded event: the zip arrives by e-mail (real
 * SMTP) and at the download URL, is unpacked and served from a temp folder, and opened in headless
 * Chromium: the event, a session and a speaker are visible, the data is live (a title changed after
 * the build shows), the manifest is valid, and a reload with the network cut still shows the schedule
 * (the snapshot built in). The app name carries a script tag, which must stay text everywhere.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import sharp from 'sharp';
import t from 'tap';
import { buildTestApp, call, until } from '../helpers/app.js';
import { startBuild } from '../helpers/appgen.js';
import { browserMissing, launchBrowser, openPage } from '../helpers/browser.js';
import { buildWorld, create, rel } from '../helpers/events.js';
import { makeImage, uploadImage } from '../helpers/images.js';
import { reservePort } from '../helpers/postgres.js';
import { taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';
import { serveFolder } from '../helpers/static-server.js';

const reserved = await reservePort();
const PUBLIC_URL = `http://127.0.0.1:${reserved.port}`;
const smtp = await startSmtp(t);
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, PUBLIC_URL, FETCH_ALLOW_PRIVATE: 'true' });
await reserved.release();
await app.listen({ port: reserved.port, host: '127.0.0.1' });
const { cast, published } = await buildWorld(app);
const owner = cast.owner.token;

// A logo for the icons, a second day with a second track, and a second speaker.
const logo = await uploadImage(app, owner, await makeImage('png', 300, 200), 'png');
await call(app, {
  method: 'PATCH',
  url: `/v1/events/${published.event}`,
  token: owner,
  body: {
    data: { type: 'event', id: published.event, attributes: { 'logo-url': logo, 'location-name': 'Hall 7, Berlin' } },
  },
});
const track = await create(
  app,
  owner,
  'tracks',
  'track',
  { name: 'Data', color: '#2266aa' },
  { event: rel('event', published.event) },
);
const grace = await create(
  app,
  owner,
  'speakers',
  'speaker',
  { name: 'Grace Hopper', email: 'grace@example.com', organisation: 'Navy' },
  { event: rel('event', published.event) },
);
const closing = await create(
  app,
  owner,
  'sessions',
  'session',
  {
    title: 'Compilers for everyone',
    'starts-at': '2030-05-02T14:00:00Z',
    'ends-at': '2030-05-02T15:00:00Z',
    state: 'confirmed',
  },
  {
    event: rel('event', published.event),
    track: rel('track', track),
    speakers: { data: [{ type: 'speaker', id: grace }] },
  },
);
await create(
  app,
  owner,
  'sessions',
  'session',
  { title: 'A draft nobody may see', state: 'draft' },
  { event: rel('event', published.event) },
);

const APP_NAME = 'Summit <script>alert(1)</script> & "friends"';
const EMAIL = 'organizer@example.org';
const endpoint = `${PUBLIC_URL}/v1/events/${published.event}`;

const started = await startBuild(app, { email: EMAIL, app_name: APP_NAME, endpoint });
const task = await taskEnded(app, started.body.task_url);
const [mail] = await smtp.waitFor(1);
const zip = mail!.parsed.attachments[0]!.content;
const folder = await mkdtemp(join(tmpdir(), 'oe-app-'));
t.teardown(() => rm(folder, { recursive: true, force: true }));
new AdmZip(zip).extractAllTo(folder);
const read = (name: string) => readFile(join(folder, name), 'utf8');

t.test('the build succeeds and the zip is mailed and downloadable', async (t) => {
  t.equal(started.status, 202);
  t.match(started.body, { status: 'ok', identifier: /^[0-9a-f]{16}$/, task_url: /^\/v1\/tasks\/[0-9a-f-]{36}$/ });
  t.match(
    task,
    { state: 'SUCCESS', status: null, result: { download_url: new RegExp(`^${PUBLIC_URL}/static/media/apps/`) } },
    JSON.stringify(task),
  );
  t.strictSame(mail!.envelope.to, [EMAIL]);
  t.equal(mail!.parsed.subject, `Your app "${APP_NAME}" is ready`);
  t.match(mail!.parsed.text, task.result.download_url);
  t.equal(mail!.parsed.attachments.length, 1);
  t.match(mail!.parsed.attachments[0], {
    filename: 'summit-script-alert-1-script-friends.zip',
    contentType: 'application/zip',
  });
  const download = await fetch(task.result.download_url);
  t.equal(download.status, 200);
  t.ok(Buffer.from(await download.arrayBuffer()).equals(zip), 'the download is the mailed zip');
  const names = new AdmZip(zip)
    .getEntries()
    .map((e) => e.entryName)
    .sort();
  t.strictSame(names, [
    'README.txt',
    'app.js',
    'config.json',
    'data.json',
    'event-data.js',
    'icons/icon-192.png',
    'icons/icon-512.png',
    'index.html',
    'logo.png',
    'manifest.webmanifest',
    'style.css',
    'sw.js',
  ]);
});

t.test('the app name is text in every file it lands in', async (t) => {
  const html = await read('index.html');
  t.notMatch(html, '<script>alert', 'no script tag from the name');
  t.match(html, '<title>Summit &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;</title>');
  t.equal(JSON.parse(await read('manifest.webmanifest')).name, APP_NAME);
  t.equal(JSON.parse(await read('config.json')).app_name, APP_NAME);
  t.match(await read('sw.js'), `const BUILD = '${started.body.identifier}';`);
});

t.test('the snapshot holds the public schedule', async (t) => {
  const data = JSON.parse(await read('data.json'));
  t.match(data.event, { name: 'Open Summit', timezone: 'Europe/Berlin', location: 'Hall 7, Berlin', logo });
  t.strictSame(
    data.sessions.map((s: { title: string }) => s.title),
    ['Opening', 'Compilers for everyone'],
    'drafts are left out',
  );
  t.match(data.sessions[1], { id: closing, track, speakers: [grace] });
  t.strictSame(data.speakers.map((s: { name: string }) => s.name).sort(), ['Ada', 'Grace Hopper']);
  t.strictSame(
    data.tracks.map((s: { name: string }) => s.name),
    ['Data', 'Web'],
  );
  t.strictSame(
    data.sponsors.map((s: { name: string }) => s.name),
    ['ACME'],
  );
  t.equal(JSON.parse(await read('config.json')).endpoint, endpoint);
});

t.test('the icons are PNGs of their sizes made from the logo', async (t) => {
  for (const size of [192, 512]) {
    const meta = await sharp(await readFile(join(folder, `icons/icon-${size}.png`))).metadata();
    t.match(meta, { format: 'png', width: size, height: size }, `icon ${size}`);
  }
  t.match(await sharp(await readFile(join(folder, 'logo.png'))).metadata(), { format: 'png', width: 256 });
});

t.test(
  'in Chromium: live data, a valid manifest, and offline after the first visit',
  { skip: browserMissing() },
  async (t) => {
    // Changed after the build: the app shows it only when it reads the live API.
    await call(app, {
      method: 'PATCH',
      url: `/v1/sessions/${closing}`,
      token: owner,
      body: { data: { type: 'session', id: closing, attributes: { title: 'Compilers for everyone, live' } } },
    });
    const site = await serveFolder(t, folder);
    const browser = await launchBrowser(t);
    const { context, page, dialogs } = await openPage(browser);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    await page.goto(site.url);
    await page.getByText('Showing live data.').waitFor({ timeout: 60_000 });
    t.equal(await page.title(), APP_NAME, 'the title is the name as text');
    t.ok(await page.getByRole('heading', { name: 'Open Summit' }).isVisible(), 'the event name is visible');
    t.ok(await page.getByText('Hall 7, Berlin').isVisible(), 'the location is visible');
    t.ok(await page.locator('summary .title', { hasText: 'Opening' }).isVisible(), 'a session title is visible');
    t.ok(
      await page.locator('summary .title', { hasText: 'Compilers for everyone, live' }).isVisible(),
      'the live title is shown',
    );
    t.ok(
      await page.locator('summary .speakers', { hasText: 'Grace Hopper' }).isVisible(),
      'a speaker name is visible in the schedule',
    );
    t.ok(await page.locator('#speakers h3', { hasText: 'Grace Hopper' }).isVisible(), 'and on the speakers page');
    t.ok(await page.locator('#sponsors', { hasText: 'ACME' }).isVisible(), 'the sponsor is shown');
    t.strictSame(
      await page.locator('.day h3').allTextContents(),
      ['Wednesday, May 1, 2030', 'Thursday, May 2, 2030'],
      'the schedule is by day (in the event time zone)',
    );
    t.strictSame(await page.locator('.day').nth(1).locator('h4').allTextContents(), ['Data'], 'and by track');
    await page.locator('summary', { hasText: 'Compilers' }).click();
    t.ok(
      await page.locator('.session-speakers', { hasText: 'Grace Hopper (Navy)' }).isVisible(),
      'session details list the speakers',
    );

    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; data: string };
    t.strictSame(manifest.errors, [], 'Chromium finds no error in the manifest');
    t.match(JSON.parse(manifest.data), {
      name: APP_NAME,
      start_url: './',
      display: 'standalone',
      icons: [{ sizes: '192x192' }, { sizes: '512x512' }],
    });
    const icon = await page.request.get(new URL('icons/icon-512.png', site.url).href);
    t.equal(icon.headers()['content-type'], 'image/png');

    t.ok(
      await page.evaluate(async () => !!(await navigator.serviceWorker.ready).active),
      'the service worker is active',
    );
    await until(
      'the app files to be cached',
      async () =>
        (await page.evaluate(async () => (await caches.keys()).length > 0 && !!(await caches.match('index.html')))) ||
        undefined,
    );
    const cacheNames = await page.evaluate(() => caches.keys());
    t.ok(
      cacheNames.every((name) => name.startsWith(`event-app ${site.url} `)),
      `the caches are named after the app's folder, so other apps on the origin keep theirs: ${cacheNames.join(', ')}`,
    );

    // The network is cut: the folder is no longer served and the browser is offline.
    await site.close();
    await context.setOffline(true);
    await page.reload();
    await page.getByText(/^Offline: showing the data of /).waitFor({ timeout: 60_000 });
    t.ok(await page.getByRole('heading', { name: 'Open Summit' }).isVisible(), 'offline: the event name');
    t.ok(await page.locator('summary .title', { hasText: 'Opening' }).isVisible(), 'offline: the schedule');
    t.ok(
      await page.locator('summary .title', { hasText: /^Compilers for everyone$/ }).isVisible(),
      'offline: the snapshot title',
    );
    t.strictSame(dialogs, [], 'no script from the data or the name ran');
    t.strictSame(errors, [], 'no error in the page');
  },
);

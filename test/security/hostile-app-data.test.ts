/**
 * An app built from a hostile event API (the generator builds from any endpoint): HTML and script in
 * every text the app shows, `javascript:` and `data:` URLs where it shows links and images, a style
 * in a track colour. In Chromium, live and from the built-in snapshot, no element and no script comes
 * from the data, no `javascript:` URL reaches the page, and the hostile text is shown as text.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import type { Page } from 'playwright-core';
import t, { type Test } from 'tap';
import { buildTestApp, until } from '../helpers/app.js';
import { json, startBuild, startFake } from '../helpers/appgen.js';
import { launchBrowser, openPage } from '../helpers/browser.js';
import { taskEnded } from '../helpers/service.js';
import { startSmtp } from '../helpers/smtp.js';
import { serveFolder } from '../helpers/static-server.js';

const smtp = await startSmtp(t);
// Loopback endpoints allowed: the hostile API runs on this machine.
const { app } = await buildTestApp(t, { ROLE: 'all', SMTP_URL: smtp.url, FETCH_ALLOW_PRIVATE: 'true' });

/** Each sets `window.__pwned` (or opens a dialog) should it ever run. */
const HOSTILE = {
  eventName: '<img src=x onerror="window.__pwned=1">Hostile Con',
  location: '<script>window.__pwned=2</script>Hall',
  title: '<img src=x onerror="window.__pwned=3">',
  subtitle: '"><svg onload="window.__pwned=4">',
  abstract: '<img src=x onerror="window.__pwned=5"><b>bold</b> <iframe src="javascript:alert(5)"></iframe>',
  speaker: '<a href="javascript:alert(6)">Eve</a>',
  organisation: '<style>body{display:none}</style>Evil Corp',
  sponsor: '<script>alert(7)</script>Sponsor',
  track: '<math><mi xlink:href="javascript:alert(8)">Track</mi></math>',
  room: '<details open ontoggle="window.__pwned=9">Room',
};
const resource = (
  type: string,
  id: string,
  attributes: Record<string, unknown>,
  relationships: Record<string, unknown> = {},
) => ({ type, id, attributes, relationships });
const one = (type: string, id: string) => ({ data: { type, id } });
const LISTS: Record<string, unknown[]> = {
  sessions: [
    resource(
      'session',
      '1',
      {
        title: HOSTILE.title,
        subtitle: HOSTILE.subtitle,
        'short-abstract': HOSTILE.abstract,
        'starts-at': '2030-05-01T10:00:00Z',
        'ends-at': '2030-05-01T11:00:00Z',
        state: 'accepted',
      },
      {
        speakers: { data: [{ type: 'speaker', id: '1' }] },
        track: one('track', '1'),
        microlocation: one('microlocation', '1'),
      },
    ),
  ],
  speakers: [
    resource('speaker', '1', {
      name: HOSTILE.speaker,
      organisation: HOSTILE.organisation,
      'photo-url': 'JavaScript:alert(10)',
      'thumbnail-image-url': 'data:image/svg+xml,<svg onload=alert(11)>',
    }),
  ],
  tracks: [resource('track', '1', { name: HOSTILE.track, color: 'red;background:url(javascript:alert(12))' })],
  microlocations: [resource('microlocation', '1', { name: HOSTILE.room })],
  sponsors: [
    resource('sponsor', '1', {
      name: HOSTILE.sponsor,
      level: 1,
      url: 'javascript:alert(13)',
      'logo-url': ' javascript:alert(14)',
    }),
  ],
};
const EVENT = resource('event', '1', {
  name: HOSTILE.eventName,
  'starts-at': '2030-05-01T09:00:00Z',
  'ends-at': '2030-05-02T18:00:00Z',
  timezone: 'UTC',
  'location-name': HOSTILE.location,
  'logo-url': 'javascript:alert(15)',
});
/** The event's hostile API, readable from any origin as a real one would be for its apps. */
const api = await startFake(t, (request, response) => {
  const path = new URL(request.url!, 'http://x').pathname;
  const list = /^\/v1\/events\/1\/(\w+)$/.exec(path)?.[1];
  const body =
    path === '/v1/events/1'
      ? { data: EVENT }
      : list && LISTS[list]
        ? { data: LISTS[list], meta: { count: LISTS[list]!.length } }
        : undefined;
  response.setHeader('access-control-allow-origin', '*');
  if (!body) return void response.writeHead(404).end();
  json(response, { ...body, jsonapi: { version: '1.0' } });
});

const started = await startBuild(app, {
  email: 'organizer@example.org',
  app_name: 'Hostile',
  endpoint: `${api.url}/v1/events/1`,
});
const task = await taskEnded(app, started.body.task_url);
const [mail] = await smtp.waitFor(1);
const folder = await mkdtemp(join(tmpdir(), 'oe-hostile-app-'));
t.teardown(() => rm(folder, { recursive: true, force: true }));
new AdmZip(mail!.parsed.attachments[0]!.content).extractAllTo(folder);

t.test('the build succeeds and its files hold the data as text, without the javascript: URLs', async (t) => {
  t.equal(task.state, 'SUCCESS', JSON.stringify(task));
  const html = await readFile(join(folder, 'index.html'), 'utf8');
  t.notMatch(html, /<img src=x|<script>window|javascript:/i, 'index.html: no markup or URL from the data');
  t.match(html, '&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;Hostile Con', 'the event name as escaped text');
  const data = JSON.parse(await readFile(join(folder, 'data.json'), 'utf8'));
  t.equal(data.event.name, HOSTILE.eventName);
  t.equal(data.event.logo, null, 'no event logo');
  t.match(data.sponsors, [{ name: HOSTILE.sponsor, url: null, logo: null }], 'no sponsor link or logo');
  t.match(data.speakers, [{ name: HOSTILE.speaker, photo: null }], 'no speaker photo');
  t.match(data.tracks, [{ name: HOSTILE.track }]);
});

/** What of the page could come from the data: elements, handlers, scripts and URLs. */
const inspect = (page: Page) =>
  page.evaluate(() => {
    const all = [...document.querySelectorAll('*')];
    const urls = [...document.querySelectorAll('[href], [src], [xlink\\:href]')].map(
      (e) => e.getAttribute('href') ?? e.getAttribute('src') ?? e.getAttribute('xlink:href') ?? '',
    );
    return {
      pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
      handlers: all.flatMap((e) =>
        [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`),
      ),
      foreign: all
        .filter((e) => e.matches('body img[src="x"], svg, iframe, math, body style, b, body script'))
        .map((e) => e.tagName),
      scripts: [...document.scripts].map((s) => s.getAttribute('src')),
      javascriptUrls: urls.filter((u) => /^\s*javascript:/i.test(u)),
      styles: all.map((e) => e.getAttribute('style') ?? '').filter((s) => /javascript|url\(/i.test(s)),
    };
  });

async function expectInert(t: Test, page: Page, dialogs: string[]) {
  const found = await inspect(page);
  t.equal(found.pwned, null, 'no handler from the data ran');
  t.strictSame(dialogs, [], 'no dialog opened');
  t.strictSame(found.handlers, [], 'no element carries an event handler attribute');
  t.strictSame(found.foreign, [], 'no element made from the data');
  t.strictSame(found.scripts, ['app.js'], 'the only script is the app');
  t.strictSame(found.javascriptUrls, [], 'no javascript: URL in any href or src');
  t.strictSame(found.styles, [], 'no URL in a style attribute');
  t.equal(await page.locator('#event-name').textContent(), HOSTILE.eventName, 'the event name as text');
  t.ok(await page.locator('summary .title', { hasText: HOSTILE.title }).isVisible(), 'the session title as text');
  t.ok(await page.locator('summary .speakers', { hasText: HOSTILE.speaker }).isVisible(), 'the speaker name as text');
  t.ok(await page.locator('#sponsors', { hasText: HOSTILE.sponsor }).isVisible(), 'the sponsor name as text');
  await page.locator('summary', { hasText: HOSTILE.title }).click();
  t.ok(await page.locator('.abstract', { hasText: 'bold' }).isVisible(), 'the abstract as its text');
  t.ok(await page.locator('.subtitle', { hasText: HOSTILE.subtitle }).isVisible(), 'the subtitle as text');
  const after = await inspect(page);
  t.strictSame([after.pwned, after.handlers, after.foreign], [null, [], []], 'opening the session changes nothing');
}

t.test('in Chromium, live and offline: nothing from the data runs or becomes markup', async (t) => {
  const site = await serveFolder(t, folder);
  const browser = await launchBrowser(t);
  const { context, page, dialogs } = await openPage(browser);
  await page.goto(site.url);
  await page.getByText('Showing live data.').waitFor({ timeout: 30_000 });
  await t.test('live data', (t) => expectInert(t, page, dialogs));

  // Offline only once the service worker has cached the app, as a returning visitor would have it.
  await until(
    'the app files to be cached',
    async () =>
      (await page.evaluate(
        async () => !!(await navigator.serviceWorker.ready).active && !!(await caches.match('index.html')),
      )) || undefined,
  );
  await context.setOffline(true);
  await page.reload();
  await page.getByText(/^Offline: showing the data of /).waitFor({ timeout: 30_000 });
  await t.test('the snapshot, offline', (t) => expectInert(t, page, dialogs));
});

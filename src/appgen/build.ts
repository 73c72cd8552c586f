import { readFile } from 'node:fs/promises';
import AdmZip from 'adm-zip';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { escapeHtml } from '../html.js';
import { readImage } from '../images/source.js';
import { safeFetch, type FetchLimits } from '../net/safe-fetch.js';
import { datesOf, eventUrl, loadEvent, type EventData } from './template/event-data.js';

const TEMPLATE = new URL('./template/', import.meta.url);
/** Files of the template copied as they are. */
const STATIC = ['app.js', 'event-data.js', 'style.css'];
const THEME = '#1f4e79';

/** A build failure whose message the requester may read (it names no internals). */
export class BuildError extends Error {}

export interface BuildLimits {
  fetch: FetchLimits;
  maxPixels: number;
}

export interface AppSpec {
  appName: string;
  endpoint: string;
  /** Names this build (the service worker's caches). */
  identifier: string;
}

/** What a build did, line by line with the time: mailed to the requester when the build fails. */
export class BuildLog {
  private readonly lines: string[] = [];
  add(line: string) {
    this.lines.push(`${new Date().toISOString()} ${line}`);
  }
  toString() {
    return `${this.lines.join('\n')}\n`;
  }
}

/** The template with each `{{name}}` replaced in one pass (a value is never read as a placeholder). */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`the template has no value for {{${name}}}`);
    return values[name]!;
  });
}

const template = (name: string) => readFile(new URL(name, TEMPLATE));

async function getJson(url: string, limits: FetchLimits): Promise<unknown> {
  const { body, contentType } = await safeFetch(url, limits).catch((err: Error) => {
    throw new BuildError(`${url}: ${err.message}`);
  });
  if (!/\bjson\b/i.test(contentType ?? '')) throw new BuildError(`${url} did not answer JSON (content type ${contentType ?? 'none'})`);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new BuildError(`${url} answered malformed JSON`);
  }
}

/** The icons (and the logo the page shows), from the event logo or, failing that, the default icon. */
async function pictures(app: FastifyInstance, logoUrl: string | null, limits: BuildLimits, log: BuildLog): Promise<Record<string, Buffer>> {
  const from = async (input: Buffer, withLogo: boolean) => {
    const image = () => sharp(input, { limitInputPixels: limits.maxPixels }).rotate();
    const square = (size: number) =>
      image().resize(size, size, { fit: 'contain', background: '#ffffff' }).flatten({ background: '#ffffff' }).png().toBuffer();
    const files: Record<string, Buffer> = { 'icons/icon-192.png': await square(192), 'icons/icon-512.png': await square(512) };
    if (withLogo) files['logo.png'] = await image().resize(256, 256, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
    return files;
  };
  if (logoUrl) {
    try {
      const files = await from(await readImage(app, logoUrl, limits.fetch), true);
      log.add(`Icons made from the event logo ${logoUrl}`);
      return files;
    } catch (err) {
      log.add(`The event logo ${logoUrl} could not be used (${(err as Error).message}); the default icon is used`);
    }
  }
  return from(await template('icon.svg'), false);
}

/** The first `max` characters (code points), trimmed. */
const shorten = (text: string, max: number) => Array.from(text).slice(0, max).join('').trim();

/**
 * Builds the installable web app of the event `spec.endpoint` names: reads the event through its
 * JSON:API (SSRF-safe), fills the template, makes the icons, and answers the zip. The app name lands
 * escaped for each place (HTML, JSON); no program is run.
 */
export async function buildEventApp(app: FastifyInstance, spec: AppSpec, limits: BuildLimits, log: BuildLog, progress: (status: string) => Promise<void>): Promise<Buffer> {
  await progress('Reading the event');
  let data: EventData;
  try {
    data = await loadEvent(spec.endpoint, (url) => getJson(url, limits.fetch), (line) => log.add(line));
  } catch (err) {
    throw err instanceof BuildError ? err : new BuildError((err as Error).message);
  }
  log.add(`Read "${data.event.name}": ${data.sessions.length} sessions, ${data.speakers.length} speakers, ${data.tracks.length} tracks, ${data.rooms.length} rooms, ${data.sponsors.length} sponsors`);
  await progress('Building the app');
  const files: Record<string, Buffer | string> = await pictures(app, data.event.logo, limits, log);
  for (const name of STATIC) files[name] = await template(name);
  const endpoint = eventUrl(spec.endpoint);
  files['config.json'] = JSON.stringify({ app_name: spec.appName, endpoint, identifier: spec.identifier, built_at: new Date().toISOString() });
  files['data.json'] = JSON.stringify(data);
  files['manifest.webmanifest'] = JSON.stringify(
    {
      id: './',
      name: spec.appName,
      short_name: shorten(spec.appName, 12),
      description: shorten(`${data.event.name}: schedule, speakers and sponsors`, 300),
      start_url: './',
      scope: './',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: THEME,
      icons: [192, 512].map((size) => ({ src: `icons/icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' })),
    },
    null,
    2,
  );
  files['index.html'] = fill((await template('index.html')).toString('utf8'), {
    app_name: escapeHtml(spec.appName),
    api_origin: escapeHtml(new URL(endpoint).origin),
    logo: 'logo.png' in files ? 'logo.png' : 'icons/icon-192.png',
    event_name: escapeHtml(data.event.name),
    event_dates: escapeHtml(datesOf(data.event)),
    event_location: escapeHtml(data.event.location),
  });
  // The service worker caches every file of the app, and the folder itself (index.html).
  const cached = ['./', ...Object.keys(files)].filter((name) => name !== 'sw.js');
  files['sw.js'] = fill((await template('sw.js')).toString('utf8'), { build: spec.identifier, files: JSON.stringify(cached) });
  files['README.txt'] = await template('README.txt');
  const zip = new AdmZip();
  for (const [name, content] of Object.entries(files)) zip.addFile(name, Buffer.isBuffer(content) ? content : Buffer.from(content));
  const archive = zip.toBuffer();
  log.add(`Built ${Object.keys(files).length} files, ${archive.length} bytes zipped`);
  return archive;
}

import { readFile } from 'node:fs/promises';
import AdmZip from 'adm-zip';
import { loadSharp } from '../images/sharp.js';
import { escapeHtml } from '../html.js';
import { FetchError, safeFetch, type FetchLimits } from '../net/safe-fetch.js';
import { nameFromEvent } from './fields.js';
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
  /** The whole build's deadline; every fetch ends by it. */
  timeoutMs: number;
  /** Bytes all fetches of one build may read together. */
  maxDataBytes: number;
}

export interface AppSpec {
  /** Null: the event's name (the v2 entry points send none, as the reference names the app after the event). */
  appName: string | null;
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

/**
 * Fetches of one build: SSRF-safe, each within what is left of the build's time and byte budget;
 * running out of either fails the build saying so.
 */
function fetcher(limits: BuildLimits) {
  const deadline = Date.now() + limits.timeoutMs;
  const outOfTime = (url: string) =>
    new BuildError(`The build took longer than ${limits.timeoutMs / 1000} seconds (at ${url})`);
  const outOfBytes = (url: string) =>
    new BuildError(`The event's data is larger than ${limits.maxDataBytes} bytes (at ${url})`);
  let spent = 0;
  return async (url: string) => {
    const left = { ms: deadline - Date.now(), bytes: limits.maxDataBytes - spent };
    if (left.ms <= 0) throw outOfTime(url);
    if (left.bytes <= 0) throw outOfBytes(url);
    const { body, contentType } = await safeFetch(url, {
      ...limits.fetch,
      timeoutMs: Math.min(limits.fetch.timeoutMs, left.ms),
      maxBytes: Math.min(limits.fetch.maxBytes, left.bytes),
    }).catch((err: Error) => {
      if (err instanceof FetchError && err.limit === 'time' && left.ms < limits.fetch.timeoutMs) throw outOfTime(url);
      if (err instanceof FetchError && err.limit === 'size' && left.bytes < limits.fetch.maxBytes)
        throw outOfBytes(url);
      throw new BuildError(`${url}: ${err.message}`);
    });
    spent += body.length;
    return { body, contentType };
  };
}

async function getJson(fetch: ReturnType<typeof fetcher>, url: string): Promise<unknown> {
  const { body, contentType } = await fetch(url);
  if (!/\bjson\b/i.test(contentType ?? ''))
    throw new BuildError(`${url} did not answer JSON (content type ${contentType ?? 'none'})`);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new BuildError(`${url} answered malformed JSON`);
  }
}

/** The icons (and the logo the page shows), from the event logo or, failing that, the default icon. */
async function pictures(
  logoUrl: string | null,
  fetch: ReturnType<typeof fetcher>,
  maxPixels: number,
  log: BuildLog,
): Promise<Record<string, Buffer>> {
  const sharp = await loadSharp();
  const from = async (input: Buffer, withLogo: boolean) => {
    const image = () => sharp(input, { limitInputPixels: maxPixels }).rotate();
    const square = (size: number) =>
      image()
        .resize(size, size, { fit: 'contain', background: '#ffffff' })
        .flatten({ background: '#ffffff' })
        .png()
        .toBuffer();
    const files: Record<string, Buffer> = {
      'icons/icon-192.png': await square(192),
      'icons/icon-512.png': await square(512),
    };
    if (withLogo)
      files['logo.png'] = await image().resize(256, 256, { fit: 'inside', withoutEnlargement: true }).png().toBuffer();
    return files;
  };
  if (logoUrl) {
    // Fetched like any URL of the endpoint's data (never read from our storage by its URL), and
    // only what the fetch says is logged: the mailed log names nothing of the server's.
    try {
      const files = await from((await fetch(logoUrl)).body, true);
      log.add(`Icons made from the event logo ${logoUrl}`);
      return files;
    } catch (err) {
      const reason = err instanceof BuildError ? err.message : `${logoUrl}: not an image this build can read`;
      log.add(`The event logo could not be used (${reason}); the default icon is used`);
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
export async function buildEventApp(
  spec: AppSpec,
  limits: BuildLimits,
  log: BuildLog,
  progress: (status: string) => Promise<void>,
): Promise<{ zip: Buffer; appName: string }> {
  await progress('Reading the event');
  const fetch = fetcher(limits);
  let data: EventData;
  try {
    data = await loadEvent(
      spec.endpoint,
      (url) => getJson(fetch, url),
      (line) => log.add(line),
    );
  } catch (err) {
    // The reader's own refusals are plain Errors that describe the data; anything else is a bug.
    throw err instanceof Error && err.constructor === Error ? new BuildError(err.message) : err;
  }
  const appName = spec.appName ?? nameFromEvent(data.event.name);
  if (spec.appName === null) log.add(`The app is named after the event: "${appName}"`);
  log.add(
    `Read "${data.event.name}": ${data.sessions.length} sessions, ${data.speakers.length} speakers, ${data.tracks.length} tracks, ${data.rooms.length} rooms, ${data.sponsors.length} sponsors`,
  );
  await progress('Building the app');
  const files: Record<string, Buffer | string> = await pictures(data.event.logo, fetch, limits.maxPixels, log);
  for (const name of STATIC) files[name] = await template(name);
  const endpoint = eventUrl(spec.endpoint);
  files['config.json'] = JSON.stringify({
    app_name: appName,
    endpoint,
    identifier: spec.identifier,
    built_at: new Date().toISOString(),
  });
  files['data.json'] = JSON.stringify(data);
  files['manifest.webmanifest'] = JSON.stringify(
    {
      id: './',
      name: appName,
      short_name: shorten(appName, 12),
      description: shorten(`${data.event.name}: schedule, speakers and sponsors`, 300),
      start_url: './',
      scope: './',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: THEME,
      icons: [192, 512].map((size) => ({
        src: `icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: 'any',
      })),
    },
    null,
    2,
  );
  files['index.html'] = fill((await template('index.html')).toString('utf8'), {
    app_name: escapeHtml(appName),
    api_origin: escapeHtml(new URL(endpoint).origin),
    logo: 'logo.png' in files ? 'logo.png' : 'icons/icon-192.png',
    event_name: escapeHtml(data.event.name),
    event_dates: escapeHtml(datesOf(data.event)),
    event_location: escapeHtml(data.event.location),
  });
  // The service worker caches every file of the app, and the folder itself (index.html).
  const cached = ['./', ...Object.keys(files)].filter((name) => name !== 'sw.js');
  files['sw.js'] = fill((await template('sw.js')).toString('utf8'), {
    build: spec.identifier,
    files: JSON.stringify(cached),
  });
  files['README.txt'] = await template('README.txt');
  const zip = new AdmZip();
  for (const [name, content] of Object.entries(files))
    zip.addFile(name, Buffer.isBuffer(content) ? content : Buffer.from(content));
  const archive = zip.toBuffer();
  log.add(`Built ${Object.keys(files).length} files, ${archive.length} bytes zipped`);
  return { zip: archive, appName };
}

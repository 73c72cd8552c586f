/**
 * The real Open Event front end (the production build in ../shared/open-event-frontend/, GPL-3: read
 * from there at run time, never copied) served against a test app and driven in Chromium: unpacked,
 * its API origin replaced by the app's, logged in through its login form, and walked from route to
 * route the way its own links move (the router's history location, no reload).
 */
import { execFile } from 'node:child_process';
import { createReadStream, existsSync, realpathSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import mime from 'mime-types';
import type { Browser, Page } from 'playwright-core';
import type { Test } from 'tap';

/** The shared build (README there): its API origin is this literal, once in the app's script and URL-encoded in index.html. */
export const FRONT_END_BUILD = resolve(
  dirname(realpathSync(join(import.meta.dirname, '../../package.json'))),
  '../shared/open-event-frontend/dist.tar.xz',
);
const BAKED_ORIGIN = 'http://127.0.0.1:3103';
/**
 * How often a wait re-checks the page. Playwright's default re-checks on each animation frame, and a tab that
 * paints no frame (under load, beside other tabs) never re-checks: a CI run's login waited 45 s on a page that had
 * long left the login form.
 */
const POLL_MS = 200;

/**
 * The front end's own noise on every run (the shared README): the rich-text editor library in headless
 * Chromium, and its version lookup at api.github.com (no internet here).
 */
export const FRONT_END_NOISE = [
  /r\.appendChild is not a function/,
  /this\.parent\.fire is not a function/,
  /Cannot read properties of null \(reading 'document'\)/,
  /api\.github\.com/,
  // The version lookup's failure as its fetch polyfill words it.
  /^TypeError: Network request failed$/,
  // The browser's line for every failed answer: ours are reported by URL and status instead.
  /^Failed to load resource/,
];

export const frontEndMissing = (): string | false =>
  existsSync(FRONT_END_BUILD) ? false : `no front end build at ${FRONT_END_BUILD}`;

/**
 * Unpacks the build and serves it as any static host of a single-page app does (`index.html` for any path
 * that is not a file), with `apiOrigin` in place of the baked one; stopped and removed when `t` ends.
 */
export async function serveFrontEnd(t: Test, apiOrigin: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'oe-frontend-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await promisify(execFile)('tar', ['-xJf', FRONT_END_BUILD, '-C', dir]);
  const root = join(dir, 'dist');
  const assets = await readdir(join(root, 'assets'));
  const appScript = assets.find((name) => /^open-event-frontend-[0-9a-f]+\.js$/.test(name));
  if (!appScript) throw new Error('the build has no open-event-frontend-<hash>.js');
  const script = await readFile(join(root, 'assets', appScript), 'utf8');
  if (script.split(BAKED_ORIGIN).length !== 2) throw new Error(`${appScript} does not name ${BAKED_ORIGIN} once`);
  const patched = Buffer.from(script.replace(BAKED_ORIGIN, apiOrigin));
  // The environment (apiHost, the token endpoints) is also in index.html's config meta tag, URL-encoded.
  const index = Buffer.from(
    (await readFile(join(root, 'index.html'), 'utf8')).replaceAll(
      encodeURIComponent(BAKED_ORIGIN),
      encodeURIComponent(apiOrigin),
    ),
  );

  const server: Server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url!, 'http://x').pathname);
    const file = normalize(join(root, path));
    const send = (type: string, body: Buffer) =>
      void response.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
    if (path === `/assets/${appScript}`) return send('text/javascript', patched);
    const found = file.startsWith(root + sep) ? await stat(file).catch(() => undefined) : undefined;
    if (!found?.isFile()) return send('text/html; charset=utf-8', index);
    response.writeHead(200, {
      'content-type': mime.contentType(extname(file)) || 'application/octet-stream',
      'content-length': found.size,
      'cache-control': 'max-age=3600',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An answer of ours of 400 or above: the request's method, its path and query (decoded), the status. */
export interface FailedAnswer {
  method: string;
  path: string;
  status: number;
  detail?: string;
}

/** What went wrong while a page loaded: our answers of 400 and above, and page errors that are not noise. */
export interface PageProblems {
  answers: FailedAnswer[];
  errors: string[];
}

/** An answer a step provokes on purpose: not counted as a problem. */
export type ProvokedAnswer = Omit<FailedAnswer, 'path'> & { path: RegExp };

export const describeAnswer = (a: FailedAnswer) =>
  `${a.method} ${a.path} → ${a.status}${a.detail ? ` (${a.detail})` : ''}`;

/**
 * A page of the front end that records what goes wrong and knows when it has settled: no request to the API
 * in flight for a moment after the last one ended.
 */
export class FrontEndTab {
  private inFlight = 0;
  private lastActivity = Date.now();
  private problems: PageProblems = { answers: [], errors: [] };
  /** Answers that a step provokes on purpose (`METHOD path-prefix STATUS`), not counted as problems. */
  expected: ProvokedAnswer[] = [];

  constructor(
    readonly page: Page,
    readonly site: string,
    readonly api: string,
  ) {
    const ours = (url: string) => url.startsWith(api);
    page.on('request', (request) => {
      if (!ours(request.url())) return;
      this.inFlight++;
      this.lastActivity = Date.now();
    });
    const ended = (url: string) => {
      if (!ours(url)) return;
      this.inFlight = Math.max(0, this.inFlight - 1);
      this.lastActivity = Date.now();
    };
    page.on('requestfinished', (request) => ended(request.url()));
    page.on('requestfailed', (request) => {
      ended(request.url());
      // ERR_ABORTED: the page itself went elsewhere (a full reload, as logging out does) with requests under way.
      if (ours(request.url()) && request.method() !== 'OPTIONS' && request.failure()?.errorText !== 'net::ERR_ABORTED')
        this.problems.errors.push(`${request.method()} ${request.url()} failed: ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      const request = response.request();
      if (!ours(response.url()) || response.status() < 400) return;
      const answer: FailedAnswer = {
        method: request.method(),
        path: decodeURIComponent(response.url().slice(api.length)),
        status: response.status(),
      };
      const provoked = (e: ProvokedAnswer) =>
        e.method === answer.method && e.path.test(answer.path) && e.status === answer.status;
      if (this.expected.some(provoked)) return;
      this.problems.answers.push(answer);
      // The first error's detail, when the body says one (read while the page goes on).
      response
        .json()
        .then((body) => {
          const detail = body?.errors?.[0]?.detail;
          if (typeof detail === 'string') answer.detail = detail.slice(0, 200);
        })
        .catch(() => {});
    });
    const error = (text: string) => {
      if (!FRONT_END_NOISE.some((noise) => noise.test(text))) this.problems.errors.push(text.slice(0, 300));
    };
    page.on('pageerror', (e) => error(`${e.name}: ${e.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') error(message.text());
    });
  }

  static async open(browser: Browser, site: string, api: string): Promise<FrontEndTab> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Outside hosts (no internet here): the front end's version lookup at api.github.com fails at once, and the
    // explore page's place search at nominatim.openstreetmap.org finds nothing (the page then uses its default).
    await context.route(
      (url) => !url.href.startsWith(site) && !url.href.startsWith(api),
      (route) =>
        new URL(route.request().url()).hostname === 'nominatim.openstreetmap.org'
          ? route.fulfill({ json: [], headers: { 'access-control-allow-origin': '*' } })
          : route.abort(),
    );
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.dismiss());
    return new FrontEndTab(page, site, api);
  }

  /** The problems since the last call, then forgets them. */
  take(): PageProblems {
    const taken = this.problems;
    this.problems = { answers: [], errors: [] };
    return taken;
  }

  /** Resolves when no API request has been in flight for `quietMs`, or after `maxMs`. */
  async settled(quietMs = 300, maxMs = 15000): Promise<void> {
    const start = Date.now();
    while (Date.now() - start < maxMs) {
      await new Promise((r) => setTimeout(r, 50));
      if (this.inFlight === 0 && Date.now() - this.lastActivity >= quietMs) return;
    }
  }

  /** Loads the app at `path` (a full page load). */
  async load(path: string): Promise<void> {
    this.lastActivity = Date.now();
    await this.page.goto(this.site + path, { waitUntil: 'load' });
    await this.settled();
  }

  /**
   * Moves the running app to `path` as its router does on the browser's back and forward buttons (the history
   * location listens to popstate), so each page costs its own requests and rendering, not a boot of the app.
   */
  async visit(path: string): Promise<string> {
    this.lastActivity = Date.now();
    await this.page.evaluate((to) => {
      history.pushState({ path: to }, '', to);
      dispatchEvent(new PopStateEvent('popstate', { state: { path: to } }));
    }, path);
    await this.settled();
    await this.rendered();
    return new URL(this.page.url()).pathname;
  }

  /**
   * Waits until the page has rendered what the last answers brought (two animation frames: a render the answers
   * scheduled has run), then until the API is quiet again. Without it, on a loaded machine a page's error while
   * rendering its answers surfaced after the walk had moved on, and was counted against the next page.
   */
  private async rendered(): Promise<void> {
    await this.page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          setTimeout(resolve, 5000);
          requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
        }),
    );
    await this.settled();
  }

  /** Waits until the page's Semantic UI form has its validation set up (the form mixin does it 400 ms after rendering). */
  async formReady(selector = '.ui.form'): Promise<void> {
    await this.page.waitForFunction((s) => Boolean((window as any).$?.(s).first().data('moduleForm')), selector, {
      timeout: 15000,
      polling: POLL_MS,
    });
  }

  /** Logs in through the login form (app/components/forms/login-form.js), as a person does. */
  async logIn(email: string, password: string): Promise<void> {
    await this.load('/login');
    await this.formReady();
    await this.page.fill('input[name="email"]', email);
    await this.page.fill('input[name="password"]', password);
    await Promise.all([
      this.page.waitForResponse((r) => r.url() === `${this.api}/auth/session`),
      this.page.click('form button[type="submit"]'),
    ]);
    // The app then loads the account and moves on; on a loaded 2-core CI machine (two walks, another browser
    // test beside) that once took over 15 s.
    await this.page
      .waitForFunction(() => !location.pathname.startsWith('/login'), undefined, { timeout: 45000, polling: POLL_MS })
      .catch(async () => {
        const shown = await this.page.locator('.ui.negative.message').allTextContents();
        throw new Error(
          `${email} stays on the login page (${this.page.url()}): ${shown.join(' ')} ${JSON.stringify(this.take())}`,
        );
      });
    await this.settled();
  }
}

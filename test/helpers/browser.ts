import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Test } from 'tap';

/** Debian's chromium (`apt-get install chromium`, as .ci/run does); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or undefined when they can (the tap `skip` option). */
export const browserMissing = (): string | false =>
  existsSync(CHROMIUM)
    ? false
    : `no Chromium at ${CHROMIUM}: install the Debian package chromium (.ci/run does) or set CHROMIUM_PATH`;

/** Headless Chromium, closed when the test ends; flags keep it off the (closed) network but for what a page asks. */
export async function launchBrowser(t: Test): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  t.teardown(() => browser.close());
  return browser;
}

/** A page in a fresh context of `browser` whose dialogs (alert, confirm) are dismissed and kept in `dialogs`. */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; dialogs: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { context, page, dialogs };
}

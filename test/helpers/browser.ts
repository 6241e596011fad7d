/**
 * Debian's Chromium driven by playwright-core, for the report browser tests. One Chromium serves the whole test run
 * (test/setup/chromium-server.ts, after test/setup/chromium.ts installed it when missing); each test file opens its
 * own context in it. When Chromium is missing, the tests fail with what to install, never skip.
 */
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

type Size = { width: number; height: number };

/** A fresh context (its own cookies, storage and default viewport) in the test run's Chromium. */
export async function launchBrowser(viewport: Size = { width: 1280, height: 900 }): Promise<Browser> {
  const server = inject('chromiumServer') ?? { missing: 'no Chromium server: test/setup/chromium-server.ts is not among the globalSetup files' };
  if ('missing' in server) throw new Error(server.missing);
  const browser = await chromium.connect(server.wsEndpoint);
  const context = await browser.newContext({ viewport });
  return {
    context,
    async close() {
      await context.close();
      await browser.close();
    },
  };
}

export interface Opened {
  page: Page;
  problems: string[];
}

/** The context's one tab, its first size (the context's own), and what went wrong since it last navigated. */
interface Tab {
  page: Page;
  size: Size;
  problems: string[];
}
const tabs = new WeakMap<BrowserContext, Tab>();

/**
 * Opens a page from disk in the context's one tab and collects console errors, page errors and any network request
 * (there must be none) from then on. The tab is navigated from file to file: a new tab starts a renderer process,
 * which cost Chromium more CPU than laying out a report. With `viewport`, the page is laid out at that size from its
 * first load (no second load after a resize); without, at the context's own size. A test that closes the page gets
 * a new tab at its next call.
 */
export async function openPage(context: BrowserContext, file: string, viewport?: Size): Promise<Opened> {
  let tab = tabs.get(context);
  if (!tab || tab.page.isClosed()) {
    const page = await context.newPage();
    const opened: Tab = { page, size: page.viewportSize()!, problems: [] };
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') opened.problems.push(`console ${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => opened.problems.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      if (!req.url().startsWith('file:')) opened.problems.push(`network request: ${req.url()}`);
    });
    tabs.set(context, opened);
    tab = opened;
  }
  tab.problems = [];
  await tab.page.setViewportSize(viewport ?? tab.size);
  await tab.page.goto(pathToFileURL(file).href);
  await tab.page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return { page: tab.page, problems: tab.problems };
}

/** WCAG 2 contrast ratio of two CSS rgb()/rgba() colours (alpha ignored: the banner's colours are opaque). */
export function contrastRatio(a: string, b: string): number {
  const lum = (css: string): number => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

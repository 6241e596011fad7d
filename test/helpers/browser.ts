/**
 * Debian's Chromium driven by playwright-core, for the report browser tests. test/setup/chromium.ts (vitest
 * globalSetup) installs it when missing; when it still is, the tests fail with what to install, never skip.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, INSTALL_HINT } from '../setup/chromium.ts';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(INSTALL_HINT);
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, viewport });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Opened {
  page: Page;
  problems: string[];
}

/**
 * Opens a page from disk and collects console errors, page errors and any network request (there must be none).
 * With `viewport`, the page is laid out at that size from its first load (no second load after a resize).
 */
export async function openPage(context: BrowserContext, file: string, viewport?: { width: number; height: number }): Promise<Opened> {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('request', (req) => {
    if (!req.url().startsWith('file:')) problems.push(`network request: ${req.url()}`);
  });
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return { page, problems };
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

/**
 * vitest globalSetup, after chromium.ts: one Chromium for the whole test run, which every browser test file
 * connects to (test/helpers/browser.ts) and opens its own context in. Starting a browser cost about 2 s of CPU,
 * once per file; connecting to a running one and opening a context and a tab, under 1 s. The server listens on
 * 127.0.0.1 only and is closed when the run ends. When Chromium is missing, the browser tests fail with
 * chromium.ts's install hint.
 */
import { existsSync } from 'node:fs';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, INSTALL_HINT } from './chromium.ts';

/** What the browser tests are given: where to connect, or why there is nothing to connect to. */
export type ChromiumServer = { wsEndpoint: string } | { missing: string };

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumServer: ChromiumServer;
  }
}

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let server: BrowserServer | undefined;
  if (!existsSync(CHROMIUM)) {
    project.provide('chromiumServer', { missing: INSTALL_HINT });
  } else {
    try {
      server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, host: '127.0.0.1' });
      project.provide('chromiumServer', { wsEndpoint: server.wsEndpoint() });
    } catch (err) {
      project.provide('chromiumServer', { missing: `${CHROMIUM} did not start: ${(err as Error).message.split('\n')[0]}` });
    }
  }
  return async () => {
    await server?.close();
  };
}

/**
 * The browser sandbox (SERVICE-SPEC §1) in headless Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core): `harness serve` serves /sandbox, an API explorer (the package's own src/target/explorer/client/)
 * on the target's OpenAPI document, pre-filled with a sandbox-only key (never the full-scope one). From the page a user sends a message (201),
 * simulates its reception through the sandbox inbound operation (201) and finds it in the message list — the
 * list holds received messages (PROFILE.md), so a sent message appears there once it is received. The page makes
 * no request beyond the target and runs under its Content-Security-Policy without violations.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../helpers/browser.ts';
import { startServe, stop } from '../helpers/cli.ts';

let browser: Browser;
let serve: ChildProcessWithoutNullStreams;
let baseUrl: string;
let fullKey: string;
let sandboxKey: string;

beforeAll(async () => {
  browser = await launchBrowser();
  const started = await startServe();
  serve = started.child;
  baseUrl = started.banner.baseUrl as string;
  fullKey = started.banner.credentials.apiKeys.full as string;
  sandboxKey = ((await (await fetch(`${baseUrl}/sandbox/config.json`)).json()) as { apiKey: string }).apiKey;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (serve) await stop(serve);
});

/** Expands an operation, optionally replaces its JSON body, executes it, and returns the live response's status and body. */
async function tryIt(page: Page, operationId: string, body?: unknown): Promise<{ status: string; body: string }> {
  const block: Locator = page.locator(`details#op-${operationId}`);
  await block.locator('summary').first().click();
  if (body !== undefined) await block.locator('textarea.body').fill(JSON.stringify(body));
  await block.locator('button.execute').click();
  const result = block.locator('.result pre.body');
  await result.waitFor({ timeout: 15_000 });
  return {
    status: (await block.locator('.result .status-line .status').innerText()).trim(),
    body: await result.innerText(),
  };
}

describe('the browser sandbox at /sandbox', () => {
  it('sends a message from the page (201) and finds it in the list once received', async () => {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    const authorizations: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      if (!req.url().startsWith(`${baseUrl}/`)) problems.push(`request beyond the target: ${req.url()}`);
      if (req.url().startsWith(`${baseUrl}/v1/`)) authorizations.push(req.headers().authorization ?? '(none)');
    });
    await page.goto(`${baseUrl}/sandbox`);
    await page.waitForSelector('body[data-sandbox-ready="true"]', { timeout: 20_000 });
    await expect(page.locator('.info .title').innerText()).resolves.toContain('Messaging, Email and Automation API');

    // The page shows the document's examples: the request body starts from a valid one, and each error response
    // shows bodies whose status is the one they are listed under.
    const send = page.locator('details#op-sendMessage');
    await send.locator('summary').first().click();
    expect(JSON.parse(await send.locator('textarea.body').inputValue())).toMatchObject({ to: '14155550123', type: 'text' });
    const shown = await send.locator('.response').evaluateAll((nodes) =>
      nodes.map((n) => ({ status: n.getAttribute('data-status'), bodies: [...n.querySelectorAll('.example pre')].map((p) => p.textContent ?? '') })),
    );
    expect(shown.map((r) => r.status)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '415', '422', '429']));
    for (const { status, bodies } of shown.filter((r) => Number(r.status) >= 400)) {
      expect(bodies.length, status).toBeGreaterThan(0);
      for (const body of bodies) expect(JSON.parse(body).status, status).toBe(Number(status));
    }
    await send.locator('summary').first().click();

    const text = `hello from the sandbox ${Date.now()}`;
    const sent = await tryIt(page, 'sendMessage', { to: '14155550123', type: 'text', text: { body: text } });
    expect(sent.status).toBe('201');
    expect(JSON.parse(sent.body)).toMatchObject({ status: 'sent' });

    const received = await tryIt(page, 'sandboxInbound', { from: '14155550123', text });
    expect(received.status).toBe('201');

    const listed = await tryIt(page, 'listMessages');
    expect(listed.status).toBe('200');
    expect(JSON.parse(listed.body).data.map((m: { text: string }) => m.text)).toContain(text);

    // "Try it" used the pre-filled sandbox-only key on every API call, never the full-scope one; nothing broke.
    expect(authorizations.length).toBeGreaterThanOrEqual(3);
    expect(sandboxKey).not.toBe(fullKey);
    expect(new Set(authorizations)).toEqual(new Set([`Bearer ${sandboxKey}`]));
    expect(problems).toEqual([]);
    await page.close();
  }, 90_000);
});

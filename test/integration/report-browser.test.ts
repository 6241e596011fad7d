/**
 * report.html and compare.html in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * the pages render offline without console errors, every chart draws pixels, a failure's evidence expands on
 * click, the "failed only" filter works, and a hostile target's markup stays text and never runs.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBudgets } from '../../src/compare/budget.ts';
import { buildComparison } from '../../src/compare/build-comparison.ts';
import { compareHtml } from '../../src/compare/write-outputs.ts';
import { SecretRegistry } from '../../src/http/redact.ts';
import { reportHtml } from '../../src/reporters/html-reporter.ts';
import { HOSTILE, richReport } from '../fixtures/reports/rich-report.ts';
import { launchBrowser, openPage, type Browser, type Opened } from '../helpers/browser.ts';
import { runEmbedded } from '../helpers/run-embedded.ts';

const dir = mkdtempSync(join(tmpdir(), 'report-browser-'));
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens a page from disk and collects console errors, page errors and any network request (there must be none). */
const open = (file: string): Promise<Opened> => openPage(browser.context, file);

/**
 * Per chart: its name and whether its canvas has any non-transparent pixel. Browser-side code is passed as a
 * string: the project compiles without the DOM lib, and this is the only place that needs it.
 */
function chartPixels(page: Page): Promise<Array<{ name: string; drawn: boolean }>> {
  return page.evaluate(`[...document.querySelectorAll('.chart')].map((box) => {
    const canvas = box.querySelector('canvas');
    if (!canvas) return { name: box.dataset.chart, drawn: false };
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let drawn = false;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) { drawn = true; break; }
    return { name: box.dataset.chart, drawn };
  })`);
}

const pwned = (page: Page): Promise<unknown> => page.evaluate('window.__pwned');

describe('report.html in Chromium', () => {
  let opened: Opened;
  beforeAll(async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, reportHtml(richReport({ hostile: true }), new SecretRegistry()));
    opened = await open(file);
  });

  it('renders without console errors or network requests', () => {
    expect(opened.problems).toEqual([]);
  });

  it('draws every chart: per scenario latency, distribution, throughput, 429s, capacity; the rate-limit probe', async () => {
    const charts = await chartPixels(opened.page);
    expect(charts.map((c) => c.name)).toEqual([
      'latency-over-time', 'latency-distribution', 'throughput', 'rate-limited',
      'capacity', 'latency-over-time', 'latency-distribution', 'throughput', 'rate-limited',
      'ratelimit-timeline', 'retry-after',
    ]);
    expect(charts.filter((c) => !c.drawn)).toEqual([]);
  });

  it("keeps a hostile target's markup as text: nothing runs, no element is created", async () => {
    const { page } = opened;
    expect(await pwned(page)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    const failure = page.locator('details.check[data-check="smoke.list-messages-envelope"]');
    expect(await failure.locator('summary').textContent()).toContain(HOSTILE);
  });

  it("expands a failure to its evidence and spec reference on click", async () => {
    const { page } = opened;
    const failure = page.locator('details.check[data-check="errors.unknown-route-404"]');
    const body = failure.locator('pre.body').first();
    expect(await body.isVisible()).toBe(false);
    await failure.locator('summary').click();
    expect(await body.isVisible()).toBe(true);
    expect(await body.textContent()).toContain(`<html><body>Not found`);
    expect(await failure.locator('.spec').textContent()).toBe('Spec: RFC 9457 §3');
    expect(await pwned(page)).toBeUndefined();
  });

  it('filters to failed checks only', async () => {
    const { page } = opened;
    const passed = page.locator('.check[data-status="passed"]').first();
    expect(await passed.isVisible()).toBe(true);
    await page.locator('#failed-only').check();
    expect(await passed.isVisible()).toBe(false);
    expect(await page.locator('.check[data-status="error"]').isVisible()).toBe(true);
    expect(await page.locator('.suite', { hasText: 'ratelimit' }).isVisible()).toBe(false);
    await page.locator('#failed-only').uncheck();
  });

  it('saves a screenshot to test-output/report.png', async () => {
    mkdirSync('test-output', { recursive: true });
    await opened.page.locator('details.check[data-check="smoke.list-messages-envelope"] summary').click();
    await opened.page.screenshot({ path: 'test-output/report.png', fullPage: true });
    expect(existsSync('test-output/report.png')).toBe(true);
  });
});

describe('a real run\'s report.html in Chromium', () => {
  it('renders the verdict, summary and coverage of a run against the reference target', async () => {
    const outcome = await runEmbedded();
    const { page, problems } = await open(join(outcome.runDir, 'report.html'));
    expect(problems).toEqual([]);
    expect(await page.locator('.banner').getAttribute('data-verdict')).toBe(outcome.report.verdict);
    // The banner's exit code is the one the run returned.
    expect(await page.locator('.banner').getAttribute('data-exit')).toBe(String(outcome.exitCode));
    expect(await page.locator('.check').count()).toBe(outcome.report.checks.length);
    expect(await page.locator('#coverage tbody tr').count()).toBe(outcome.report.coverage.clauses.length);
    // The Security block: all ten OWASP items, each with the status report.json gives it, and at phone width the
    // page still does not scroll sideways (the table scrolls in its own box).
    const security = outcome.report.security!;
    expect(await page.locator('#security h2').textContent()).toBe('Security (OWASP API Security Top 10, 2023)');
    expect(await page.locator('#security tbody tr').count()).toBe(10);
    for (const item of security.items) {
      expect(await page.locator(`#security [data-owasp="${item.id}"]`).textContent()).toBe(item.status === 'not-covered' ? 'not covered' : item.status);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  });
});

describe('compare.html in Chromium', () => {
  it('renders the gate, the runs, changed checks and draws its charts', async () => {
    const file = join(dir, 'compare.html');
    const comparison = buildComparison({
      reports: [
        { file: 'a/report.json', report: richReport({ runId: 'A', hostile: true }) },
        { file: 'b/report.json', report: richReport({ runId: 'B', hostile: true, latencyFactor: 1.3, mustStatus: 'passed' }) },
      ],
      budgets: parseBudgets('p95:+10%,failed:1'),
    });
    writeFileSync(file, compareHtml(comparison));
    const { page, problems } = await open(file);
    expect(problems).toEqual([]);
    expect(await page.locator('.banner').getAttribute('data-gate')).toBe('failed');
    expect(await page.locator('#changes tbody tr').count()).toBe(1);
    const charts = await chartPixels(page);
    expect(charts).toHaveLength(4);
    expect(charts.filter((c) => !c.drawn)).toEqual([]);
    expect(await page.locator('#budgets .exceeded').count()).toBe(2);
    expect(await pwned(page)).toBeUndefined();
    await page.screenshot({ path: 'test-output/compare.png', fullPage: true });
  });
});

/**
 * report.html with a check that could not decide under the run's measured conditions: the status reads "could not
 * decide" with its reason and numbers, the summary counts it in a column of its own, and the measured conditions are
 * shown under the summary — rendered in Chromium, without a script error.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/conformance/result.ts';
import { SecretRegistry } from '../../src/http/redact.ts';
import { reportHtml } from '../../src/reporters/html-reporter.ts';
import { buildReport } from '../../src/report/report.ts';
import { launchBrowser, openPage, type Browser } from '../helpers/browser.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const base = { suite: 'webhooks', specRef: 'PROFILE Webhooks', durationMs: 12 };
const checks: CheckResult[] = [
  { ...base, id: 'webhooks.management.create', title: 'create', level: 'MUST', status: 'passed' },
  {
    ...base,
    id: 'webhooks.retries.back-off',
    title: 'back-off',
    level: 'PROFILE',
    status: 'undecided',
    message: '1 of 1 retried event(s) changed their wait by less than this run can measure: 393 ms → 420 ms (tolerance ±410 ms)',
    evidence: { exchanges: [], details: { undecided: [{ waitsMs: [393, 420], toleranceMs: 410 }] } },
  },
];

describe('report.html: could not decide', () => {
  it('shows the status, its reason, its own summary column and the run conditions', async () => {
    const report = buildReport({
      runId: 'undecided',
      startedAt: new Date().toISOString(),
      target: { baseUrl: 'http://127.0.0.1:1', embedded: false },
      checks,
      conditions: { spanMs: 5000, loopDelayMs: { count: 250, p50: 0.2, p90: 3, p99: 180, max: 205 }, rttMs: { count: 40, p50: 1, p90: 4, p99: 9, max: 12 } },
    });
    const file = join(mkdtempSync(join(tmpdir(), 'undecided-')), 'report.html');
    writeFileSync(file, reportHtml(report, new SecretRegistry([])));
    const { page, problems } = await openPage(browser.context, file);
    expect(problems).toEqual([]);
    const check = page.locator('[data-check="webhooks.retries.back-off"]');
    expect(await check.getAttribute('data-status')).toBe('undecided');
    expect(await check.locator('.status').textContent()).toBe('could not decide');
    expect(await check.locator('.message').textContent()).toContain('tolerance ±410 ms');
    const headers = await page.locator('#summary table.summary th').allTextContents();
    expect(headers).toContain('could not decide');
    expect(headers).toContain('errored');
    const all = await page.locator('#summary table.summary tbody tr').last().locator('td').allTextContents();
    expect(all[headers.indexOf('could not decide')]).toBe('1');
    expect(await page.locator('#conditions tbody tr').count()).toBe(2);
    expect(await page.locator('.banner [data-label="Run conditions"]').textContent()).toMatch(/could not decide under them: event-loop stalls up to 205 ms/);
  }, 60_000);
});

/**
 * What a person sees first in report.html, in real Chromium, for every kind of run and ending: the banner's text
 * and exit code, its colours (contrast >= 4.5:1), the first section after it; at 390 px no horizontal page scroll
 * and every chart canvas inside its card. Screenshots go to test-output/ (git-ignored) as artifacts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBudgets } from '../../src/compare/budget.ts';
import { buildComparison } from '../../src/compare/build-comparison.ts';
import { compareHtml } from '../../src/compare/write-outputs.ts';
import { SecretRegistry } from '../../src/http/redact.ts';
import { reportHtml } from '../../src/reporters/html-reporter.ts';
import { reportOfKind, type KindName } from '../fixtures/reports/report-kinds.ts';
import { richReport } from '../fixtures/reports/rich-report.ts';
import { contrastRatio, launchBrowser, openPage, type Browser } from '../helpers/browser.ts';

const dir = mkdtempSync(join(tmpdir(), 'report-verdicts-'));
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync('test-output', { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

interface Expected {
  title: string | RegExp;
  tone: string;
  exit: string;
  /** The first section's heading after the banner. */
  first: string;
  /** Banner fact lines that must be there (label: text start). */
  facts: RegExp[];
  /** Sections that must not be on the page. */
  absent: string[];
}

const CASES: Record<Exclude<KindName, 'unreachable'>, Expected> = {
  certified: { title: 'CERTIFIED (exit 0)', tone: 'pass', exit: '0', first: 'Summary by level', facts: [/^Conformance: MUST 2 passed; SHOULD 1 passed; PROFILE 1 passed$/], absent: ['#scenarios', '#rate-limit'] },
  'not-certified': { title: 'NOT-CERTIFIED (exit 1)', tone: 'fail', exit: '1', first: 'Summary by level', facts: [/^Conformance: MUST 1 passed, 1 failed;/, /^Thresholds: 1 of 4 crossed/], absent: ['#rate-limit'] },
  crossed: { title: 'CERTIFIED — thresholds crossed (exit 99)', tone: 'fail', exit: '99', first: 'Summary by level', facts: [/^Thresholds: 1 of 2 crossed: send-steady http_req_duration p\(95\)<12/], absent: [] },
  incomplete: { title: 'INCOMPLETE (exit 4)', tone: 'incomplete', exit: '4', first: 'Summary by level', facts: [/^Conformance: MUST 2 passed, 1 vacuous, 1 not run;/], absent: ['#scenarios'] },
  load: { title: 'THRESHOLDS PASSED (exit 0)', tone: 'pass', exit: '0', first: 'Scenarios', facts: [/^Thresholds: all 2 passed$/, /^Scenario: send-steady: 15000 requests/], absent: ['#summary', '#checks', '#coverage'] },
  capacity: { title: 'CAPACITY: 800 req/s sustainable (exit 0)', tone: 'pass', exit: '0', first: 'Capacity', facts: [/^Capacity: 800 req\/s sustainable \(SLO p\(99\)<50/], absent: ['#summary', '#checks', '#coverage'] },
  selection: { title: 'PASSED — 2 of 163 checks selected; not a certification (exit 0)', tone: 'pass', exit: '0', first: 'Summary by level', facts: [/^Selection: 2 of 163 checks selected \(checks smoke\.send, smoke\.list\): not a certification/, /^Conformance: MUST 2 passed;/], absent: ['#scenarios', '#rate-limit'] },
  probe: { title: 'RATE LIMIT: Retry-After DISHONEST (exit 0)', tone: 'fail', exit: '0', first: 'Rate limit', facts: [/^Policy: match: quota matches/, /^Retry-After: DISHONEST/, /^Isolation: per credential/], absent: ['#summary', '#checks', '#coverage', '#scenarios'] },
};

/** Banner text and colours, the first section's heading, and layout facts; browser code as a string (no DOM lib). */
const LOOK = `(() => {
  const banner = document.querySelector('header.banner');
  const style = getComputedStyle(banner);
  const next = banner.nextElementSibling;
  const charts = [...document.querySelectorAll('.chart')].map((box) => {
    const canvas = box.querySelector('canvas');
    if (!canvas) return { name: box.dataset.chart, inside: true, drawn: false };
    const b = box.getBoundingClientRect(); const c = canvas.getBoundingClientRect();
    return { name: box.dataset.chart, inside: c.left >= b.left - 0.5 && c.right <= b.right + 0.5, drawn: c.width > 0 };
  });
  return {
    title: banner.querySelector('h1').textContent, tone: banner.dataset.tone, exit: banner.dataset.exit,
    color: style.color, background: style.backgroundColor,
    facts: [...banner.querySelectorAll('.fact')].map((li) => li.textContent),
    factColors: [...banner.querySelectorAll('.fact')].map((li) => getComputedStyle(li).color),
    first: next ? next.querySelector('h2') && next.querySelector('h2').textContent : null,
    scrollWidth: document.documentElement.scrollWidth, charts,
  };
})()`;

interface Look {
  title: string; tone: string; exit: string; color: string; background: string; facts: string[]; factColors: string[];
  first: string | null; scrollWidth: number; charts: Array<{ name: string; inside: boolean; drawn: boolean }>;
}

describe.each(Object.entries(CASES) as Array<[Exclude<KindName, 'unreachable'>, Expected]>)('report.html of a %s run', (kind, expected) => {
  const file = join(dir, `${kind}.html`);
  writeFileSync(file, reportHtml(reportOfKind(kind), new SecretRegistry()));

  it('leads with its own verdict in readable colours, then the section that matters for this run', async () => {
    const { page, problems } = await openPage(browser.context, file);
    const look = (await page.evaluate(LOOK)) as Look;
    expect(problems).toEqual([]);
    expect(look.title).toBe(expected.title);
    expect(look.tone).toBe(expected.tone);
    expect(look.exit).toBe(expected.exit);
    expect(contrastRatio(look.color, look.background)).toBeGreaterThanOrEqual(4.5);
    for (const c of look.factColors) expect(contrastRatio(c, look.background)).toBeGreaterThanOrEqual(4.5);
    for (const fact of expected.facts) expect(look.facts.some((f) => fact.test(f)), `${fact} in ${JSON.stringify(look.facts)}`).toBe(true);
    expect(look.first).toBe(expected.first);
    for (const selector of expected.absent) expect(await page.locator(selector).count(), selector).toBe(0);
    await page.screenshot({ path: `test-output/report-${kind}.png`, fullPage: false });
  });

  it('fits 390 px: no horizontal page scroll, every chart canvas inside its card', async () => {
    const { page, problems } = await openPage(browser.context, file, { width: 390, height: 844 });
    const look = (await page.evaluate(LOOK)) as Look;
    expect(problems).toEqual([]);
    expect(look.scrollWidth).toBeLessThanOrEqual(390);
    expect(look.charts.filter((c) => !c.inside)).toEqual([]);
    await page.screenshot({ path: `test-output/report-${kind}-390.png`, fullPage: true });
  });
});

describe('report.html details a person must not misread', () => {
  it('marks a vacuous pass apart, with its note, and a MUST check not run', async () => {
    const file = join(dir, 'incomplete-details.html');
    writeFileSync(file, reportHtml(reportOfKind('incomplete'), new SecretRegistry()));
    const { page } = await openPage(browser.context, file);
    const vacuous = page.locator('.check[data-check="ratelimit.429"]');
    expect(await vacuous.getAttribute('data-vacuous')).toBe('true');
    expect(await vacuous.locator('.status').textContent()).toBe('passed?');
    expect(await vacuous.locator('.vacuous-note').textContent()).toBe('vacuous: no 429 came within 500 requests');
    expect(await page.locator('.check[data-check="auth.login"] .reason').textContent()).toBe('not run: no login credential in the config');
  });

  it('an interrupted capacity search claims no sustainable rate in the scenario section either: it says where it stopped, as the banner does', async () => {
    const base = reportOfKind('capacity');
    const [scenario] = base.scenarios!;
    const cap = scenario!.capacity!;
    // Interrupted in step 3 of 5: the two finished steps held; the one cut by the signal is not among the steps.
    const capacity = { ...cap, sustainableRps: 200, steps: cap.steps.slice(0, 2), ceiling: 'interrupted' as const, interrupted: { atStep: 3, plannedSteps: 5 } };
    const report = { ...base, run: { ...base.run, aborted: { code: 'HARNESS_ABORTED', message: 'interrupted by SIGINT: ceiling not reached: interrupted at step 3 of 5' } }, scenarios: [{ ...scenario!, capacity }] };
    const file = join(dir, 'capacity-interrupted.html');
    writeFileSync(file, reportHtml(report, new SecretRegistry()));
    const { page, problems } = await openPage(browser.context, file);
    expect(problems).toEqual([]);
    const banner = (await page.locator('header.banner').textContent()) ?? '';
    expect(banner).toContain('INTERRUPTED');
    const words = (await page.locator('#scenarios p.capacity').textContent()) ?? '';
    expect(words).toBe('Capacity against SLO p(99)<50 and error budget 1 %: ceiling not reached: interrupted at step 3 of 5; at least 200 req/s held in the finished steps');
    // Nowhere on the page a rate called sustainable.
    expect(await page.locator('body').innerText()).not.toMatch(/sustainable rate|req\/s sustainable/);
    expect(banner).toContain('interrupted at step 3 of 5');
  });

  it('a clause whose checks all failed is not green "covered"', async () => {
    const file = join(dir, 'coverage.html');
    writeFileSync(file, reportHtml(reportOfKind('not-certified'), new SecretRegistry()));
    const { page } = await openPage(browser.context, file);
    const cell = page.locator('#coverage [data-clause="§2.4"]');
    expect(await cell.textContent()).toBe('covered: failing');
    expect(await page.evaluate(`getComputedStyle(document.querySelector('#coverage [data-clause="§2.4"]')).backgroundColor`)).toBe('rgb(185, 28, 28)');
  });
});

describe('compare.html in Chromium', () => {
  const file = join(dir, 'compare.html');
  const base = richReport({ runId: 'A' });
  const slower = richReport({ runId: 'B', latencyFactor: 35 });
  writeFileSync(file, compareHtml(buildComparison({
    reports: [
      { file: 'a/report.json', report: base },
      { file: 'b/report.json', report: { ...slower, run: { ...slower.run, startedAt: '2026-11-21T07:20:00.000Z', target: { baseUrl: 'http://10.0.0.7:8080', embedded: false } } } },
    ],
    budgets: parseBudgets('p95:+10%'),
  })));

  it('names runs by time and target, colours regressions, draws runs as categories', async () => {
    const { page, problems } = await openPage(browser.context, file);
    expect(problems).toEqual([]);
    expect(await page.locator('#runs tr', { hasText: 'started · target' }).textContent()).toContain('07:20:00 · 10.0.0.7:8080');
    const regressed = page.locator('.scenario .regressed');
    expect(await regressed.count()).toBeGreaterThan(0);
    expect(await regressed.first().textContent()).toMatch(/\+3\d{3} %/);
    expect(await page.evaluate(`getComputedStyle(document.querySelector('.scenario .regressed')).color`)).toBe('rgb(185, 28, 28)');
    // One labelled tick per run on the category axis: the legend names each run with its value.
    expect(await page.locator('[data-chart="compare-percentiles"] .u-legend').first().textContent()).toContain('base 06:15:02 4 ms');
    await page.screenshot({ path: 'test-output/compare.png', fullPage: true });
  });

  it('fits 390 px', async () => {
    const { page } = await openPage(browser.context, file, { width: 390, height: 844 });
    const look = (await page.evaluate(LOOK)) as Look;
    expect(look.scrollWidth).toBeLessThanOrEqual(390);
    expect(look.charts.filter((c) => !c.inside)).toEqual([]);
    await page.screenshot({ path: 'test-output/compare-390.png', fullPage: true });
  });
});

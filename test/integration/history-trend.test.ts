/**
 * `harness history DIR` on recorded series (deterministic: seeded numbers written as history entries): label
 * "main" has +20 % p50 and p95 from run 16 of 30 and its verdict changes at run 20, label "steady" is 30 runs of an
 * unchanged build. The command finds the change at run 16 ± 1 and none in "steady"; trend.html renders in headless
 * Chromium at 1280 and 390 px with the latest verdict first, one drawn chart per metric and no page overflow.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trend } from '../../src/history/trend.ts';
import type { Report } from '../../src/report/report.ts';
import { richReport } from '../fixtures/reports/rich-report.ts';
import { contrastRatio, launchBrowser, openPage, type Browser } from '../helpers/browser.ts';
import { runCli } from '../helpers/cli.ts';
import { mulberry32 } from '../helpers/mulberry32.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-trend-'));
const history = join(dir, 'history');
const out = join(dir, 'out');

/** Run i (0-based) of a label: the rich report with its latencies scaled by `factor` and its own id and time. */
function run(label: string, i: number, factor: number, verdict?: Report['verdict']): string {
  const report = richReport({ mustStatus: 'passed', runId: `20261101T${String(i).padStart(2, '0')}0000Z-${label.slice(0, 3)}${String(i).padStart(3, '0')}` });
  report.run.startedAt = `2026-11-${String(1 + i).padStart(2, '0')}T00:00:00.000Z`;
  if (verdict) report.verdict = verdict;
  for (const s of report.scenarios ?? []) {
    for (const key of Object.keys(s.latency) as Array<keyof typeof s.latency>) s.latency[key] = Math.round(s.latency[key] * factor * 1000) / 1000;
  }
  return JSON.stringify({ historyEntry: 1, meta: { label, commit: `c0ffee${String(i).padStart(2, '0')}`, recordedAt: report.run.startedAt }, report });
}

let trend: Trend;
let stdout: string;
let gateSlow: { code: number | null; stdout: string };
let gateSame: { code: number | null; stdout: string };

beforeAll(async () => {
  mkdirSync(history);
  const noise = mulberry32(16);
  for (let i = 0; i < 30; i++) {
    const jitter = 1 + 0.03 * (noise() * 2 - 1);
    writeFileSync(join(history, `main-${i}.json`), run('main', i, (i >= 15 ? 1.2 : 1) * jitter, i >= 19 ? 'not-certified' : 'certified'));
    writeFileSync(join(history, `steady-${i}.json`), run('steady', i, 1 + 0.03 * (noise() * 2 - 1), 'certified'));
  }
  const result = await runCli(['history', history, '--out', out]);
  expect(result.code, result.stderr).toBe(0);
  stdout = result.stdout;
  trend = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(out, 'trend.json'), 'utf8'))) as Trend;
  // Two candidates against label "steady": the same build and one 20 % slower (recorded numbers, no histograms).
  for (const [name, factor] of [['same', 1], ['slow', 1.2]] as const) {
    writeFileSync(join(dir, `cand-${name}.json`), JSON.stringify((JSON.parse(run('cand', 29, factor)) as { report: unknown }).report));
  }
  const gate = (name: string) => runCli(['compare', '--history', history, '--label', 'steady', join(dir, `cand-${name}.json`), '--budget', 'p50:+10%', '--out', join(dir, `cmp-${name}`)]);
  gateSlow = await gate('slow');
  gateSame = await gate('same');
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('harness history: change points on recorded series', () => {
  it('finds +20 % from run 16 of 30 at run 16 ± 1 in p50 and p95, and the verdict change at run 20', () => {
    const main = trend.series.filter((s) => s.label === 'main');
    expect(main.map((s) => s.scenario)).toEqual(['send-steady', 'list-ramp']);
    for (const s of main) {
      for (const metric of ['p50', 'p95'] as const) {
        expect(s.changes[metric].map((c) => c.index + 1), `${s.scenario} ${metric}`).toHaveLength(1);
        expect(Math.abs(s.changes[metric][0]!.index + 1 - 16)).toBeLessThanOrEqual(1);
      }
      expect(s.changes.rps).toEqual([]);
      expect(s.changes.errorRate).toEqual([]);
    }
    expect(trend.verdicts.find((v) => v.label === 'main')!.changes.map((i) => i + 1)).toEqual([20]);
    expect(stdout).toMatch(/label "main": 30 runs, latest verdict not-certified/);
    expect(stdout).toMatch(/verdict: changed at run 20 \(\S+ @ c0ffee1\): certified → not-certified/);
    expect(stdout).toMatch(/p50: changed at run 1[567] \(/);
  });

  it('finds none in 30 runs of an unchanged build', () => {
    for (const s of trend.series.filter((x) => x.label === 'steady')) {
      for (const metric of ['p50', 'p95', 'rps', 'errorRate'] as const) expect(s.changes[metric], `${s.scenario} ${metric}`).toEqual([]);
    }
    expect(trend.verdicts.find((v) => v.label === 'steady')!.changes).toEqual([]);
  });
});

describe('harness compare --history on the recorded series', () => {
  it('a +20 % candidate exceeds p50:+10% against the last 10 steady runs; the same build passes', () => {
    expect(gateSlow.code, gateSlow.stdout).toBe(1);
    expect(gateSlow.stdout).toMatch(/gate: FAILED/);
    expect(gateSlow.stdout).toMatch(/p50:\+10%: p50 of scenario "send-steady" in \S+ is 4\.8 ms > limit [\d.]+ ms \(baseline mean [\d.]+ ms of 10 runs, between-run sd [\d.]+ ms/);
    expect(gateSlow.stdout).toContain('compared with the last 10 runs of label "steady" with scenario "send-steady" (at most 10): ');
    expect(gateSame.code, gateSame.stdout).toBe(0);
    expect(gateSame.stdout).toMatch(/gate: PASSED/);
  });
});

describe.each([1280, 390])('trend.html in Chromium at %i px', (width) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser({ width, height: 900 });
  }, 60_000);
  afterAll(async () => browser?.close());

  it('shows the latest verdict first, draws one chart per metric with change points, and fits the width', async () => {
    const { page, problems } = await openPage(browser.context, join(out, 'trend.html'));
    expect(problems).toEqual([]);
    const layout = (await page.evaluate(`(() => {
      const first = document.querySelector('main > section');
      const latest = document.querySelector('[data-latest-verdict]');
      const firstRow = document.querySelector('#verdicts table tbody tr');
      const charts = [...document.querySelectorAll('.trend-series .chart')].map((box) => {
        const canvas = box.querySelector('canvas');
        if (!canvas) return false;
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) return true;
        return false;
      });
      return { firstSection: first && first.id, latest: latest && latest.textContent, firstRow: firstRow && firstRow.textContent,
        charts, changeText: [...document.querySelectorAll('.changes[data-metric="p50"]')].map((p) => p.textContent),
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        banner: (() => { const b = getComputedStyle(document.querySelector('header.banner')); return [b.color, b.backgroundColor]; })() };
    })()`)) as { firstSection: string; latest: string; firstRow: string; charts: boolean[]; changeText: string[]; overflow: number; banner: [string, string] };
    // White text on an opaque tone (a transparent banner would put white text on the page's near-white).
    expect(layout.banner[1]).not.toMatch(/^rgba\(0, 0, 0, 0\)$|^transparent$/);
    expect(contrastRatio(layout.banner[0], layout.banner[1])).toBeGreaterThanOrEqual(4.5);
    expect(layout.firstSection).toBe('verdicts');
    expect(layout.latest).toBe('not-certified');
    expect(layout.firstRow).toMatch(/^30.*not-certified$/);
    // Two labels × two scenarios × four metrics, every one drawn.
    expect(layout.charts).toEqual(new Array(16).fill(true));
    expect(layout.changeText.filter((t) => /changed at run 1[567] /.test(t))).toHaveLength(2);
    expect(layout.changeText.filter((t) => t === 'no change point')).toHaveLength(2);
    expect(layout.overflow).toBeLessThanOrEqual(0);
  });

  it('compare.html of a history gate lists the runs compared with', async () => {
    const { page, problems } = await openPage(browser.context, join(dir, 'cmp-slow', 'compare.html'));
    expect(problems).toEqual([]);
    const text = (await page.evaluate(`document.querySelector('#history').textContent`)) as string;
    expect(text).toMatch(/baseline: the newest 10 runs of label steady in/);
    expect(text).toMatch(/send-steady20261101T200000Z-ste020, /);
  });
});

/**
 * Must-show of issue 24: the two shipped flow scenarios in `harness run`'s load phase against the embedded
 * reference target (after the smoke suite), every request 2xx and every iteration complete; report.html shows the
 * iterations and the per-step table in headless Chromium (Debian's, as the other browser tests).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type Browser } from '../../helpers/browser.ts';
import { runCli } from '../../helpers/cli.ts';
import { speedFreeScenario } from '../../helpers/speed-free-scenario.ts';

let dir = '';
let browser: Browser | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'harness-run-flow-'));
});
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CLI run in the test's folder, its stdout and stderr together in `out`. */
async function harness(args: string[]): Promise<{ code: number | null; out: string }> {
  const { code, stdout, stderr } = await runCli(args, { cwd: dir, timeoutMs: 240_000 });
  return { code, out: stdout + stderr };
}

describe('flow scenarios in harness run', () => {
  it('sender and reader journeys: every request 2xx, iterations complete, per-step table in report.html', async () => {
    // The shipped files, 3 s each (the sender first: its replies are the pages the reader walks), without the
    // thresholds a loaded machine crosses honestly (latency, dropped iterations).
    const files = ['sender-journey', 'reader-journey'].map((name) => {
      const file = join(dir, `${name}.yaml`);
      const text = speedFreeScenario(name);
      expect(text).toContain('duration: 10s');
      writeFileSync(file, text.replace('duration: 10s', 'duration: 3s'));
      return file;
    });
    const out = join(dir, 'reports');
    const run = await harness(['run', '--suite', 'smoke', '--scenario', files.join(','), '--out', out, '-q']);
    expect(run.code, run.out.slice(-3000)).toBe(0);
    const runDir = join(out, readdirSync(out).sort().pop()!);
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    expect(report.scenarios.map((s: { name: string }) => s.name)).toEqual(['sender-journey', 'reader-journey']);
    for (const s of report.scenarios) {
      expect(s.requests).toBeGreaterThan(0);
      for (const [code, n] of Object.entries(s.statusCodes as Record<string, number>)) expect(Number(code) >= 200 && Number(code) < 300, `${s.name}: ${code} × ${n}`).toBe(true);
      expect(s.errors).toEqual({});
      expect(s.iterations.count).toBeGreaterThan(0);
      expect(s.iterations.failed, JSON.stringify(s.iterations.failedBy)).toBe(0);
      for (const t of s.thresholds) expect(t.ok, `${t.metric} ${t.expr}`).toBe(true);
    }
    // The reader walked past the first page: the sender's replies fill several pages of 5.
    const reader = report.scenarios[1];
    expect(reader.byName['list-next'].requests).toBeGreaterThan(0);
    expect(reader.byName.login.requests).toBe(reader.iterations.count);

    browser = await launchBrowser();
    const { page, problems } = await openPage(browser.context, join(runDir, 'report.html'));
    const steps = (await page.evaluate(`[...document.querySelectorAll('section[data-scenario="reader-journey"] table.by-step tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent))`)) as string[][];
    expect(steps.map((r) => r[0])).toEqual(['login', 'account', 'list-first', 'list-next']);
    for (const row of steps) {
      expect(Number(row[1]!.replace(/[^0-9]/g, ''))).toBe(reader.byName[row[0]!].requests);
      expect(row[11]).toBe('0');
    }
    const iterations = (await page.evaluate(`[...document.querySelectorAll('section[data-scenario="reader-journey"] table.iterations tbody td')].map((td) => td.textContent)`)) as string[];
    expect(Number(iterations[0]!.replace(/[^0-9]/g, ''))).toBe(reader.iterations.count);
    expect(problems).toEqual([]);
  }, 300_000);
});

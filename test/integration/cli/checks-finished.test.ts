/**
 * The order a terminal depends on: `harness run` ends the conformance part with a `checks-finished` event — the
 * console reporter ends its live check line there — before the run-end hooks, the scenarios and anything they log
 * or draw. A live line still drawn then would be written over ("…no-server-errorsscenarios: …") and redrawn
 * during the load phase (test/integration/terminal-progress.test.ts shows the terminal itself).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFromObject } from '../../../src/config/index.ts';
import type { HarnessEvent } from '../../../src/report/events.ts';
import { runJob } from '../../../src/job/run-job.ts';
import { loadScenarios } from '../../../src/load/scenario/select.ts';
import { createDefaultRegistry } from '../../../suites/index.ts';

describe('harness run: the checks end before anything else is written', () => {
  it('emits checks-finished once, after the last check and before every log line and progress draw of the load phase', async () => {
    const out = mkdtempSync(join(tmpdir(), 'harness-order-'));
    const seen: string[] = [];
    const config = configFromObject({ conformance: { suites: ['smoke'] }, report: { outDir: out } });
    const outcome = await runJob({
      config,
      registry: createDefaultRegistry(),
      reporters: [{ name: 'order', onEvent: (event: HarnessEvent) => void seen.push(`event:${event.type}`) }],
      log: (line) => seen.push(`log:${line}`),
      scenarios: loadScenarios(['smoke']),
      harFile: join(out, 'traffic.har'),
      progress: { start: () => seen.push('progress:start'), update: () => seen.push('progress:update'), stop: () => seen.push('progress:stop') },
    });
    expect(outcome.report.scenarios).toHaveLength(1);
    const at = seen.indexOf('event:checks-finished');
    expect(seen.filter((s) => s === 'event:checks-finished')).toHaveLength(1);
    expect(seen.lastIndexOf('event:check-finished')).toBeLessThan(at);
    const after = seen.slice(at + 1);
    expect(after.filter((s) => /^event:(check|suite)-/.test(s))).toEqual([]);
    // What follows the checks: the HAR path, the scenarios with their live progress, the summary — all after it.
    for (const expected of [/^log:har: /, /^log:scenarios: smoke against /, /^progress:start$/, /^progress:stop$/]) {
      expect(after.some((s) => expected.test(s)), `${expected} after checks-finished:\n${after.join('\n')}`).toBe(true);
      expect(seen.slice(0, at).some((s) => expected.test(s)), `${expected} before checks-finished`).toBe(false);
    }
    // The file reporters log their paths on run-finished, the console reporter prints the verdict there.
    expect(seen.indexOf('event:run-finished')).toBeGreaterThan(seen.lastIndexOf('progress:stop'));
  }, 120_000);
});

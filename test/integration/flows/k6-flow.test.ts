/**
 * The shipped flow scenarios exported by `harness export k6` and run on the real k6 (v0.48.0, the one in
 * ../shared/tools/k6, or $HARNESS_K6) against the reference target on 127.0.0.1: every check passes, every
 * request is expected (http_req_failed 0), each step's requests carry its name tag, and no iteration failed. k6
 * exits 0, or 99 only for a speed threshold that a loaded machine crossed.
 * Without a k6 the test is skipped loudly, or fails where k6 is required (test/helpers/k6.ts): it never passes silently.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { exportK6Script } from '../../../src/load/export/k6-script.ts';
import { loadScenarioFile } from '../../../src/load/scenario/load.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { k6, requireK6, runK6 } from '../../helpers/k6.ts';

const REPO = resolve(import.meta.dirname, '../../..');

let target: StartedReferenceTarget;
let dir: string;
beforeAll(async () => {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0, rateLimit: { quota: 100_000 } });
  dir = mkdtempSync(join(tmpdir(), 'harness-k6-flow-'));
});
afterAll(async () => {
  await target?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** k6 run as exported, with the target's credentials (test/helpers/k6.ts finds the binary, or says why there is none). */
async function runFlow(script: string, summary: string): Promise<{ code: number | null; out: string }> {
  const c = target.credentials;
  const env = { BASE_URL: target.baseUrl, HARNESS_LOAD_KEY: c.apiKeys.load, HARNESS_LOGIN_EMAIL: c.login.email, HARNESS_LOGIN_PASSWORD: c.login.password };
  const run = await runK6(['--quiet', '--summary-export', summary, script], env, 120_000);
  return { code: run.code, out: `${run.stdout}\n${run.stderr}` };
}

describe('flow scenarios exported to k6 run on the real k6', () => {
  // The sender runs first: its replies are the inbound messages the reader's list walks page by page.
  for (const name of ['sender-journey', 'reader-journey']) {
    it.skipIf(k6.missing === 'skip')(`${name}: every check passes, every request expected, per-step name tags`, async (ctx) => {
      requireK6(ctx);
      const scenario = loadScenarioFile(join(REPO, 'scenarios', `${name}.yaml`));
      const script = join(dir, `${name}.k6.js`);
      writeFileSync(script, exportK6Script(scenario, { api: defaultConfig().api }));
      const summary = join(dir, `${name}.summary.json`);
      // Run as exported (k6's --duration would replace the exported scenario by its default executor).
      const result = await runFlow(script, summary);
      expect(result.out).not.toMatch(/SyntaxError|ReferenceError|TypeError/);
      const s = JSON.parse(readFileSync(summary, 'utf8')) as { metrics: Record<string, Record<string, number> & { thresholds?: Record<string, boolean> }>; root_group: { checks: Record<string, { passes: number; fails: number }> } };
      if (result.code !== 0) {
        // Exit 99 is k6's answer to a crossed threshold. The scenario's speed thresholds (latency, iteration time,
        // dropped iterations) are claims about the machine as much as the target: a loaded machine crosses them
        // honestly (5 dropped iterations beside two busy loops). Any other crossing, or any other exit, fails.
        expect(result.code, result.out.slice(-2000)).toBe(99);
        // k6's --summary-export says true for a crossed threshold.
        const crossed = Object.entries(s.metrics).filter(([, m]) => Object.values(m.thresholds ?? {}).some(Boolean)).map(([metric]) => metric);
        expect(crossed.length, result.out.slice(-2000)).toBeGreaterThan(0);
        for (const metric of crossed) expect(['http_req_duration', 'iteration_duration', 'dropped_iterations'], result.out.slice(-2000)).toContain(metric.replace(/\{.*$/, ''));
      }
      expect(s.metrics.http_req_failed?.value).toBe(0);
      expect(s.metrics.iterations?.count).toBeGreaterThan(0);
      expect(s.metrics.iterations_failed).toBeUndefined();
      for (const [checkName, c] of Object.entries(s.root_group.checks)) expect(c.fails, checkName).toBe(0);
      // Every step ran (the reader's repeated page walk too: the sender's replies fill more than one page).
      for (const step of scenario.flow!.steps) expect(s.root_group.checks[`${step.name}: expected status`]?.passes, step.name).toBeGreaterThan(0);
      // The {name:step} tag: the scenario's per-step threshold reads a sub-metric only tagged requests feed.
      const tagged = Object.keys(scenario.thresholds).filter((k) => k.includes('{name:'));
      expect(tagged.length).toBeGreaterThan(0);
      for (const key of tagged) expect(s.metrics[key]?.max, key).toBeGreaterThan(0);
      expect(s.metrics.iteration_duration?.avg).toBeGreaterThan(0);
    }, 180_000);
  }
});

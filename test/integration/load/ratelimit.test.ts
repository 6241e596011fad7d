/** scenarios/ratelimit.yaml against the reference target: its default limit (held), and a limit 3× higher (not held). */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config/defaults.ts';
import { credentialsFromReference } from '../../../src/job/open-target.ts';
import { thresholdsCrossed } from '../../../src/load/result.ts';
import { runScenario } from '../../../src/load/run-scenario.ts';
import { loadScenarioFile } from '../../../src/load/scenario/load.ts';
import { resolveScenarioFile } from '../../../src/load/scenario/resolve.ts';
import { reportIssues } from '../../../src/reporters/report-schema.ts';
import { startReferenceTarget } from '../../../src/target/index.ts';
import type { StartedReferenceTarget } from '../../../src/target/types.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

const api = defaultConfig().api;
let target: StartedReferenceTarget | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

async function runRateLimit(quota?: number) {
  target = await startReferenceTarget({ host: '127.0.0.1', port: 0, ...(quota !== undefined ? { rateLimit: { quota } } : {}) });
  const scenario = loadScenarioFile(resolveScenarioFile('ratelimit'));
  const { result } = await runScenario({ scenario, baseUrl: target.baseUrl, api, credentials: credentialsFromReference(target.credentials) });
  return result;
}

describe('rate-limit scenario', () => {
  it('the reference target enforces its default limit per credential: the observed 429 fraction is the expected one', async () => {
    const result = await runRateLimit();
    const e = result.rateLimitExpectation!;
    expect(e).toMatchObject({ perCredentialQuota: 100, windowSeconds: 1, credentials: 2, offeredRps: 240, tolerance: 0.05, ok: true });
    expect(e.expectedFraction).toBeCloseTo(1 / 6, 3);
    expect(Math.abs(e.observedFraction - e.expectedFraction)).toBeLessThanOrEqual(0.05);
    expect(result.rateLimited).toBeGreaterThan(0);
    expect(result.thresholds.filter((t) => t.metric === 'rate_limited')).toEqual([]);
    // Every full second both accepts (requests − rateLimited) and throttles: each window fills after 100/120 s.
    for (const point of result.timeline.slice(1, 4)) {
      expect(point.rateLimited).toBeGreaterThan(0);
      expect(point.requests - point.rateLimited).toBeGreaterThan(100);
    }
  }, 8_000);

  it('a target whose limit is 3× higher is reported: ok false and a crossed rate_limited threshold', async () => {
    const result = await runRateLimit(300);
    expect(result.rateLimitExpectation).toMatchObject({ ok: false, observedFraction: 0 });
    const entry = result.thresholds.find((t) => t.metric === 'rate_limited');
    expect(entry).toMatchObject({ ok: false, actual: 0 });
    expect(entry!.expr).toMatch(/^expected fraction 0\.1667±0\.05$/);
    expect(thresholdsCrossed([result])).toContainEqual(entry);
    // report.json's scenarios[] accepts the new field.
    expect(reportIssues({ ...richReport(), scenarios: [JSON.parse(JSON.stringify(result))] })).toEqual([]);
  }, 8_000);
});

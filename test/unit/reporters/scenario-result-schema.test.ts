/**
 * report.json `scenarios[]` entries are the engine's ScenarioResult: what buildScenarioResult produces (with its
 * percentile curve, thresholds and timeline) must validate against schemas/report.schema.json as it is.
 */
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../../src/load/metrics/recorder.ts';
import { buildScenarioResult, CURVE_PERCENTILES } from '../../../src/load/metrics/summarize.ts';
import { seededRandom } from '../../../src/load/random.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

const scenario: Scenario = { name: 'mix', executor: 'constant-arrival-rate', credential: 'loadKey', requests: [], thresholds: {}, rateLimitedAsFailure: false, timeout: '10s', rate: 100, timeUnit: '1s', duration: '3s' };

function result(requests: number) {
  const recorder = new Recorder(['send', 'list']);
  const random = seededRandom(7);
  for (let i = 0; i < requests; i++) {
    const status = random() < 0.05 ? 429 : random() < 0.02 ? 503 : 201;
    recorder.record(i % 2, status, status === 201, random() * 30, (i / requests) * 3000);
  }
  if (requests) recorder.recordError(0, 'ECONNRESET', 1500);
  recorder.recordDropped(2500);
  recorder.elapsedMs = 3000;
  return buildScenarioResult(scenario, recorder, [{ metric: 'http_req_duration', expr: 'p(99)<20', ok: false, actual: 29.7 }], 'a test mix');
}

describe('ScenarioResult in report.json', () => {
  it('validates against the report schema, with the HDR percentile curve', () => {
    const r = result(3000);
    expect(r.percentiles.map((p) => p.percentile)).toEqual(CURVE_PERCENTILES);
    expect(r.percentiles.at(-1)!.latencyMs).toBe(r.latency.max);
    for (let i = 1; i < r.percentiles.length; i++) expect(r.percentiles[i]!.latencyMs).toBeGreaterThanOrEqual(r.percentiles[i - 1]!.latencyMs);
    const report = { ...richReport(), scenarios: [JSON.parse(JSON.stringify(r))] };
    expect(reportIssues(report)).toEqual([]);
  });

  it('a scenario without requests has an empty curve and is still valid', () => {
    const r = result(0);
    expect(r.percentiles).toEqual([]);
    expect(reportIssues({ ...richReport(), scenarios: [r] })).toEqual([]);
  });

  it('the schema rejects the old report-only names', () => {
    const r = JSON.parse(JSON.stringify(result(100)));
    r.latency.p95Ms = r.latency.p95;
    delete r.latency.p95;
    r.thresholds[0].passed = r.thresholds[0].ok;
    const issues = reportIssues({ ...richReport(), scenarios: [r] });
    expect(issues.map((i) => i.path)).toEqual(expect.arrayContaining(['/scenarios/0/latency', '/scenarios/0/thresholds/0']));
  });
});

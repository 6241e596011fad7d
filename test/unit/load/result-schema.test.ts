/** The new optional ScenarioResult fields (workers, warmUp, generatorBound, capacity.ceiling) validate in report.json. */
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../../src/load/metrics/recorder.ts';
import { buildScenarioResult } from '../../../src/load/metrics/summarize.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

const scenario: Scenario = { name: 'mix', executor: 'constant-arrival-rate', credential: 'none', requests: [], thresholds: {}, rateLimitedAsFailure: false, timeout: '1s', rate: 10, timeUnit: '1s', duration: '2s' };

describe('generator fields in report.json', () => {
  it('a generator-bound, warmed-up, 2-worker result with a capacity ceiling validates', () => {
    const recorder = new Recorder(['x']);
    for (let i = 0; i < 20; i++) {
      recorder.recordStart(i * 100, i < 5 ? 40 : 0);
      recorder.record(0, 200, true, 3, i * 100 + 3);
    }
    recorder.recordError(0, 'UND_ERR_HEADERS_TIMEOUT', 1500, 1000);
    recorder.recordLoopDelay(1200, 120);
    recorder.elapsedMs = 2000;
    const r = buildScenarioResult(scenario, recorder, [], 'd', undefined, { workers: 2, warmUp: { durationMs: 12.5, requests: 4, errors: 0, connections: 2 } });
    expect(r.generatorBound?.seconds).toEqual([0, 1]);
    const capacity = { sustainableRps: 400, slo: 'p(99)<200', errorBudget: 0.01, ceiling: 'not-reached', steps: [{ rate: 400, achievedRps: 400, p50: 1, p99: 2, errorRate: 0, ok: true, generatorBound: true }] };
    const report = { ...richReport(), scenarios: [{ ...JSON.parse(JSON.stringify(r)), capacity }] };
    expect(reportIssues(report)).toEqual([]);
    const bad = { ...richReport(), scenarios: [{ ...JSON.parse(JSON.stringify(r)), capacity: { ...capacity, ceiling: 'maybe' } }] };
    expect(reportIssues(bad).length).toBeGreaterThan(0);
  });
});

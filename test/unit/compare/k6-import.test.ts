/**
 * k6 summaries → imported scenarios, on fixtures written to k6's documented shapes (--summary-export, whose
 * threshold booleans are true when the threshold FAILED, and handleSummary data, whose thresholds carry `ok`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importK6Summary } from '../../../src/compare/k6-summary.ts';
import { reportIssues } from '../../../src/report/report-schema.ts';
import { buildReport } from '../../../src/report/report.ts';
import { scenarioMetrics } from '../../../src/compare/metrics.ts';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../fixtures/k6/${name}`, import.meta.url), 'utf8'));

function imported(name: string) {
  const result = importK6Summary(fixture(name), 'steady');
  if ('problems' in result) throw new Error(JSON.stringify(result.problems));
  return result.scenario;
}

describe('importK6Summary', () => {
  it('--summary-export: rates, trend statistics, sub-metrics by name, thresholds with true = failed', () => {
    const s = imported('summary-export.json');
    expect(s).toMatchObject({ name: 'steady', source: 'k6', format: 'summary-export', requests: 6000, rps: 199.9083, iterations: 6000, dropped: 3 });
    expect(s.failedRate).toBeCloseTo(0.0016667, 6);
    expect(s.checksRate).toBeCloseTo(0.99833, 4);
    expect(s.latency).toEqual({ avg: 12.31, min: 2.08, p50: 10.42, p90: 20.13, p95: 25.71, max: 180.2 });
    expect(s.byName).toEqual({ send: { latency: { avg: 14.9, min: 3.1, p50: 12.8, p90: 23.4, p95: 29.9, max: 180.2 } } });
    expect(s.thresholds).toEqual([
      { metric: 'http_req_duration', expr: 'p(95)<500', ok: true, actual: 25.71 },
      { metric: 'http_req_duration', expr: 'avg<10', ok: false, actual: 12.31 },
      // p(99) is not among the summary's statistics: the threshold's result is known, its value is not.
      { metric: 'http_req_duration{name:send}', expr: 'p(99)<100', ok: true },
      { metric: 'http_req_failed', expr: 'rate<0.01', ok: true, actual: 0.0016666666666666668 },
    ]);
    expect(s).not.toHaveProperty('durationMs');
  });

  it('handleSummary data: values, thresholds with ok, p(99) when summaryTrendStats asked for it, the test duration', () => {
    const s = imported('handle-summary.json');
    expect(s).toMatchObject({ format: 'handle-summary', requests: 6000, rps: 199.877, failedRate: 0.002, checksRate: 1, durationMs: 30018.4 });
    expect(s.latency).toEqual({ avg: 15.02, min: 2.5, p50: 12.9, p90: 24.8, p95: 31.2, p99: 77.4, max: 210.7 });
    expect(s.thresholds).toEqual([
      { metric: 'http_req_duration', expr: 'p(95)<500', ok: true, actual: 31.2 },
      { metric: 'http_req_duration', expr: 'p(99)<50', ok: false, actual: 77.4 },
      { metric: 'http_req_failed', expr: 'rate<0.01', ok: true, actual: 0.002 },
    ]);
    expect(s).not.toHaveProperty('dropped');
  });

  it('a report with the imported scenario is valid report.json; compare reads only what k6 gave', () => {
    for (const name of ['summary-export.json', 'handle-summary.json']) {
      const scenario = imported(name);
      const report = { ...buildReport({ runId: 'k6', startedAt: '2026-01-01T00:00:00.000Z', target: { baseUrl: '', embedded: false }, imported: { tool: 'k6' as const, format: scenario.format, file: name, importedAt: '2026-01-01T00:00:01.000Z' } }), scenarios: [scenario] };
      expect(reportIssues(report)).toEqual([]);
    }
    const metrics = scenarioMetrics(imported('summary-export.json'));
    expect(metrics).toEqual({ source: 'k6', p50Ms: 10.42, p95Ms: 25.71, rps: 199.9083, dropped: 3, percentiles: [] });
  });

  it('an engine scenario with a k6 marker, or an imported one with engine-only fields, is not a valid report', () => {
    const scenario = { ...imported('handle-summary.json'), timeline: [] };
    const report = { ...buildReport({ runId: 'k6', startedAt: '2026-01-01T00:00:00.000Z', target: { baseUrl: '', embedded: false } }), scenarios: [scenario] };
    expect(reportIssues(report).map((i) => i.message)).toContain('must NOT have additional properties "timeline"');
  });

  it('names what makes a file not a k6 summary of an HTTP test', () => {
    expect(importK6Summary({ hello: 1 }, 'x')).toEqual({ problems: [{ path: 'metrics', message: expect.stringContaining('no "metrics" object') }] });
    expect(importK6Summary({ metrics: { vus: { value: 1, min: 1, max: 1 } } }, 'x')).toEqual({ problems: [{ path: 'metrics', message: expect.stringContaining('no http_reqs or http_req_duration') }] });
    const bad = importK6Summary({ metrics: { http_reqs: { count: 1, rate: 1, thresholds: { 'count>0': 'yes' } } } }, 'x');
    expect(bad).toEqual({ problems: [{ path: 'metrics.http_reqs.thresholds.count>0', message: 'expected true (failed) or false (passed)' }] });
  });
});

/** series.js is browser code without DOM use: it runs here in a VM, the way the page runs it. */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { readClient } from '../../../src/reporters/html/assets.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

type Columns = Array<Array<number | null>>;
interface Series {
  latencyOverTime(t: unknown): Columns;
  percentileCurve(p: unknown): Columns;
  percentileCurves(c: unknown): Columns;
  rpsAndStatus(t: unknown): Columns;
  acceptedVsLimited(t: unknown): Columns;
  rateLimitTimeline(t: unknown): Columns;
  retryAfter(s: unknown): Columns;
  capacity(s: unknown): Columns;
  errorShare(sc: unknown): number;
  groupChecks(c: unknown): Array<{ suite: string; levels: Array<{ level: string; checks: Array<{ id: string }> }> }>;
  isProblem(c: { status: string }): boolean;
  fmtMs(n?: number | null): string;
  fmtPct(n?: number | null): string;
  fmtNum(n?: number | null): string;
  fmtDelta(v?: number | null, b?: number | null): string;
  isDecade(x: number): boolean;
  percentileX(p: number): number;
  percentileLabel(x: number): string;
}

function loadSeries(): Series {
  const context: { HR?: { series: Series } } = {};
  (context as Record<string, unknown>).globalThis = context;
  runInNewContext(readClient('series.js'), context);
  return (context.HR as { series: Series }).series;
}

const S = loadSeries();
const report = richReport();
const scenario = report.scenarios![0]!;
const capacityScenario = report.scenarios![1]!;

describe('client series.js', () => {
  it('shapes the latency timeline into uPlot columns', () => {
    const [t, p50, p99, extra] = S.latencyOverTime(scenario.timeline);
    expect(t).toHaveLength(30);
    expect(p50![0]).toBe(scenario.timeline[0]!.p50);
    expect(p99![3]).toBe(scenario.timeline[3]!.p99);
    expect(extra).toBeUndefined();
  });

  it('puts percentiles on an HDR axis: 90 → 10, 99 → 100, 100 drawn at 99.9999', () => {
    expect(S.percentileX(0)).toBe(1);
    expect(S.percentileX(90)).toBeCloseTo(10);
    expect(S.percentileX(99)).toBeCloseTo(100);
    expect(S.percentileX(100)).toBeCloseTo(1e6, -2);
    expect(S.percentileLabel(10)).toBe('90%');
    expect(S.percentileLabel(1000)).toBe('99.9%');
    expect(S.isDecade(100)).toBe(true);
    expect(S.isDecade(200)).toBe(false);
    const [x, y] = S.percentileCurve([{ percentile: 99, latencyMs: 5 }, { percentile: 50, latencyMs: 2 }]);
    expect(x![0]).toBeCloseTo(2);
    expect(y).toEqual([2, 5]);
  });

  it('aligns several percentile curves on the union of their points', () => {
    const [x, a, b] = S.percentileCurves([[{ percentile: 50, latencyMs: 1 }], [{ percentile: 50, latencyMs: 2 }, { percentile: 90, latencyMs: 3 }]]);
    expect(x).toHaveLength(2);
    expect(a).toEqual([1, null]);
    expect(b).toEqual([2, 3]);
  });

  it('splits requests into status classes and accepted vs 429', () => {
    const cols = S.rpsAndStatus(scenario.timeline);
    expect(cols).toHaveLength(6);
    expect(cols[1]![0]).toBe(scenario.timeline[0]!.requests);
    expect(cols[2]![0]).toBe(scenario.timeline[0]!.status2xx);
    expect(cols[5]![10]).toBe(scenario.timeline[10]!.errors);
    const [, accepted, limited] = S.acceptedVsLimited(scenario.timeline);
    expect(accepted![0]! + limited![0]!).toBe(scenario.timeline[0]!.requests);
  });

  it('shapes the rate-limit probe, Retry-After samples and the capacity curve', () => {
    const rl = report.rateLimit!;
    expect(S.rateLimitTimeline(rl.timeline)[2]![0]).toBe(rl.timeline[0]!.limited);
    expect(S.retryAfter(rl.retryAfter.samples)[1]).toEqual([1, 1, 1, 1]);
    expect(S.retryAfter([{ t: 0, actualS: 1 }])[1]).toEqual([null]);
    const [rate, achieved, ideal, p99] = S.capacity(capacityScenario.capacity!.steps);
    expect(rate).toEqual([100, 200, 400, 800, 1600]);
    expect(ideal).toEqual(rate);
    expect(achieved![4]).toBe(1000);
    expect(p99).toEqual(capacityScenario.capacity!.steps.map((s) => s.p99));
  });

  it('computes the error share of a scenario from 5xx answers and transport errors', () => {
    expect(S.errorShare(scenario)).toBeCloseTo((30 + 1) / scenario.requests);
    expect(S.errorShare({ requests: 0, statusCodes: {}, errors: {} })).toBe(0);
  });

  it('groups checks by suite, then level, in first-seen order', () => {
    const groups = S.groupChecks(report.checks);
    expect(groups.map((g) => g.suite)).toEqual(['smoke', 'errors', 'ratelimit']);
    expect(groups[1]!.levels.map((l) => l.level)).toEqual(['SHOULD', 'PROFILE']);
    expect(S.isProblem({ status: 'error' })).toBe(true);
    expect(S.isProblem({ status: 'skipped' })).toBe(false);
  });

  it('formats numbers for tables', () => {
    expect(S.fmtMs(12.345)).toBe('12.35 ms');
    expect(S.fmtMs(1234.5)).toBe('1235 ms');
    expect(S.fmtMs(undefined)).toBe('—');
    expect(S.fmtPct(0.0123)).toBe('1.23 %');
    expect(S.fmtNum(15000)).toBe('15 000');
    expect(S.fmtDelta(11, 10)).toBe('+10 %');
    expect(S.fmtDelta(9, 10)).toBe('-10 %');
    expect(S.fmtDelta(0, 0)).toBe('±0');
    expect(S.fmtDelta(1, 0)).toBe('new');
    expect(S.fmtDelta(null, 1)).toBe('');
  });
});

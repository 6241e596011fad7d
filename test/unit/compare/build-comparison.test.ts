import { describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import { buildComparison, checkChanges, scenarioRows } from '../../../src/compare/build-comparison.ts';
import { evaluateBudgets } from '../../../src/compare/evaluate-budgets.ts';
import { comparedRun, scenarioMetrics, uniqueLabels } from '../../../src/compare/metrics.ts';
import type { Report } from '../../../src/report/report.ts';
import { richReport } from '../../fixtures/reports/rich-report.ts';

const A = richReport({ runId: 'A' });
const B = richReport({ runId: 'B', latencyFactor: 1.2, rpsFactor: 0.9, mustStatus: 'passed', rate429: 0.05 });
const conformanceOnly: Report = (({ scenarios: _s, rateLimit: _r, ...rest }) => ({ ...rest, run: { ...rest.run, id: 'C' } }))(richReport());

describe('metrics', () => {
  it('reads a scenario and a run', () => {
    const m = scenarioMetrics(A.scenarios![0]!);
    expect(m).toMatchObject({ p50Ms: 4, p95Ms: 10, p99Ms: 16, rps: 500, dropped: 2 });
    const run = comparedRun(A, 'a.json', 'A');
    expect(run).toMatchObject({ label: 'A', file: 'a.json', runId: 'A', verdict: 'not-certified' });
    expect(run.rateLimit?.observed?.algorithm).toBe('fixed-window');
    expect(comparedRun(conformanceOnly, 'c.json', 'C').rateLimit).toBeUndefined();
  });

  it('labels runs by id, numbering repeats', () => {
    expect(uniqueLabels(['x', 'y', 'x', 'x'])).toEqual(['x', 'y', 'x#2', 'x#3']);
  });
});

describe('buildComparison', () => {
  it('lists checks whose status changed, and checks only some runs have', () => {
    const changes = checkChanges([A, B, { ...conformanceOnly, checks: conformanceOnly.checks.slice(0, 1) }]);
    expect(changes.map((c) => [c.id, c.statuses])).toEqual([
      ['smoke.list-messages-envelope', ['failed', 'passed', null]],
      ['errors.unknown-route-404', ['failed', 'failed', null]],
      ['errors.timeout', ['error', 'error', null]],
      ['ratelimit.retry-after', ['skipped', 'skipped', null]],
    ]);
  });

  it('lines scenarios up by name, null where a run lacks one', () => {
    const rows = scenarioRows([A, conformanceOnly]);
    expect(rows.map((r) => r.name)).toEqual(['send-steady', 'list-ramp']);
    expect(rows[0]!.runs[1]).toBeNull();
  });

  it('without budgets the gate is none', () => {
    const c = buildComparison({ reports: [{ file: 'a', report: A }, { file: 'b', report: B }], now: new Date(0) });
    expect(c).toMatchObject({ schemaVersion: 1, generatedAt: '1970-01-01T00:00:00.000Z', baseline: 0, gate: 'none', budgets: [] });
    expect(c.runs.map((r) => r.label)).toEqual(['A', 'B']);
  });

  it('with budgets, fails the gate on an exceeded one and passes otherwise', () => {
    const reports = [{ file: 'a', report: A }, { file: 'b', report: B }];
    expect(buildComparison({ reports, budgets: parseBudgets('p95:+10%') }).gate).toBe('failed');
    expect(buildComparison({ reports, budgets: parseBudgets('p95:+25%') }).gate).toBe('passed');
    // B as the baseline: A is faster, so latency is within budget, but A has a failed MUST check.
    expect(buildComparison({ reports, baseline: 1, budgets: parseBudgets('p95:+0%,failed:1') }).gate).toBe('failed');
  });
});

describe('evaluateBudgets', () => {
  const runs = [comparedRun(A, 'a', 'A'), comparedRun(B, 'b', 'B')];
  const rows = scenarioRows([A, B]);
  const by = (text: string) => evaluateBudgets(parseBudgets(text), runs, rows, 0);

  it('latency relative and absolute, per scenario', () => {
    const [steady, ramp] = by('p95:+10%');
    expect(steady).toMatchObject({ budget: 'p95:+10%', run: 'B', scenario: 'send-steady', baseline: 10, actual: 12, status: 'exceeded' });
    expect(steady!.limit).toBeCloseTo(11);
    expect(steady!.detail).toBe('p95:+10%: p95 of scenario "send-steady" in B is 12 ms > limit 11 ms (baseline 10 ms) [point estimates: a report has no histogram]');
    expect(ramp!.scenario).toBe('list-ramp');
    expect(by('p95:+2ms')[0]).toMatchObject({ limit: 12, status: 'within' });
  });

  it('throughput may drop by the given share', () => {
    expect(by('rps:-5%')[0]).toMatchObject({ baseline: 500, actual: 450, limit: 475, status: 'exceeded' });
    expect(by('rps:-10%')[0]).toMatchObject({ status: 'within' });
  });

  it('rates in percentage points', () => {
    expect(by('rate429:+2pp')[0]).toMatchObject({ status: 'exceeded' });
    expect(by('rate429:+5pp')[0]).toMatchObject({ status: 'within' });
    expect(by('errorRate:+0pp')[0]).toMatchObject({ status: 'exceeded' });
    expect(by('errorRate:+0.1pp')[0]).toMatchObject({ status: 'within' });
  });

  it('failed and errored checks as absolute counts in the compared run', () => {
    expect(by('failed:0')).toEqual([expect.objectContaining({ actual: 1, baseline: 2, limit: 0, status: 'exceeded' })]);
    expect(by('failed:1')[0]!.status).toBe('within');
    expect(by('errors:0')[0]).toMatchObject({ actual: 1, status: 'exceeded' });
  });

  it('a scenario metric with no common scenario is not evaluated', () => {
    const results = evaluateBudgets(parseBudgets('p95:+10%'), [runs[0]!, comparedRun(conformanceOnly, 'c', 'C')], scenarioRows([A, conformanceOnly]), 0);
    expect(results).toEqual([expect.objectContaining({ status: 'not-evaluated', run: 'C' })]);
  });
});

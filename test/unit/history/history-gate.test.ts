/**
 * The history gate's decision on recorded numbers (no histograms: the values are the runs' own point estimates,
 * so the spread is the between-run spread alone): +20 % against five runs of a steady build is exceeded, the same
 * build is within, a noisy history cannot tell, one run cannot decide yet, a stalled candidate is inconclusive.
 */
import { describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import type { ScenarioMetrics } from '../../../src/compare/model.ts';
import type { BaselineSelection } from '../../../src/history/baseline-runs.ts';
import type { HistoryEntry } from '../../../src/history/entry.ts';
import { historyBudget, tQuantile99 } from '../../../src/history/history-gate.ts';

const metrics = (p50: number, extra: Partial<ScenarioMetrics> = {}): ScenarioMetrics => ({ p50Ms: p50, p95Ms: p50 * 1.2, rps: 50, errorRate: 0, percentiles: [], ...extra });

function baseline(values: number[]): BaselineSelection {
  return {
    scenario: 'gate',
    runs: values.map((v, i) => ({ entry: { file: `${i}.json` } as HistoryEntry, metrics: metrics(v) })),
    leftOut: [],
    said: `the last ${values.length} runs (recorded)`,
  };
}

const [p50pct, rps, errors] = parseBudgets('p50:+10%,rps:-5%,errorRate:+1pp') as [never, never, never];
const STEADY = [20.3, 20.1, 20.4, 20.2, 20.5];

describe('historyBudget', () => {
  it('a +20 % build against five steady runs is exceeded, naming the runs compared with', () => {
    const r = historyBudget(p50pct, 'cand', metrics(24.3), baseline(STEADY));
    expect(r.status).toBe('exceeded');
    expect(r.detail).toMatch(/^p50:\+10%: p50 of scenario "gate" in cand is 24\.3 ms > limit 22\.33 ms \(baseline mean 20\.3 ms of 5 runs, between-run sd 0\.16 ms/);
    expect(r.detail).toContain('t with 4 df); compared with the last 5 runs (recorded)');
  });

  it('the same build is within', () => {
    expect(historyBudget(p50pct, 'cand', metrics(20.35), baseline(STEADY)).status).toBe('within');
  });

  it('a history whose runs spread over the limit cannot tell (inconclusive, not exceeded)', () => {
    const r = historyBudget(p50pct, 'cand', metrics(24.3), baseline([18, 23, 19, 24, 20]));
    expect(r.status).toBe('inconclusive');
    expect(r.reason).toMatch(/^the runs' spread covers the limit/);
  });

  it('one run cannot decide yet', () => {
    const r = historyBudget(p50pct, 'cand', metrics(40), baseline([20]));
    expect(r.status).toBe('inconclusive');
    expect(r.detail).toMatch(/cannot decide yet: the history has 1 usable run to compare with, the gate needs at least 3/);
  });

  it('a candidate over the limit by less than its generator stalled is inconclusive, because the load generator stalled', () => {
    const bound = { generatorBound: { seconds: 3, ofSeconds: 30, worstLoopDelayMs: 40, worstLateShare: 0.05, lateStartMs: 10 } };
    const r = historyBudget(p50pct, 'cand', metrics(24.3, bound), baseline(STEADY));
    expect(r.status).toBe('inconclusive');
    expect(r.reason).toMatch(/^the load generator stalled: the candidate was generator-bound in 3 of 30 s/);
    // 60 ms slower is beyond any 40 ms stall: exceeded.
    expect(historyBudget(p50pct, 'cand', metrics(80, bound), baseline(STEADY)).status).toBe('exceeded');
  });

  it("over the limit by less than the candidate's event-loop stall beyond the baseline runs' is inconclusive", () => {
    const r = historyBudget(p50pct, 'cand', metrics(24.3, { loopDelayMs: 5 }), baseline(STEADY));
    expect(r.status).toBe('inconclusive');
    expect(r.reason).toMatch(/^the machine's scheduling: .* less than the 5 ms more the load generator's event loop stalled in a typical second than in the baseline runs \(5 ms against their median 0 ms\)/);
  });

  it('a stall the baseline runs had too is in their spread already: it does not hide an excess', () => {
    // Every run, baseline and candidate, stalled about 2 ms a second; the runs' p50 still agree within 0.16 ms.
    const stalled = (v: number) => ({ entry: { file: `${v}.json` } as HistoryEntry, metrics: metrics(v, { loopDelayMs: 2 }) });
    const base = { ...baseline(STEADY), runs: STEADY.map(stalled) };
    expect(historyBudget(p50pct, 'cand', metrics(24.3, { loopDelayMs: 2.1 }), base).status).toBe('exceeded');
    expect(historyBudget(p50pct, 'cand', metrics(20.35, { loopDelayMs: 2.1 }), base).status).toBe('within');
    // A candidate that stalled far more than they did is still inconclusive.
    expect(historyBudget(p50pct, 'cand', metrics(24.3, { loopDelayMs: 9 }), base).status).toBe('inconclusive');
  });

  it('throughput drops and error rates', () => {
    expect(historyBudget(rps, 'cand', metrics(20, { rps: 40 }), baseline(STEADY)).status).toBe('exceeded');
    expect(historyBudget(rps, 'cand', metrics(20, { rps: 50 }), baseline(STEADY)).status).toBe('within');
    expect(historyBudget(errors, 'cand', metrics(20, { errorRate: 0.05 }), baseline(STEADY)).status).toBe('exceeded');
    expect(historyBudget(errors, 'cand', metrics(20, { errorRate: 0 }), baseline(STEADY)).status).toBe('within');
  });

  it("Student's t, one-sided 99 %", () => {
    expect(tQuantile99(4)).toBe(3.747);
    expect(tQuantile99(11)).toBe(2.681);
    expect(tQuantile99(500)).toBe(2.326);
  });
});

/**
 * The gate's statistics on synthetic histograms with a seeded generator: intervals hold the true quantile, a run
 * compared with an independent sample of the same distribution is never "exceeded", a shifted one always is, and
 * too few samples say "inconclusive: too few samples" instead of deciding.
 */
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import { evaluateBudgets } from '../../../src/compare/evaluate-budgets.ts';
import type { ComparedRun, ScenarioMetrics } from '../../../src/compare/model.ts';
import { percentileInterval, samplesNeeded } from '../../../src/compare/percentile-interval.ts';
import { mulberry32 } from '../../helpers/mulberry32.ts';

/** n latencies (µs) from a long-tailed distribution: 2 ms × lognormal(0, 0.6), plus `shiftMs`. */
function sample(n: number, seed: number, shiftMs = 0): hdr.Histogram {
  const random = mulberry32(seed);
  const h = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, autoResize: true, useWebAssembly: false });
  for (let i = 0; i < n; i++) {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    h.recordValue(Math.round((2 * Math.exp(0.6 * normal) + shiftMs) * 1000));
  }
  return h;
}

function metrics(h: hdr.Histogram): ScenarioMetrics {
  const at = (p: number) => h.getValueAtPercentile(p) / 1000;
  return {
    p50Ms: at(50), p95Ms: at(95), p99Ms: at(99), rps: 100, errorRate: 0, rate429: 0, dropped: 0, percentiles: [], samples: h.totalCount,
    intervals: { p50: percentileInterval(h, 50), p95: percentileInterval(h, 95), p99: percentileInterval(h, 99) },
  };
}

const run = (label: string) => ({ label }) as ComparedRun;

function decide(budget: string, base: hdr.Histogram, cand: hdr.Histogram) {
  return evaluateBudgets(parseBudgets(budget), [run('A'), run('B')], [{ name: 'gate', runs: [metrics(base), metrics(cand)] }], 0)[0]!;
}

describe('percentile confidence intervals', () => {
  it('holds the true p95 in about 99 % of samples (distribution-free)', () => {
    const trueP95 = 2 * Math.exp(0.6 * 1.6449);
    let held = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const i = percentileInterval(sample(1000, seed), 95);
      if (i.lowMs <= trueP95 * 1.001 && trueP95 <= i.highMs * 1.001) held++;
    }
    expect(held).toBeGreaterThanOrEqual(95);
  });

  it('needs n·(1−p) ≥ 10 samples beyond the percentile', () => {
    expect(samplesNeeded(95)).toBe(200);
    expect(samplesNeeded(99)).toBe(1000);
    expect(percentileInterval(sample(60, 1), 95).enough).toBe(false);
  });
});

describe('latency budgets on intervals', () => {
  it('two samples of the same distribution are never "exceeded" at p95:+10%, over 40 pairs', () => {
    const statuses = Array.from({ length: 40 }, (_, i) => decide('p95:+10%', sample(1000, 100 + i), sample(1000, 200 + i)).status);
    expect(statuses.filter((s) => s === 'exceeded')).toEqual([]);
  });

  it('a candidate 50 ms slower is exceeded in every pair, naming the intervals', () => {
    for (let i = 0; i < 20; i++) {
      const result = decide('p95:+10%', sample(300, 300 + i), sample(300, 400 + i, 50));
      expect(result.status).toBe('exceeded');
      expect(result.detail).toMatch(/99 % intervals, 300 and 300 samples/);
    }
  });

  it('60 samples (the smoke scenario) are "inconclusive: too few samples", not a failure', () => {
    const result = decide('p95:+10%', sample(60, 1), sample(60, 2, 10));
    expect(result.status).toBe('inconclusive');
    expect(result.detail).toBe('p95:+10%: inconclusive: too few samples: p95 of scenario "gate" in B needs at least 200 requests per run (baseline 60, B 60)');
  });

  it('an absolute budget is decided the same way', () => {
    expect(decide('p95:+5ms', sample(1000, 7), sample(1000, 8)).status).toBe('within');
    expect(decide('p95:+5ms', sample(1000, 7), sample(1000, 8, 20)).status).toBe('exceeded');
  });
});

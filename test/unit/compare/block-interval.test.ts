/**
 * The gate's intervals when requests are not independent: synthetic runs of 30 seconds at 50 requests/s (the
 * shape of scenarios/gate.yaml) from a seeded generator, some of whose seconds are "stalled" (every request of that
 * second slower together, as on a busy runner). The per-second histograms are built and encoded the way the load
 * engine's recorder does (2 significant digits) and read back through compare's decoding. Stalls must widen the
 * intervals, two runs of the same stalling distribution must never come out "exceeded", and a +50 ms (p50) or
 * +50 % (p95) build must still be caught.
 */
import * as hdr from 'hdr-histogram-js';
import { describe, expect, it } from 'vitest';
import { parseBudgets } from '../../../src/compare/budget.ts';
import { evaluateBudgets } from '../../../src/compare/evaluate-budgets.ts';
import type { ComparedRun, ScenarioMetrics } from '../../../src/compare/model.ts';
import { blockCounts, percentileInterval, tQuantile995, type BlockInput } from '../../../src/compare/percentile-interval.ts';
import { mulberry32 } from '../../helpers/mulberry32.ts';

const build = (digits: 2 | 3, packed: boolean) =>
  hdr.build({ bitBucketSize: packed ? 'packed' : 32, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: digits, autoResize: true, useWebAssembly: false });

interface Shape {
  seconds?: number;
  perSecond?: number;
  /** Chance that a second is stalled, and how much a stall adds to every request of that second (ms). */
  stallChance?: number;
  stallMs?: number;
  /** A regression: a fixed delay (ms) added to every request, or a factor on every latency. */
  shiftMs?: number;
  factor?: number;
}

interface SyntheticRun {
  all: hdr.Histogram;
  blocks: BlockInput;
  stalled: number;
}

/** 2 ms × lognormal(0, 0.6) per request, times `factor`, plus `shiftMs`, plus the stall of its second if any. */
function syntheticRun(seed: number, shape: Shape = {}): SyntheticRun {
  const { seconds = 30, perSecond = 50, stallChance = 0, stallMs = 0, shiftMs = 0, factor = 1 } = shape;
  const random = mulberry32(seed);
  const all = build(3, false);
  const counts = [];
  let stalled = 0;
  for (let s = 0; s < seconds; s++) {
    // 32-bit buckets encode to the same bytes as the recorder's packed ones (checked below), six times faster.
    const second = build(2, false);
    const stall = random() < stallChance ? stallMs : 0;
    if (stall > 0) stalled++;
    for (let i = 0; i < perSecond; i++) {
      const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
      const micros = Math.round((2 * Math.exp(0.6 * normal) * factor + shiftMs + stall * (0.5 + random() * 0.5)) * 1000);
      all.recordValue(micros);
      second.recordValue(micros);
    }
    counts.push(blockCounts(hdr.encodeIntoCompressedBase64(second)));
  }
  return { all, blocks: { counts, seconds: 1 }, stalled };
}

function metrics(run: SyntheticRun, generatorBound?: ScenarioMetrics['generatorBound']): ScenarioMetrics {
  const at = (p: number) => run.all.getValueAtPercentile(p) / 1000;
  const i = (p: number) => percentileInterval(run.all, p, run.blocks);
  return {
    p50Ms: at(50), p95Ms: at(95), p99Ms: at(99), rps: 50, errorRate: 0, rate429: 0, dropped: 0, percentiles: [], samples: run.all.totalCount,
    intervals: { p50: i(50), p95: i(95), p99: i(99) },
    ...(generatorBound ? { generatorBound } : {}),
  };
}

const runs = [{ label: 'A' }, { label: 'B' }] as ComparedRun[];
const BUDGET = 'p50:+10ms,p95:+10%';

function gate(base: ScenarioMetrics, cand: ScenarioMetrics, budget = BUDGET) {
  return evaluateBudgets(parseBudgets(budget), runs, [{ name: 'gate', runs: [base, cand] }], 0);
}

const width = (i: { lowMs: number; highMs: number }) => i.highMs - i.lowMs;

describe('block intervals', () => {
  it("the synthetic seconds' encoding is the recorder's: packed buckets and 32-bit ones give the same bytes", () => {
    const random = mulberry32(42);
    for (let s = 0; s < 30; s++) {
      const [packed, plain] = [build(2, true), build(2, false)];
      for (let i = 0; i < 50; i++) {
        const micros = Math.round((2 * Math.exp(0.6 * (random() * 6 - 3)) + (s % 5 === 0 ? 40 : 0)) * 1000);
        packed.recordValue(micros);
        plain.recordValue(micros);
      }
      expect(hdr.encodeIntoCompressedBase64(plain)).toBe(hdr.encodeIntoCompressedBase64(packed));
    }
  });

  it('Student t at 99 %: the table, and never below the normal value', () => {
    expect(tQuantile995(1)).toBeCloseTo(63.657, 3);
    expect(tQuantile995(19)).toBeCloseTo(2.861, 3);
    expect(tQuantile995(35)).toBeCloseTo(2.75, 3); // between 30 and 40: the cautious (larger) one
    expect(tQuantile995(10_000)).toBeGreaterThanOrEqual(2.576);
    expect(tQuantile995(0)).toBe(Infinity);
  });

  it('stalls in some seconds give wider intervals than independent samples of the same size', () => {
    let wider = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const stalled = syntheticRun(seed, { stallChance: 0.2, stallMs: 40 });
      const independent = syntheticRun(seed + 100);
      const s = percentileInterval(stalled.all, 95, stalled.blocks);
      const iid = percentileInterval(independent.all, 95, independent.blocks);
      // The same stalled data read as if its requests were independent: the old, too narrow interval.
      const naive = percentileInterval(stalled.all, 95);
      expect(s.method).toBe('blocks');
      expect(naive.method).toBe('independent');
      expect(width(s)).toBeGreaterThanOrEqual(width(naive));
      if (stalled.stalled > 0 && s.widening > 1.5 && width(s) > width(iid)) wider++;
    }
    expect(wider).toBeGreaterThanOrEqual(15);
  });

  it('independent samples: the block interval stays close to the order-statistic one and holds the true p95', () => {
    const trueP95 = 2 * Math.exp(0.6 * 1.6449);
    let held = 0;
    const widenings: number[] = [];
    for (let seed = 1; seed <= 100; seed++) {
      const r = syntheticRun(seed);
      const i = percentileInterval(r.all, 95, r.blocks);
      widenings.push(i.widening);
      if (i.lowMs <= trueP95 * 1.001 && trueP95 <= i.highMs * 1.001) held++;
    }
    expect(held).toBeGreaterThanOrEqual(95);
    // Not inflated much when nothing is correlated: the median widening is about the t/z ratio's sampling noise.
    expect(widenings.sort((a, b) => a - b)[50]).toBeLessThan(1.6);
  });

  it('a run shorter than 2 seconds cannot measure correlation: not enough, and says why', () => {
    const r = syntheticRun(5, { seconds: 1, perSecond: 400 });
    const i = percentileInterval(r.all, 50, r.blocks);
    expect(i.enough).toBe(false);
    expect(i.why).toMatch(/fewer than 2 seconds/);
    const [result] = gate(metrics(r), metrics(syntheticRun(6, { seconds: 1, perSecond: 400 })), 'p50:+10ms');
    expect(result!.status).toBe('inconclusive');
    expect(result!.detail).toMatch(/^p50:\+10ms: inconclusive: too short: /);
    expect(result!.advice).toMatch(/more requests per run/);
  });
});

/**
 * The 40 pairs of runs of one stalling distribution, read by the next two tests (with block intervals, then as
 * independent requests): generated once, and dropped after the second reads them.
 */
let stallingPairs: Array<[SyntheticRun, SyntheticRun]> | undefined;
const samePairs = () =>
  (stallingPairs ??= Array.from({ length: 40 }, (_, i) => [syntheticRun(1000 + i, { stallChance: 0.15, stallMs: 40 }), syntheticRun(2000 + i, { stallChance: 0.15, stallMs: 40 })]));

describe(`${BUDGET} on runs whose seconds stall together`, () => {
  it('the same stalling distribution twice: never "exceeded" in 40 pairs (inconclusive allowed)', () => {
    const results = samePairs().map(([base, cand]) => gate(metrics(base), metrics(cand))).flat();
    expect(results.filter((r) => r.status === 'exceeded').map((r) => r.detail)).toEqual([]);
    // Each inconclusive result says why and what to change.
    for (const r of results.filter((x) => x.status === 'inconclusive')) {
      expect(r.reason).toBeTruthy();
      expect(r.advice).toBeTruthy();
    }
  });

  it('the same distribution read as independent requests would have failed identical builds (why blocks)', () => {
    const naive = (r: SyntheticRun): ScenarioMetrics => ({ ...metrics(r), intervals: { p50: percentileInterval(r.all, 50), p95: percentileInterval(r.all, 95), p99: percentileInterval(r.all, 99) } });
    const exceeded = samePairs().map(([base, cand]) => gate(naive(base), naive(cand))).flat().filter((r) => r.status === 'exceeded');
    stallingPairs = undefined;
    expect(exceeded.length).toBeGreaterThan(0);
  });

  it('a +50 ms build is exceeded on p50 in 20 of 20 pairs, quiet or stalling', () => {
    for (let i = 0; i < 20; i++) {
      for (const stall of [{}, { stallChance: 0.15, stallMs: 40 }]) {
        const [p50] = gate(metrics(syntheticRun(3000 + i, stall)), metrics(syntheticRun(4000 + i, { ...stall, shiftMs: 50 })));
        expect(p50!.status, p50!.detail).toBe('exceeded');
        expect(p50!.detail).toMatch(/99 % intervals, 1500 and 1500 samples, over blocks of \d+ s and \d+ s/);
      }
    }
  });

  it('a +50 % p95 build is exceeded on p95 in 20 of 20 pairs on a quiet run', () => {
    for (let i = 0; i < 20; i++) {
      const [, p95] = gate(metrics(syntheticRun(5000 + i)), metrics(syntheticRun(6000 + i, { factor: 1.5 })));
      expect(p95!.status, p95!.detail).toBe('exceeded');
    }
  });

  it('a generator-bound run is "exceeded" only by more than the delay it measured: else inconclusive, because …', () => {
    const bound = { seconds: 4, ofSeconds: 30, worstLoopDelayMs: 180, worstLateShare: 0.2, lateStartMs: 10 };
    const [p50] = gate(metrics(syntheticRun(7000)), metrics(syntheticRun(7001, { shiftMs: 50 }), bound));
    expect(p50!.status).toBe('inconclusive');
    expect(p50!.detail).toMatch(/^p50:\+10ms: inconclusive, because the load generator stalled: B was generator-bound in 4 of 30 s \(event-loop stalls up to 180 ms, up to 20 % of a second's arrivals over 10 ms late\), so its latencies include up to 180 ms of its own delay; p50 of scenario "gate" in B would be exceeded \(.*\) by less than that delay/);
    expect(p50!.advice).toMatch(/quieter runner/);
    // A stalled baseline raises the limit: "within" on it is not evidence, unless within the limit of a baseline
    // lowered by its delay (p50:+10ms still is: 10 ms over nothing; p95:+10% of nothing is not).
    const [p50within, within] = gate(metrics(syntheticRun(7002), bound), metrics(syntheticRun(7003, { factor: 0.7 })));
    expect(gate(metrics(syntheticRun(7002)), metrics(syntheticRun(7003, { factor: 0.7 })))[1]!.status).toBe("within");
    expect(p50within!.status).toBe('within');
    expect(within!.status).toBe('inconclusive');
    expect(within!.reason).toMatch(/the baseline was generator-bound .* would be within/);
    // A stalled candidate that is still within is within (its own delay only made it look slower).
    const [candidateBound] = gate(metrics(syntheticRun(7004)), metrics(syntheticRun(7005), bound));
    expect(candidateBound!.status).toBe('within');
    // Stalls of 20 ms cannot explain 50 ms: still exceeded, and it says so.
    const small = { ...bound, worstLoopDelayMs: 20 };
    const [caught] = gate(metrics(syntheticRun(7006)), metrics(syntheticRun(7007, { shiftMs: 50 }), small));
    expect(caught!.status).toBe('exceeded');
    expect(caught!.detail).toMatch(/B was generator-bound \(up to 20 ms of its own delay\), and exceeds the limit by more than that\)$/);
    // A generator that fell behind its schedule for most of a second measured no bound on its lateness.
    const [behind] = gate(metrics(syntheticRun(7006)), metrics(syntheticRun(7007, { shiftMs: 50 }), { ...small, worstLateShare: 0.8 }));
    expect(behind!.status).toBe('inconclusive');
  });

  it('a generator-bound run still over the limit in the seconds its generator kept up in is "exceeded": the slowdown is the target\'s', () => {
    const bound = { seconds: 5, ofSeconds: 30, worstLoopDelayMs: 180, worstLateShare: 0.2, lateStartMs: 10 };
    // The seconds the generator kept up in (what compare keeps: the bound seconds and the one after each left out).
    const keptUp = (seed: number, shape: Shape) => {
      const run = syntheticRun(seed, { ...shape, seconds: 20 });
      const i = (p: number) => percentileInterval(run.all, p, run.blocks);
      return { seconds: 20, ofSeconds: 30, intervals: { p50: i(50), p95: i(95), p99: i(99) } };
    };
    const slower = { ...metrics(syntheticRun(7101, { shiftMs: 50, stallChance: 0.2, stallMs: 180 }), bound), cleanIntervals: keptUp(7102, { shiftMs: 50 }) };
    const [p50] = gate(metrics(syntheticRun(7100)), slower);
    expect(p50!.status, p50!.detail).toBe('exceeded');
    expect(p50!.detail).toMatch(/B was generator-bound \(up to 180 ms of its own delay\), and over the 20 of 30 s its generator kept up in it is still \[[\d.]+, [\d.]+\] ms, over the limit\)$/);
    // The same build, stalled the same way: the kept-up seconds are within, so never exceeded.
    for (let i = 0; i < 10; i++) {
      const same = { ...metrics(syntheticRun(7200 + i, { stallChance: 0.2, stallMs: 180 }), bound), cleanIntervals: keptUp(7300 + i, {}) };
      const results = gate(metrics(syntheticRun(7400 + i)), same);
      expect(results.filter((r) => r.status === 'exceeded').map((r) => r.detail)).toEqual([]);
    }
  });

  it('a candidate above the limit by less than the typical second\'s event-loop stall is inconclusive: the machine\'s scheduling', () => {
    // Identical builds on a loaded runner: the candidate's target got less of the cores for the whole run (p95 × 1.5).
    const [, p95] = gate({ ...metrics(syntheticRun(7500)), loopDelayMs: 4 }, { ...metrics(syntheticRun(7501, { factor: 1.5 })), loopDelayMs: 6 });
    expect(p95!.status, p95!.detail).toBe('inconclusive');
    expect(p95!.reason).toMatch(/^the machine's scheduling: p95 of scenario "gate" in B is above the limit by [\d.]+ ms at least, less than the 6 ms the load generator's event loop stalled in a typical second of these runs/);
    // The same factor on a quiet runner (no stall of 1 ms or more in a typical second) is decided as before.
    const [, quiet] = gate(metrics(syntheticRun(7500)), metrics(syntheticRun(7501, { factor: 1.5 })));
    expect(quiet!.status).toBe('exceeded');
    // +50 ms is far more than any typical stall: still exceeded.
    const [p50] = gate({ ...metrics(syntheticRun(7502)), loopDelayMs: 4 }, { ...metrics(syntheticRun(7503, { shiftMs: 50 })), loopDelayMs: 6 });
    expect(p50!.status).toBe('exceeded');
  });

  it('stalls that hit only the candidate are inconclusive, not exceeded: one run cannot tell them from a slow build', () => {
    const statuses = Array.from({ length: 10 }, (_, i) => gate(metrics(syntheticRun(8000 + i)), metrics(syntheticRun(8100 + i, { stallChance: 0.3, stallMs: 40 })), 'p95:+10%')[0]!);
    expect(statuses.filter((r) => r.status === 'exceeded').map((r) => r.detail)).toEqual([]);
    const uneven = statuses.filter((r) => r.reason?.startsWith('the runs stalled unevenly'));
    expect(uneven.length).toBeGreaterThan(0);
    for (const r of uneven) expect(r.advice).toMatch(/at the same time/);
  });
});

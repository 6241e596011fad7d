/** Worker slices (divided VUs, interleaved arrivals), the generator-bound finding, and timeouts in latency. */
import { describe, expect, it } from 'vitest';
import { interleave, share } from '../../../src/load/engine/segments.ts';
import { generatorBound, GENERATOR_BOUNDS } from '../../../src/load/metrics/generator-bound.ts';
import { mergeSnapshots, Recorder } from '../../../src/load/metrics/recorder.ts';
import { arrivalSchedule } from '../../../src/load/pacer/arrival-schedule.ts';
import { formatScenarioSummary } from '../../../src/load/print-summary.ts';
import { buildScenarioResult } from '../../../src/load/metrics/summarize.ts';
import { workerCount } from '../../../src/load/workers/count.ts';
import type { Scenario } from '../../../src/load/scenario/types.ts';
import { coreShareOf, mergeWarmUps } from '../../../src/load/workers/pool.ts';

const scenario: Scenario = { name: 's', executor: 'constant-arrival-rate', credential: 'none', requests: [], thresholds: {}, rateLimitedAsFailure: false, timeout: '1s' };

describe('worker slices', () => {
  it('divides VUs without multiplying them: the shares add up to the total', () => {
    for (const total of [1, 3, 7, 50, 1000]) {
      for (const count of [1, 2, 3, 4, 16]) {
        const shares = Array.from({ length: count }, (_, index) => share(total, { index, count }));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
      }
    }
    expect([0, 1].map((index) => share(3, { index, count: 2 }))).toEqual([1, 2]);
  });

  it('deals arrivals out in turn: the merged stream is the one-worker schedule, each worker evenly spaced', () => {
    const whole = arrivalSchedule([{ durationMs: 1000, from: 100, to: 300 }]);
    const all = Array.from({ length: whole.total }, (_, n) => whole.timeOf(n) as number);
    for (const count of [2, 3, 4]) {
      const slices = Array.from({ length: count }, (_, index) => interleave(arrivalSchedule([{ durationMs: 1000, from: 100, to: 300 }]), { index, count }));
      expect(slices.reduce((n, s) => n + s.total, 0)).toBe(whole.total);
      const merged = slices.flatMap((s) => Array.from({ length: s.total }, (_, k) => s.timeOf(k) as number)).sort((a, b) => a - b);
      expect(merged).toEqual(all);
      // Worker i's k-th arrival is arrival i + k·W: no worker gets two arrivals in a row (no bursts).
      slices.forEach((s, index) => {
        for (let k = 0; k < s.total; k++) expect(s.timeOf(k)).toBe(all[index + k * count]);
        expect(s.timeOf(s.total)).toBeUndefined();
      });
    }
  });
});

describe('generator-bound', () => {
  it('names the seconds where the event loop stalled or arrivals started late, with the figures', () => {
    const r = new Recorder(['x']);
    for (let i = 0; i < 100; i++) r.recordStart(100 + i, 0);
    for (let i = 0; i < 100; i++) r.recordStart(1100 + i, i < 5 ? 30 : 0);
    r.recordLoopDelay(2500, 300);
    r.recordLoopDelay(500, 12);
    const found = generatorBound(r.timeline);
    expect(found).toMatchObject({ seconds: [1, 2], worstLoopDelayMs: 300, worstLateShare: 0.05, bounds: GENERATOR_BOUNDS });
    expect(found!.message).toMatch(/300 ms/);
  });

  it('is absent when the generator kept up', () => {
    const r = new Recorder(['x']);
    for (let i = 0; i < 1000; i++) r.recordStart(i, i === 3 ? 50 : 1);
    r.recordLoopDelay(900, 20);
    expect(generatorBound(r.timeline)).toBeUndefined();
  });

  it('merges workers\' figures: counts add up, the loop delay is the worst worker\'s', () => {
    const a = new Recorder(['x']);
    const b = new Recorder(['x']);
    for (let i = 0; i < 50; i++) a.recordStart(i * 10, 0);
    for (let i = 0; i < 50; i++) b.recordStart(i * 10 + 5, i < 2 ? 40 : 0);
    a.recordLoopDelay(900, 10);
    b.recordLoopDelay(900, 70);
    const merged = mergeSnapshots([a.snapshot(), b.snapshot()]);
    expect(merged.timeline[0]).toMatchObject({ starts: 100, lateStarts: 2, loopDelayMs: 70 });
    const result = buildScenarioResult(scenario, merged, [], 'd', undefined, { workers: 2 });
    expect(result.generatorBound?.seconds).toEqual([0]);
    expect(formatScenarioSummary(result)).toMatch(/GENERATOR-BOUND: .*70 ms/);
  });
});

describe('timeouts are recorded in latency', () => {
  it('a timed-out request is failed, an error, and in the histograms at its duration; a reset is not in latency', () => {
    const r = new Recorder(['x']);
    r.record(0, 200, true, 2, 100);
    r.recordError(0, 'UND_ERR_HEADERS_TIMEOUT', 1300, 1000);
    r.recordError(0, 'ECONNRESET', 1400);
    expect(r.counts()).toMatchObject({ requests: 3, failed: 2, errors: 2 });
    expect(r.histogram().totalCount).toBe(2);
    expect(r.histogram('x').getValueAtPercentile(100) / 1000).toBeCloseTo(1000, -1);
    expect(r.timeline[1]!.histogram.totalCount).toBe(1);
    // And it survives a worker's snapshot and merge.
    expect(mergeSnapshots([r.snapshot()]).histogram().totalCount).toBe(2);
  });
});

describe('how many workers run', () => {
  const open = { ...scenario, rate: 100, duration: '1s', timeUnit: '1s', preAllocatedVUs: 3, maxVUs: 3 };
  it('the flag wins over the scenario, and a scenario never gets more workers than VUs to divide', () => {
    expect(workerCount({ ...open, workers: 2 }, undefined, 16)).toEqual({ workers: 2 });
    expect(workerCount({ ...open, workers: 2 }, 1, 16)).toEqual({ workers: 1 });
    const capped = workerCount(open, 8, 16);
    expect(capped.workers).toBe(3);
    expect(capped.note).toMatch(/8 workers asked for, but the scenario has only 3 VU/);
    const closed: Scenario = { ...scenario, executor: 'ramping-vus', startVUs: 1, stages: [{ duration: '1s', target: 5 }, { duration: '1s', target: 0 }] };
    expect(workerCount(closed, 4, 16)).toEqual({ workers: 4 });
    expect(workerCount(closed, 6, 16).workers).toBe(5);
  });

  it('auto (the default) gives what the run needs, up to the cores less one', () => {
    // 100 req/s needs one worker on any machine.
    expect(workerCount(open, undefined, 64)).toEqual({ workers: 1 });
    expect(workerCount({ ...open, workers: 'auto' }, undefined, 64)).toEqual({ workers: 1 });
    const fast = { ...open, rate: 35_000, maxVUs: 1000 };
    expect(workerCount(fast, undefined, 16).workers).toBe(4);
    expect(workerCount(fast, undefined, 16).note).toMatch(/auto chose 4 \(one per 10000 req\/s of the peak rate 35000, at most 15: the 16 cores less one\)/);
    // A 2-core machine spares one core: one worker, however fast the run.
    expect(workerCount(fast, 'auto', 2)).toEqual({ workers: 1 });
    expect(workerCount(fast, 'auto', 3).workers).toBe(2);
    // Per 30000 arrivals per minute (timeUnit), the peak rate is per second: 500/s, one worker.
    expect(workerCount({ ...open, rate: 30_000, timeUnit: '1m', maxVUs: 100 }, 'auto', 16)).toEqual({ workers: 1 });
    // Closed model: one per 100 VUs of the peak.
    const vus: Scenario = { ...scenario, executor: 'constant-vus', vus: 250, duration: '1s' };
    expect(workerCount(vus, 'auto', 16).workers).toBe(3);
    expect(workerCount({ ...vus, vus: 50 }, 'auto', 16)).toEqual({ workers: 1 });
  });

  it('workers beyond the cores share a core\'s pacing wakes: each paces that many times coarser, and the note says so', () => {
    expect(coreShareOf(2, 2, true)).toEqual({ coreShare: 1 });
    expect(coreShareOf(1, 1, true)).toEqual({ coreShare: 1 });
    const shared = coreShareOf(2, 1, true);
    expect(shared.coreShare).toBe(2);
    expect(shared.note).toMatch(/^2 workers on 1 core\(s\) this process may use: each worker's pacer wakes at most every 0\.4 ms instead of 0\.2 ms/);
    expect(coreShareOf(5, 2, true).coreShare).toBe(3);
    // The closed model has no pacer: the share changes nothing there, so there is nothing to say.
    expect(coreShareOf(4, 1, false)).toEqual({ coreShare: 4 });
  });

  it('warm-ups of workers add up (the slowest one is the duration)', () => {
    expect(mergeWarmUps([{ durationMs: 10, requests: 4, errors: 0, connections: 2 }, { durationMs: 30, requests: 6, errors: 1, connections: 3 }])).toEqual({ durationMs: 30, requests: 10, errors: 1, connections: 5 });
    expect(mergeWarmUps([undefined, undefined])).toBeUndefined();
  });
});

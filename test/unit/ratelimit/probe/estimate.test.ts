/** The estimator on synthetic admission traces (times in ms on a fake clock): classification and numbers. */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../../src/ratelimit/probe/estimate.ts';
import { analyseRecovery } from '../../../../src/ratelimit/probe/recovery.ts';
import type { Sample } from '../../../../src/ratelimit/probe/types.ts';

/** A trace builder: admitted (`ok`) and throttled (`no`) requests at given times. */
function trace() {
  const samples: Sample[] = [];
  const add = (t: number, admitted: boolean, phase: Sample['phase'], retryAfterS?: number) =>
    samples.push({ t, credential: 'primary', phase, status: admitted ? 200 : 429, admitted, ...(retryAfterS !== undefined ? { retryAfterS } : {}) });
  const api = {
    samples,
    /** `n` admitted requests from `from`, `every` ms apart. */
    ok(from: number, n: number, every = 10, phase: Sample['phase'] = 'run') {
      for (let i = 0; i < n; i++) add(from + i * every, true, phase);
      return api;
    },
    /** Throttled requests from `from` to `to` (exclusive), `every` ms apart. */
    no(from: number, to: number, every = 25, retryAfterS?: number) {
      for (let t = from; t < to; t += every) add(t, false, 'watch', retryAfterS);
      return api;
    },
  };
  return api;
}

describe('estimate', () => {
  it('no 429 at all: not limited', () => {
    const result = estimate(trace().ok(0, 200, 10, 'burst').samples);
    expect(result).toMatchObject({ limited: false, algorithm: 'unknown', firstBurst: 200, complete: true });
  });

  it('only the first burst: quota from it, window unknown, incomplete', () => {
    const result = estimate(trace().ok(0, 10, 10, 'burst').no(100, 1000).samples);
    expect(result).toMatchObject({ limited: true, algorithm: 'unknown', quota: 10, complete: false });
  });

  it('fixed window: the whole quota returns at once, one window apart', () => {
    // Burst of 10, boundary at 1500 (run paused after 3), next boundary at 3500.
    const t = trace().ok(0, 10, 10, 'burst').no(100, 1500).ok(1500, 3).ok(1920, 7).no(1990, 3500).ok(3500, 10).no(3600, 3675);
    const result = estimate(t.samples, { minPauseMs: 75 });
    expect(result).toMatchObject({ limited: true, algorithm: 'fixed-window', quota: 10, windowS: 2, complete: true });
  });

  it('sliding window: the second run replays the first one\'s pause', () => {
    // First burst 0–90; ages out from 2000: run of 3, pause, 7 more. 2 s later: 3 again, then the 7 after the pause.
    const t = trace().ok(0, 10, 10, 'burst').no(100, 2000).ok(2000, 3).ok(2420, 7).no(2490, 4000).ok(4000, 3).no(4030, 4420).ok(4420, 7).no(4490, 4565);
    const result = estimate(t.samples, { minPauseMs: 75 });
    expect(result).toMatchObject({ algorithm: 'sliding-window', quota: 10, windowS: 2, complete: true });
  });

  it('sliding window without the pause: told by recovery exactly one window after the first burst', () => {
    const t = trace().ok(0, 10, 10, 'burst').no(100, 2000).ok(2000, 10).no(2100, 4000).ok(4000, 4).no(4040, 4115);
    expect(estimate(t.samples)).toMatchObject({ algorithm: 'sliding-window', quota: 10, windowS: 2 });
  });

  it('token bucket: single admissions at the refill rate; burst net of what refilled during it', () => {
    // 21 admitted in 200 ms (20 + one token refilled at 5/s), then one every 200 ms.
    const t = trace().ok(0, 21, 10, 'burst');
    let at = 210;
    for (let k = 1; k <= 12; k++) {
      t.no(at, 210 + k * 200, 50);
      t.ok(210 + k * 200, 1);
      at = 210 + k * 200 + 10;
      t.no(at, at + 30, 10);
      at += 30;
    }
    const result = estimate(t.samples);
    expect(result.algorithm).toBe('token-bucket');
    expect(result.burst).toBe(20);
    expect(result.refillPerS).toBeCloseTo(5, 1);
    expect(result.windowS).toBeCloseTo(4, 0);
    expect(result.complete).toBe(true);
  });

  it('token bucket with too few admissions yet: classified, not complete', () => {
    const t = trace().ok(0, 21, 10, 'burst').no(210, 410, 50).ok(410, 1).no(420, 610, 50).ok(610, 1).no(620, 810, 50).ok(810, 1).no(820, 900, 10);
    expect(estimate(t.samples)).toMatchObject({ algorithm: 'token-bucket', complete: false });
  });
});

describe('analyseRecovery', () => {
  it('honest: admitted again before the Retry-After passed', () => {
    const t = trace().ok(0, 10, 10, 'burst').no(100, 1500, 25, 2).ok(1500, 10);
    expect(analyseRecovery(t.samples)).toMatchObject({ claimedS: 2, actualRecoveryS: 1.4, honest: true });
  });

  it('dishonest: still throttled after the Retry-After, with nothing admitted in between', () => {
    const t = trace().ok(0, 10, 10, 'burst').no(100, 3000, 25, 1).ok(3000, 10);
    const finding = analyseRecovery(t.samples);
    expect(finding.honest).toBe(false);
    expect(finding.actualRecoveryS).toBeCloseTo(2.9, 3);
    expect(finding.notes[0]).toMatch(/Retry-After 1 s/);
  });

  it('the delay counts from the 429\'s answer, not its send: a slow answer is no dishonesty', () => {
    // Answered 400 ms after it was sent with Retry-After 1: a request 1.1 s after the send is still inside the delay.
    const t = trace().ok(0, 10, 10, 'burst');
    t.samples.push({ t: 100, credential: 'primary', phase: 'watch', status: 429, admitted: false, retryAfterS: 1, rttMs: 400 });
    t.no(1200, 1450, 50, 1).ok(1500, 5);
    const finding = analyseRecovery(t.samples);
    expect(finding.notes.filter((n) => /throttled again/.test(n))).toEqual([]);
    expect(finding.honest).toBe(true);
  });

  it('no Retry-After: honesty not established, and said so', () => {
    const t = trace().ok(0, 10, 10, 'burst').no(100, 1500).ok(1500, 10);
    const finding = analyseRecovery(t.samples);
    expect(finding.honest).toBeUndefined();
    expect(finding.notes).toContain('the first 429 carried no usable Retry-After');
  });
});

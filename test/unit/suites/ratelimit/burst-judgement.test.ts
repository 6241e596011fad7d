/**
 * What a burst without a 429 says: a slow burst, or one whose target's own counts were credited back without
 * running out, could not decide; a fast burst past the announced policy is a failure, and so is one whose counts
 * came back but also went on admitting at 0.
 */
import { describe, expect, it } from 'vitest';
import { CountTracker, undecisiveBurst, type BurstCounts, type JudgedBurst } from '../../../../suites/lib/burst-judgement.ts';

function burst(sent: number, elapsedMs: number, policy: { quota?: number; windowS?: number }, counts?: BurstCounts): JudgedBurst {
  return { sent, elapsedMs, statuses: { 200: sent }, reading: { style: 'ietf-draft-09', findings: [], notes: [], ...policy }, ...(counts ? { counts } : {}) };
}

/** The counts a tracker keeps for batches of remaining values, each `stepMs` apart. */
function track(batches: Array<Array<number | undefined>>, stepMs = 100): BurstCounts | undefined {
  const tracker = new CountTracker();
  batches.forEach((batch, i) => tracker.batch(batch, i * stepMs));
  return tracker.counts;
}

/** The remaining values an honest fixed window reports for `n` admitted requests from `start` down. */
function countdown(start: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => start - i);
}

describe('undecisiveBurst', () => {
  it('a slow burst that never exceeded the announced policy could not decide, and says its measured pace', () => {
    const reason = undecisiveBurst(burst(410, 2600, { quota: 200, windowS: 1 }));
    expect(reason).toContain('sent 410 requests in 2600 ms');
    expect(reason).toContain('no more than a policy of 200 per 1 s admits in 2600 ms (800, counting a window boundary)');
  });

  it('a fast burst past the announced policy is a failure', () => {
    expect(undecisiveBurst(burst(410, 300, { quota: 200, windowS: 1 }))).toBeUndefined();
    expect(undecisiveBurst(burst(130, 2000, { quota: 60, windowS: 60 }, track([[59], Array(10).fill(59), Array(10).fill(59)])))).toBeUndefined();
  });

  it('with no window announced, past twice the quota is a failure unless the target\'s counts were credited back', () => {
    expect(undecisiveBurst(burst(410, 5000, { quota: 200 }))).toBeUndefined();
    const counts = track([[199], countdown(198, 10), countdown(199, 10)]);
    expect(undecisiveBurst(burst(410, 5000, { quota: 200 }, counts))).toContain('twice the announced quota of 200 (no window announced)');
  });

  it('a burst cut short below twice the quota of an unknown window could not decide', () => {
    expect(undecisiveBurst(burst(300, 15_000, { quota: 200 }))).toContain('no more than twice the announced quota of 200 (no window announced) admits in 15000 ms (400');
  });

  it('a slow burst past an overstated window, whose counts were credited back and never ran out, could not decide', () => {
    // 200 per 3 s announced, a 1 s window counted: the count comes back at each turnover.
    const counts = track([[199], countdown(198, 10), countdown(188, 10), countdown(199, 10), countdown(189, 10)], 400);
    expect(counts).toEqual({ lowest: 179, replenishments: 1, firstReplenishedMs: 1200, overrun: false });
    const reason = undecisiveBurst(burst(410, 1746, { quota: 200, windowS: 3 }, counts));
    expect(reason).toContain('more than a policy of 200 per 3 s admits');
    expect(reason).toContain('credited back 1 time(s) during it (first after 1200 ms)');
    expect(reason).toContain('ratelimit.policy.claimed-window-matches');
  });

  it('counts that went on admitting at 0 are no excuse: a burst past the announced policy fails, a slow one could not decide', () => {
    const overrun = track([[2], [1, 0], [199, 198], countdown(197, 198), [0, 0]]);
    expect(overrun).toEqual({ lowest: 0, replenishments: 1, firstReplenishedMs: 200, overrun: true });
    expect(undecisiveBurst(burst(410, 300, { quota: 200, windowS: 3 }, overrun))).toBeUndefined();
    // Counts that drop too fast reach 0 while the limiter still admits: that is the counts' fault, not the limit's.
    expect(undecisiveBurst(burst(1000, 11_957, { quota: 200, windowS: 1 }, overrun))).toContain('no more than a policy of 200 per 1 s admits in 11957 ms');
  });

  it('nothing announced: the bound is all there is to say, a failure', () => {
    expect(undecisiveBurst(burst(1000, 60_000, {}))).toBeUndefined();
  });
});

describe('CountTracker', () => {
  it('keeps nothing when no answer reported a remaining quota', () => {
    expect(track([[undefined], [undefined, undefined]])).toBeUndefined();
  });

  it('does not take a count that stays put for a credit, nor a single admission at 0 after a turnover', () => {
    expect(track([[59], Array(10).fill(59)])).toEqual({ lowest: 59, replenishments: 0, overrun: false });
    // A quota of 1: each window admits one answer, which reports 0.
    expect(track([[0], [0], [0]])).toEqual({ lowest: 0, replenishments: 0, overrun: false });
  });
});

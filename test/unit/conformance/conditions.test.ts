import { describe, expect, it } from 'vitest';
import { describeConditions, percentiles, RunConditions, timestampUncertaintyMs, uncertaintyOfGapChangeMs } from '../../../src/conformance/conditions.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* a stall of our own making */ }
}

describe('RunConditions', () => {
  it('sees a stall of its own event loop in the stretch that had it', async () => {
    const conditions = new RunConditions().start();
    try {
      await sleep(60);
      const mark = conditions.mark();
      busy(150);
      await sleep(60);
      const stretch = conditions.since(mark);
      // The stall is at least what we made (a loaded machine only adds to it).
      expect(stretch.loopDelayMs!.max).toBeGreaterThanOrEqual(120);
      expect(timestampUncertaintyMs(stretch)).toBeGreaterThanOrEqual(120);
      expect(uncertaintyOfGapChangeMs(stretch)).toBe(Math.round(2 * timestampUncertaintyMs(stretch) * 100) / 100);
      expect(describeConditions(stretch)).toMatch(/^event-loop stalls up to \d+(\.\d+)? ms/);
      // The whole run's figures come from monitorEventLoopDelay and include the stall too.
      expect(conditions.snapshot().loopDelayMs!.max).toBeGreaterThanOrEqual(100);
    } finally {
      conditions.stop();
    }
  });

  it('reads round trips and send lag by stretch', () => {
    const conditions = new RunConditions();
    const before = conditions.mark();
    conditions.recordRoundTrip(5);
    conditions.recordRoundTrip(15);
    conditions.recordSendLag(2);
    const stretch = conditions.since(before);
    expect(stretch.rttMs).toMatchObject({ count: 2, p50: 5, max: 15 });
    expect(stretch.sendLagMs).toMatchObject({ count: 1, max: 2 });
    // Spread p99 − p50 of round trips, no loop samples (not started): 15 − 5.
    expect(timestampUncertaintyMs(stretch)).toBe(10);
    expect(conditions.between(before - 1000, before - 500).rttMs).toBeUndefined();
  });

  it('percentiles by rank', () => {
    expect(percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toEqual({ count: 10, p50: 5, p90: 9, p99: 10, max: 10 });
  });
});

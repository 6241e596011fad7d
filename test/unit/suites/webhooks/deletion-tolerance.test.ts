/** How late a delivery already on the wire at a webhook's delete may land (webhooks.deletion.nothing-after). */
import { describe, expect, it } from 'vitest';
import type { ConditionsSnapshot } from '../../../../src/conformance/conditions.ts';
import { inFlightToleranceMs } from '../../../../suites/webhooks/deletion.ts';

const stats = (p50: number, p99: number, max: number) => ({ count: 100, p50, p90: p99, p99, max });

describe('inFlightToleranceMs', () => {
  it('is the quiet grace alone when nothing was measured', () => {
    expect(inFlightToleranceMs({ spanMs: 2000 })).toBe(50);
  });

  it("adds the round trips' spread and three turns of the largest stall: a loaded run allows more, a quiet one stays sharp", () => {
    const quiet: ConditionsSnapshot = { spanMs: 2000, loopDelayMs: stats(1, 3, 4), rttMs: stats(1, 3, 5) };
    const loaded: ConditionsSnapshot = { spanMs: 2000, loopDelayMs: stats(20, 180, 250), rttMs: stats(2, 28, 40) };
    expect(inFlightToleranceMs(quiet)).toBe(50 + 2 + 3 * 4);
    // Stalls of a quarter second: a delivery on the wire may pass three of them before it is stamped.
    expect(inFlightToleranceMs(loaded)).toBe(50 + 26 + 3 * 250);
  });
});

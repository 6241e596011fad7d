/** How much warm-up a run gets (src/load/engine/warm-up.ts): enough for the JIT, never a large share of the run. */
import { describe, expect, it } from 'vitest';
import { warmUpTarget } from '../../../src/load/engine/warm-up.ts';

describe('warm-up size', () => {
  it('is a tenth of the planned requests, capped, and never less than two rounds of the connections', () => {
    expect(warmUpTarget(50, 50_000)).toBe(5000);
    expect(warmUpTarget(50, 1_000_000)).toBe(10_000);
    expect(warmUpTarget(3, 20)).toBe(6);
    expect(warmUpTarget(1000, 50_000)).toBe(5000);
    expect(warmUpTarget(1000, 5000)).toBe(2000);
  });

  it('without a planned count (closed model by duration) aims for the cap, which the time bound cuts short', () => {
    expect(warmUpTarget(50)).toBe(10_000);
    expect(warmUpTarget(0)).toBe(10_000);
  });
});

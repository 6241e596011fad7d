import { describe, expect, it } from 'vitest';
import { judgeClaim } from '../../../../src/ratelimit/probe/judge.ts';

describe('judgeClaim: a claim against an observed interval (±10 %)', () => {
  it('matches when the claim is within ±10 % of every value the measurement allows', () => {
    expect(judgeClaim(1, { value: 1, low: 0.98, high: 1.02, how: 'test' }).outcome).toBe('matches');
  });
  it('differs when it is within ±10 % of none of them', () => {
    expect(judgeClaim(3, { value: 1, low: 0.6, high: 1.4, how: 'test' }).outcome).toBe('differs');
    expect(judgeClaim(200, { value: 100, low: 100, high: 100, how: 'test' }).outcome).toBe('differs');
  });
  it('cannot decide when the measured uncertainty straddles the tolerance, and says so with the interval', () => {
    const judged = judgeClaim(1, { value: 1.05, low: 0.8, high: 1.3, how: 'recoveries noticed within 200 ms' });
    expect(judged.outcome).toBe('undecidable');
    expect(judged.outcome === 'undecidable' && judged.reason).toMatch(/0\.8 … 1\.3: recoveries noticed within 200 ms/);
  });
});

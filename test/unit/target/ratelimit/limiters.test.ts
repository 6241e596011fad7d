import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../../../../src/target/ratelimit/fixed-window.ts';
import { SlidingWindowLimiter } from '../../../../src/target/ratelimit/sliding-window.ts';
import { TokenBucketLimiter } from '../../../../src/target/ratelimit/token-bucket.ts';
import { createRateLimiter } from '../../../../src/target/ratelimit/create.ts';
import type { RateLimiter, RatePolicy } from '../../../../src/target/ratelimit/types.ts';
import { fakeClock } from '../../../helpers/reference-target.ts';

const policy = (quota: number, windowSeconds = 1, refillPerSecond = quota / windowSeconds): RatePolicy => ({
  name: 'default',
  quota,
  windowSeconds,
  refillPerSecond,
});

/** A limiter of the given kind reading a fake clock, and that clock. */
function onFakeClock(Limiter: new (now: () => number) => RateLimiter): { clock: ReturnType<typeof fakeClock>; limiter: RateLimiter } {
  const clock = fakeClock();
  return { clock, limiter: new Limiter(clock.now) };
}

function burst(limiter: RateLimiter, key: string, p: RatePolicy, n: number): boolean[] {
  return Array.from({ length: n }, () => limiter.consume(key, p).allowed);
}

describe.each([
  ['fixed-window', FixedWindowLimiter],
  ['sliding-window', SlidingWindowLimiter],
  ['token-bucket', TokenBucketLimiter],
] as const)('%s limiter (shared properties)', (algorithm, Limiter) => {
  it('admits exactly the quota in a burst, then refuses', () => {
    const limiter = new Limiter(fakeClock().now);
    expect(burst(limiter, 'k', policy(3), 5)).toEqual([true, true, true, false, false]);
  });

  it('counts remaining down to 0', () => {
    const limiter = new Limiter(fakeClock().now);
    expect([1, 2, 3].map(() => limiter.consume('k', policy(3)).remaining)).toEqual([2, 1, 0]);
  });

  it('keeps keys independent', () => {
    const limiter = new Limiter(fakeClock().now);
    burst(limiter, 'a', policy(2), 3);
    expect(limiter.consume('b', policy(2)).allowed).toBe(true);
  });

  it('gives an honest Retry-After: waiting exactly that long is enough, waiting less is not', () => {
    for (const offsetMs of [0, 1, 250, 999]) {
      const clock = fakeClock();
      clock.advance(offsetMs);
      const limiter = new Limiter(clock.now);
      burst(limiter, 'k', policy(2, 2), 2);
      clock.advance(300);
      const refused = limiter.consume('k', policy(2, 2));
      expect(refused.allowed).toBe(false);
      expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      clock.advance(refused.retryAfterSeconds * 1000);
      expect(limiter.consume('k', policy(2, 2)).allowed, `${algorithm} at offset ${offsetMs}`).toBe(true);
    }
  });

  it('does not charge refused requests', () => {
    const { clock, limiter } = onFakeClock(Limiter);
    burst(limiter, 'k', policy(1), 1);
    const first = limiter.consume('k', policy(1));
    burst(limiter, 'k', policy(1), 50);
    clock.advance(first.retryAfterSeconds * 1000);
    expect(limiter.consume('k', policy(1)).allowed).toBe(true);
  });

  it('is what createRateLimiter returns for its name', () => {
    expect(createRateLimiter(algorithm, Date.now)).toBeInstanceOf(Limiter);
  });
});

describe('FixedWindowLimiter', () => {
  it('resets at the aligned window boundary', () => {
    const { clock, limiter } = onFakeClock(FixedWindowLimiter);
    clock.advance(900);
    burst(limiter, 'k', policy(2), 2);
    const refused = limiter.consume('k', policy(2));
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 1, resetSeconds: 1 });
    clock.advance(100);
    expect(limiter.consume('k', policy(2)).allowed).toBe(true);
  });
});

describe('SlidingWindowLimiter (sliding log)', () => {
  it('lets a request through only when the oldest one leaves the window', () => {
    const { clock, limiter } = onFakeClock(SlidingWindowLimiter);
    limiter.consume('k', policy(2, 10));
    clock.advance(4000);
    limiter.consume('k', policy(2, 10));
    clock.advance(1000);
    const refused = limiter.consume('k', policy(2, 10));
    expect(refused.retryAfterSeconds).toBe(5);
    clock.advance(4999);
    expect(limiter.consume('k', policy(2, 10)).allowed).toBe(false);
    clock.advance(1);
    expect(limiter.consume('k', policy(2, 10)).allowed).toBe(true);
    // The second request (t=4 s) still counts: the window has not fully slid past it.
    expect(limiter.consume('k', policy(2, 10)).allowed).toBe(false);
  });

  it('has no boundary burst: a full window just before a boundary still binds after it', () => {
    const { clock, limiter } = onFakeClock(SlidingWindowLimiter);
    clock.advance(999);
    burst(limiter, 'k', policy(3), 3);
    clock.advance(2);
    expect(limiter.consume('k', policy(3)).allowed).toBe(false);
  });
});

describe('TokenBucketLimiter', () => {
  it('refills at refillPerSecond up to the burst size', () => {
    const { clock, limiter } = onFakeClock(TokenBucketLimiter);
    const p = policy(4, 1, 2);
    burst(limiter, 'k', p, 4);
    expect(limiter.consume('k', p)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1000);
    expect(burst(limiter, 'k', p, 3)).toEqual([true, true, false]);
    clock.advance(60_000);
    expect(burst(limiter, 'k', p, 5)).toEqual([true, true, true, true, false]);
  });

  it('rounds a fractional wait up', () => {
    const { clock, limiter } = onFakeClock(TokenBucketLimiter);
    const p = policy(1, 1, 0.4);
    limiter.consume('k', p);
    expect(limiter.consume('k', p).retryAfterSeconds).toBe(3);
    clock.advance(2000);
    expect(limiter.consume('k', p).allowed).toBe(false);
    clock.advance(1000);
    expect(limiter.consume('k', p).allowed).toBe(true);
  });
});

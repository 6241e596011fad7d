/** Picks the limiter implementation for the configured algorithm. */
import type { RateLimitAlgorithm } from '../../config/types.ts';
import { FixedWindowLimiter } from './fixed-window.ts';
import { SlidingWindowLimiter } from './sliding-window.ts';
import { TokenBucketLimiter } from './token-bucket.ts';
import type { Clock, RateLimiter } from './types.ts';

const LIMITERS: Record<RateLimitAlgorithm, new (clock: Clock) => RateLimiter> = {
  'fixed-window': FixedWindowLimiter,
  'sliding-window': SlidingWindowLimiter,
  'token-bucket': TokenBucketLimiter,
};

export function createRateLimiter(algorithm: RateLimitAlgorithm, clock: Clock): RateLimiter {
  return new LIMITERS[algorithm](clock);
}

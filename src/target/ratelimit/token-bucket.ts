/**
 * Token bucket: the bucket holds up to `quota` tokens (the burst) and refills at `refillPerSecond`; each
 * request takes one token. Retry-After is the time until one whole token is back, rounded up.
 */
import { ceilSeconds, SWEEP_EVERY, type Clock, type RateDecision, type RateLimiter, type RatePolicy } from './types.ts';

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** The policy's size and rate, kept so the sweep can tell when this bucket would be full again. */
  quota: number;
  refillPerSecond: number;
}

// Refill arithmetic is floating point; without a tolerance, waiting exactly Retry-After could leave 0.9999… tokens.
const EPSILON = 1e-9;

export class TokenBucketLimiter implements RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  #calls = 0;

  constructor(private readonly clock: Clock) {}

  consume(key: string, policy: RatePolicy): RateDecision {
    const now = this.clock();
    if (++this.#calls % SWEEP_EVERY === 0) this.#sweep(now);

    const bucket = this.#buckets.get(key) ?? { tokens: policy.quota, updatedAt: now, quota: 0, refillPerSecond: 0 };
    bucket.quota = policy.quota;
    bucket.refillPerSecond = policy.refillPerSecond;
    const elapsedMs = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(policy.quota, bucket.tokens + (elapsedMs / 1000) * policy.refillPerSecond);
    bucket.updatedAt = now;
    this.#buckets.set(key, bucket);

    if (bucket.tokens + EPSILON < 1) {
      const retry = ceilSeconds(((1 - bucket.tokens) / policy.refillPerSecond) * 1000);
      return { allowed: false, policy, remaining: 0, resetSeconds: retry, retryAfterSeconds: retry };
    }
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    return {
      allowed: true,
      policy,
      remaining: Math.floor(bucket.tokens + EPSILON),
      resetSeconds: ceilSeconds(((policy.quota - bucket.tokens) / policy.refillPerSecond) * 1000),
      retryAfterSeconds: 0,
    };
  }

  // A bucket that would be full again carries no information; forgetting it changes no decision.
  #sweep(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      const refilled = bucket.tokens + ((now - bucket.updatedAt) / 1000) * bucket.refillPerSecond;
      if (refilled >= bucket.quota) this.#buckets.delete(key);
    }
  }
}

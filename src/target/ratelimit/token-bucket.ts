/**
 * Token bucket: the bucket holds up to `quota` tokens (the burst) and refills at `refillPerSecond`; each
 * request takes one token. Retry-After is the time until one whole token is back, rounded up.
 */
import { KeyedLimiter } from './keyed-limiter.ts';
import { ceilSeconds, type RateDecision, type RatePolicy } from './types.ts';

interface Bucket {
  tokens: number;
  updatedAt: number;
  /** The policy's size and rate, kept so the sweep can tell when this bucket would be full again. */
  quota: number;
  refillPerSecond: number;
}

// Refill arithmetic is floating point; without a tolerance, waiting exactly Retry-After could leave 0.9999… tokens.
const EPSILON = 1e-9;

export class TokenBucketLimiter extends KeyedLimiter<Bucket> {
  protected decide(key: string, policy: RatePolicy, now: number): RateDecision {
    const bucket = this.states.get(key) ?? { tokens: policy.quota, updatedAt: now, quota: 0, refillPerSecond: 0 };
    bucket.quota = policy.quota;
    bucket.refillPerSecond = policy.refillPerSecond;
    const elapsedMs = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(policy.quota, bucket.tokens + (elapsedMs / 1000) * policy.refillPerSecond);
    bucket.updatedAt = now;
    this.states.set(key, bucket);

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
  protected isIdle(bucket: Bucket, now: number): boolean {
    return bucket.tokens + ((now - bucket.updatedAt) / 1000) * bucket.refillPerSecond >= bucket.quota;
  }
}

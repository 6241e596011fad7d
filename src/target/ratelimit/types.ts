/** The limiter contract shared by the three algorithms. Time comes from an injected clock (ms), never Date. */

export type Clock = () => number;

export interface RatePolicy {
  /** Policy name as it appears in the RateLimit headers. */
  name: string;
  /** Requests per window; for the token bucket, the bucket size (burst). */
  quota: number;
  windowSeconds: number;
  /** Token-bucket refill rate; ignored by the window algorithms. */
  refillPerSecond: number;
}

export interface RateDecision {
  allowed: boolean;
  policy: RatePolicy;
  /** Requests still allowed now (after this one, when it was allowed). */
  remaining: number;
  /** Whole seconds until the quota frees up again (the `t` of the RateLimit header). */
  resetSeconds: number;
  /**
   * When refused: whole seconds after which a request is admitted if nothing else uses the quota meanwhile.
   * Always rounded up, so waiting exactly this long is enough (an honest Retry-After). 0 when allowed.
   */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts the request when allowed; a refused request consumes nothing. */
  consume(key: string, policy: RatePolicy): RateDecision;
}

/** Milliseconds → whole seconds, rounded up and at least 1 (a 0 Retry-After invites an immediate retry storm). */
export function ceilSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000 - 1e-9));
}

/** How many consume() calls between sweeps of idle buckets; keeps per-address state from growing forever. */
export const SWEEP_EVERY = 10_000;

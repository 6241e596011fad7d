/**
 * Sliding window, as a sliding LOG (exact, not the two-window approximation): each key keeps the times of
 * the requests it was allowed in the last window. A request is allowed while fewer than `quota` are logged.
 * Exactness is what makes Retry-After honest: it is the time until the oldest logged request leaves the window.
 * Memory is one number per allowed request in the window, bounded by the quota (or by traffic, for the load key).
 */
import { ceilSeconds, SWEEP_EVERY, type Clock, type RateDecision, type RateLimiter, type RatePolicy } from './types.ts';

/** A queue of timestamps with an advancing head; compacted occasionally instead of shifting on every expiry. */
interface Log {
  times: number[];
  head: number;
}

export class SlidingWindowLimiter implements RateLimiter {
  readonly #logs = new Map<string, Log>();
  #calls = 0;

  constructor(private readonly clock: Clock) {}

  consume(key: string, policy: RatePolicy): RateDecision {
    const now = this.clock();
    const windowMs = policy.windowSeconds * 1000;
    if (++this.#calls % SWEEP_EVERY === 0) this.#sweep(now - windowMs);

    let log = this.#logs.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.#logs.set(key, log);
    }
    expire(log, now - windowMs);

    const count = log.times.length - log.head;
    if (count >= policy.quota) {
      const retry = ceilSeconds(log.times[log.head]! + windowMs - now);
      return { allowed: false, policy, remaining: 0, resetSeconds: retry, retryAfterSeconds: retry };
    }
    log.times.push(now);
    const oldest = log.times[log.head]!;
    return {
      allowed: true,
      policy,
      remaining: policy.quota - count - 1,
      resetSeconds: ceilSeconds(oldest + windowMs - now),
      retryAfterSeconds: 0,
    };
  }

  #sweep(cutoff: number): void {
    for (const [key, log] of this.#logs) {
      const newest = log.times[log.times.length - 1];
      if (newest === undefined || newest <= cutoff) this.#logs.delete(key);
    }
  }
}

/** Drops entries at or before `cutoff`: a request made exactly one window ago no longer counts. */
function expire(log: Log, cutoff: number): void {
  while (log.head < log.times.length && log.times[log.head]! <= cutoff) log.head += 1;
  if (log.head > 1024 && log.head * 2 > log.times.length) {
    log.times = log.times.slice(log.head);
    log.head = 0;
  }
}

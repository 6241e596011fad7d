/**
 * Sliding window, as a sliding LOG (exact, not the two-window approximation): each key keeps the times of
 * the requests it was allowed in the last window. A request is allowed while fewer than `quota` are logged.
 * Exactness is what makes Retry-After honest: it is the time until the oldest logged request leaves the window.
 * Memory is one number per allowed request in the window, bounded by the quota (or by traffic, for the load key).
 */
import { KeyedLimiter } from './keyed-limiter.ts';
import { ceilSeconds, type RateDecision, type RatePolicy } from './types.ts';

/** A queue of timestamps with an advancing head; compacted occasionally instead of shifting on every expiry. */
interface Log {
  times: number[];
  head: number;
}

export class SlidingWindowLimiter extends KeyedLimiter<Log> {
  protected decide(key: string, policy: RatePolicy, now: number): RateDecision {
    const windowMs = policy.windowSeconds * 1000;
    let log = this.states.get(key);
    if (!log) {
      log = { times: [], head: 0 };
      this.states.set(key, log);
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

  protected isIdle(log: Log, now: number, policy: RatePolicy): boolean {
    const newest = log.times[log.times.length - 1];
    return newest === undefined || newest <= now - policy.windowSeconds * 1000;
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

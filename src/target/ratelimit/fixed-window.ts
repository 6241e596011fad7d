/**
 * Fixed window: windows are aligned to multiples of the window length since the epoch, and each key counts
 * requests in the current window. Retry-After is the time to the next window boundary, which is exact.
 */
import { KeyedLimiter } from './keyed-limiter.ts';
import { ceilSeconds, type RateDecision, type RatePolicy } from './types.ts';

interface WindowState {
  start: number;
  count: number;
}

export class FixedWindowLimiter extends KeyedLimiter<WindowState> {
  protected decide(key: string, policy: RatePolicy, now: number): RateDecision {
    const windowMs = policy.windowSeconds * 1000;
    const start = windowStart(now, windowMs);
    let state = this.states.get(key);
    if (!state || state.start !== start) {
      state = { start, count: 0 };
      this.states.set(key, state);
    }
    const resetSeconds = ceilSeconds(start + windowMs - now);
    if (state.count >= policy.quota) {
      return { allowed: false, policy, remaining: 0, resetSeconds, retryAfterSeconds: resetSeconds };
    }
    state.count += 1;
    return { allowed: true, policy, remaining: policy.quota - state.count, resetSeconds, retryAfterSeconds: 0 };
  }

  protected isIdle(state: WindowState, now: number, policy: RatePolicy): boolean {
    return state.start < windowStart(now, policy.windowSeconds * 1000);
  }
}

function windowStart(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

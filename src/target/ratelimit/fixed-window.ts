/**
 * Fixed window: windows are aligned to multiples of the window length since the epoch, and each key counts
 * requests in the current window. Retry-After is the time to the next window boundary, which is exact.
 */
import { ceilSeconds, SWEEP_EVERY, type Clock, type RateDecision, type RateLimiter, type RatePolicy } from './types.ts';

interface WindowState {
  start: number;
  count: number;
}

export class FixedWindowLimiter implements RateLimiter {
  readonly #state = new Map<string, WindowState>();
  #calls = 0;

  constructor(private readonly clock: Clock) {}

  consume(key: string, policy: RatePolicy): RateDecision {
    const now = this.clock();
    const windowMs = policy.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    if (++this.#calls % SWEEP_EVERY === 0) this.#sweep(start);

    let state = this.#state.get(key);
    if (!state || state.start !== start) {
      state = { start, count: 0 };
      this.#state.set(key, state);
    }
    const resetSeconds = ceilSeconds(start + windowMs - now);
    if (state.count >= policy.quota) {
      return { allowed: false, policy, remaining: 0, resetSeconds, retryAfterSeconds: resetSeconds };
    }
    state.count += 1;
    return { allowed: true, policy, remaining: policy.quota - state.count, resetSeconds, retryAfterSeconds: 0 };
  }

  #sweep(currentStart: number): void {
    for (const [key, state] of this.#state) if (state.start < currentStart) this.#state.delete(key);
  }
}

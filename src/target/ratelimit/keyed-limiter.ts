/**
 * What the three algorithms share: per-key state in a map, an injected clock, and a sweep every SWEEP_EVERY
 * calls that forgets the keys whose state no longer changes a decision (per-address state must not grow forever).
 * Each algorithm says only how it decides and when a key's state is idle.
 */
import { SWEEP_EVERY, type Clock, type RateDecision, type RateLimiter, type RatePolicy } from './types.ts';

export abstract class KeyedLimiter<State> implements RateLimiter {
  protected readonly states = new Map<string, State>();
  #calls = 0;

  constructor(private readonly clock: Clock) {}

  consume(key: string, policy: RatePolicy): RateDecision {
    const now = this.clock();
    if (++this.#calls % SWEEP_EVERY === 0) {
      for (const [idleKey, state] of this.states) if (this.isIdle(state, now, policy)) this.states.delete(idleKey);
    }
    return this.decide(key, policy, now);
  }

  /** Counts the request when allowed (see RateLimiter.consume); `now` is the clock's time for this call. */
  protected abstract decide(key: string, policy: RatePolicy, now: number): RateDecision;

  /** True when forgetting this key's state changes no later decision. */
  protected abstract isIdle(state: State, now: number, policy: RatePolicy): boolean;
}

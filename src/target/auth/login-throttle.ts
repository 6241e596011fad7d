/**
 * Failed-login throttling per email (PROFILE.md: 5 failures within 60 s → 429). Failures are a sliding log,
 * so Retry-After is exactly when the oldest counted failure leaves the window. While throttled, attempts are
 * refused before the password is checked and are not counted: the throttle ends on time even under retries.
 */
import { ceilSeconds } from '../ratelimit/types.ts';

export type ThrottleCheck = { throttled: false } | { throttled: true; retryAfterSeconds: number };

export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();

  constructor(
    private readonly attempts: number,
    private readonly windowSeconds: number,
    private readonly now: () => number,
  ) {}

  check(email: string): ThrottleCheck {
    const recent = this.#recent(email);
    if (recent.length < this.attempts) return { throttled: false };
    const oldest = recent[recent.length - this.attempts]!;
    return { throttled: true, retryAfterSeconds: ceilSeconds(oldest + this.windowSeconds * 1000 - this.now()) };
  }

  recordFailure(email: string): void {
    this.#failures.set(email, [...this.#recent(email), this.now()]);
  }

  /** A successful login clears the email's failures. */
  reset(email: string): void {
    this.#failures.delete(email);
  }

  #recent(email: string): number[] {
    const cutoff = this.now() - this.windowSeconds * 1000;
    const recent = (this.#failures.get(email) ?? []).filter((t) => t > cutoff);
    if (recent.length === 0) this.#failures.delete(email);
    else this.#failures.set(email, recent);
    return recent;
  }
}

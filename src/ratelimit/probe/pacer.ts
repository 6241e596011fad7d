/**
 * A small bounded pacer for the probe: sends are spaced at least 1/maxRps apart, and it refuses a send that
 * would exceed the request budget or start after the time budget. Time comes from the injected clock, so a
 * virtual clock drives it in tests.
 */

export interface PacerOptions {
  maxRps: number;
  budgetRequests: number;
  budgetSeconds: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** SIGINT/SIGTERM: no send is granted after it (the probe ends with what it measured). */
  signal?: AbortSignal;
}

export interface Pacer {
  /** Clock value when the pacer was made. */
  readonly startedAt: number;
  /** Sends granted so far. */
  readonly sent: number;
  /** Smallest spacing between sends, in ms. */
  readonly intervalMs: number;
  /**
   * Waits until `at` (clock ms; default now) but never earlier than the pacing allows, then grants one send and
   * returns its time. Returns undefined, without waiting, when the send would break a budget.
   */
  slot(at?: number): Promise<number | undefined>;
  /** Would a send at `at` still fit the budgets? */
  fits(at: number): boolean;
  /** Why the last refused slot was refused. */
  readonly exhausted: 'request budget' | 'time budget' | 'interrupted' | undefined;
  /** How much later than due the last granted send went out (ms): the harness's own send lag, e.g. a stalled loop. */
  readonly lastLagMs: number;
}

export function createPacer(options: PacerOptions): Pacer {
  if (!(options.maxRps > 0)) throw new RangeError('maxRps must be > 0');
  const intervalMs = 1000 / options.maxRps;
  const startedAt = options.now();
  const deadline = startedAt + options.budgetSeconds * 1000;
  let sent = 0;
  let last = -Infinity;
  let exhausted: Pacer['exhausted'];
  let lastLagMs = 0;

  const earliest = (at: number) => Math.max(at, last + intervalMs);
  return {
    startedAt,
    intervalMs,
    get sent() {
      return sent;
    },
    get exhausted() {
      return exhausted;
    },
    get lastLagMs() {
      return lastLagMs;
    },
    fits(at) {
      return sent < options.budgetRequests && earliest(at) <= deadline;
    },
    async slot(at) {
      if (options.signal?.aborted) {
        exhausted = 'interrupted';
        return undefined;
      }
      if (sent >= options.budgetRequests) {
        exhausted = 'request budget';
        return undefined;
      }
      const when = earliest(at ?? options.now());
      if (when > deadline) {
        exhausted = 'time budget';
        return undefined;
      }
      const wait = when - options.now();
      if (wait > 0) await options.sleep(wait);
      if (options.signal?.aborted) {
        exhausted = 'interrupted';
        return undefined;
      }
      const now = options.now();
      if (now > deadline) {
        exhausted = 'time budget';
        return undefined;
      }
      sent += 1;
      lastLagMs = Math.max(0, now - when);
      last = Math.max(now, when);
      return now;
    },
  };
}

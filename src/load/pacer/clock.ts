/**
 * The pacer's view of time, injectable so unit tests run it on a fake clock. The real clock is
 * process.hrtime (monotonic, ns resolution; wall-clock steps do not move it). The real scheduler has three
 * ways to wait: a timer (Node timers have 1 ms resolution), setImmediate for "the next turn of the event
 * loop", which lets responses be processed in between, and a short blocking sleep (Atomics.wait) for a
 * sub-millisecond wait when nothing else of the pacer's can happen meanwhile.
 */
export interface Clock {
  /** Milliseconds, monotonic, fractional. */
  now(): number;
}

export interface Scheduler {
  /** Calls `fn` after about `ms` milliseconds. */
  after(ms: number, fn: () => void): void;
  /** Calls `fn` on the next turn of the event loop, after pending I/O. */
  soon(fn: () => void): void;
  /**
   * Blocks this thread for `ms` (under a millisecond), to the tens of microseconds. The pacer uses it only when
   * none of its requests is in flight, so no answer of its own waits behind it. Without it, the pacer spins.
   */
  sleep?(ms: number): void;
}

// Atomics.wait on a cell nobody notifies: a futex wait with a sub-millisecond timeout, the CPU free meanwhile.
const sleepCell = new Int32Array(new SharedArrayBuffer(4));
const SLACK_MS = 0.1;

export const hrClock: Clock = {
  now: () => Number(process.hrtime.bigint()) / 1e6,
};

export const realScheduler: Scheduler = {
  after: (ms, fn) => {
    setTimeout(fn, ms);
  },
  soon: (fn) => {
    setImmediate(fn);
  },
  sleep: (ms) => {
    // The kernel wakes a sleeper up to its timer slack (50 µs by default) late, and the wake itself costs some
    // tens of microseconds: sleep until SLACK_MS before the time, then watch the clock for the rest.
    const until = hrClock.now() + ms;
    if (ms > SLACK_MS) Atomics.wait(sleepCell, 0, 0, ms - SLACK_MS);
    while (hrClock.now() < until);
  },
};

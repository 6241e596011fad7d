/**
 * The pacer's view of time, injectable so unit tests run it on a fake clock. The real clock is
 * process.hrtime (monotonic, ns resolution; wall-clock steps do not move it). The real scheduler has three
 * ways to wait: a timer (Node timers have 1 ms resolution), setImmediate for "the next turn of the event
 * loop", which lets responses be processed in between, and a short blocking sleep (Atomics.wait) for a
 * sub-millisecond wait (pacer.ts says when it sleeps and for how long).
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
   * Blocks this thread for about `ms` (under a millisecond; it may wake some tens of µs late, never early). The
   * pacer uses it for the whole wait when none of its requests is in flight, and in slices of at most
   * PacerOptions.sliceMs when some are. Without it, the pacer spins.
   */
  sleep?(ms: number): void;
}

// Atomics.wait on a cell nobody notifies: a futex wait with a sub-millisecond timeout, the CPU free meanwhile.
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

// Read once: the global `process` is an accessor, which V8 cannot fold into optimised code, so every
// `process.hrtime…` in the load path's hot code would call it (as would `performance` and `Buffer`: the h1 sender
// imports them from their modules). The pacer and the engines read the clock several times per request.
const hrtimeBigint = process.hrtime.bigint;

export const hrClock: Clock = {
  now: () => Number(hrtimeBigint()) / 1e6,
};

export const realScheduler: Scheduler = {
  after: (ms, fn) => {
    setTimeout(fn, ms);
  },
  soon: (fn) => {
    setImmediate(fn);
  },
  sleep: (ms) => {
    // The kernel wakes a sleeper up to its timer slack late. Watching the clock for the last stretch instead would
    // spin at every arrival: the lag is reported per start (recordStart), the CPU is not spent.
    if (ms > 0) Atomics.wait(sleepCell, 0, 0, ms);
  },
};

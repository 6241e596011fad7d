/**
 * The pacer's view of time, injectable so unit tests run it on a fake clock. The real clock is
 * process.hrtime (monotonic, ns resolution; wall-clock steps do not move it). The real scheduler has two
 * ways to wait: a timer for waits of a millisecond or more (Node timers have 1 ms resolution) and
 * setImmediate for "the next turn of the event loop", which lets responses be processed in between.
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
}

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
};

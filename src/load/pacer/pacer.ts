/**
 * The open-model pacer: starts each arrival of an ArrivalSchedule at its intended time on a bounded set of
 * slots (VUs, one connection each), and never delays one silently.
 *
 * How it stays accurate without holding a core: there is no timer per request. Each turn of the loop reads the
 * monotonic clock once and starts, in one batch, every arrival whose intended time has passed; then it waits for
 * the next one:
 *   - more than a millisecond away: a timer to a millisecond before it (Node's timers have 1 ms resolution and
 *     may fire up to a millisecond late), then one of the two below;
 *   - closer, with nothing in flight: a blocking sleep until it is due (Scheduler.sleep, Atomics.wait: a futex
 *     wait, the core free meanwhile): no answer of ours can come in between;
 *   - closer, with requests in flight: a blocking sleep of at most `sliceMs` (0.2 ms), then a turn of the event
 *     loop, in which the answers that came meanwhile are read, then the next slice. libuv waits for I/O with a
 *     millisecond timeout, so nothing else can both read answers and wake in time; a slice bounds how late an
 *     answer is read (by `sliceMs` plus the kernel's wake-up slack) at little CPU per slice.
 * Wakes that start arrivals are at least `batchMs` (0.2 ms) apart: above 5k req/s arrivals start in batches,
 * each late by less than 0.2 ms (counted in its latency, as every lag is), which halves the sleeps and loop turns
 * per request at 10k req/s (docs/performance.md); at 5k req/s and below each arrival still has its own wake.
 * wrk2 batches the same way on its millisecond timers. A spin (setImmediate turn after turn) would start arrivals
 * sooner but hold a whole core whenever a request is in flight (docs/decisions/2026-11-26-pacer-sleeps-in-slices.md:
 * what was measured, and what else was tried).
 *
 * What a late start means: each arrival keeps its intended time, and the engine measures latency from it
 * (wrk2's correction for coordinated omission), so a stall in the target, the network or this process shows
 * up in the percentiles instead of silently stretching the schedule. An arrival that finds every slot busy is
 * not queued: it is counted as dropped (k6's dropped_iterations) and the schedule moves on.
 */
import type { ArrivalSchedule } from './arrival-schedule.ts';
import type { Clock, Scheduler } from './clock.ts';

/** With requests in flight, how long the pacer blocks at most before it reads their answers. */
export const DEFAULT_SLICE_MS = 0.2;
/** Wakes that start arrivals are at least this far apart (arrivals closer than that start together). */
export const DEFAULT_BATCH_MS = 0.2;

export interface PacerOptions {
  schedule: ArrivalSchedule;
  /** Most arrivals in progress at once (maxVUs). */
  slots: number;
  clock: Clock;
  scheduler: Scheduler;
  /** Starts one arrival (`lagMs` after its intended time); `done` must be called once when it has finished. */
  start(intendedMs: number, done: () => void, lagMs: number): void;
  /** An arrival that found every slot busy. */
  dropped(intendedMs: number): void;
  /** Stops starting arrivals (abortOnFail, Ctrl-C). */
  signal?: AbortSignal;
  /** Arrivals due within this many ms are waited for with `sleep` (or `soon`) rather than a timer. @default 1 */
  spinMs?: number;
  /** With requests in flight, the longest blocking sleep before a turn of the event loop reads their answers. @default 0.2 */
  sliceMs?: number;
  /**
   * The shortest time between two wakes that start arrivals: an arrival due sooner than this after the last batch
   * waits for the next one (late by less than this, its lag counted in its latency). @default 0.2
   */
  batchMs?: number;
  /** Clock reading the schedule starts from (may lie ahead: workers share one t0). @default now */
  t0?: number;
}

export interface PacerStats {
  /** Arrivals whose time came (started + dropped). */
  due: number;
  started: number;
  dropped: number;
  /** How late starts were against their intended times, in ms: the largest and the mean. */
  maxLagMs: number;
  meanLagMs: number;
  /** Clock reading at the start; intended times are relative to it. */
  t0: number;
  /** True when stopped by the signal before the schedule ended. */
  aborted: boolean;
}

export interface RunningPacer {
  /** Clock reading at the start. */
  readonly t0: number;
  /** Arrivals in progress now. */
  inFlight(): number;
  /** Resolves when the schedule has ended (or was aborted); arrivals may still be in progress. */
  readonly finished: Promise<PacerStats>;
  /** Resolves once no arrival is in progress (call after `finished`). */
  drained(): Promise<void>;
  /** Index of the next arrival to start (or drop). */
  nextIndex(): number;
  /** Reads the next arrival's time again: call after the schedule changed what lies ahead (LeadSchedule.begin). */
  refresh(): void;
}

export function startPacer(options: PacerOptions): RunningPacer {
  const { schedule, clock, scheduler, signal } = options;
  const spinMs = options.spinMs ?? 1;
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
  const t0 = options.t0 ?? clock.now();
  let free = options.slots;
  let n = 0;
  let next = schedule.timeOf(0);
  let started = 0;
  let dropped = 0;
  let lagSum = 0;
  let maxLag = 0;
  let ended = false;
  // The time the last batch of starts was aimed at: the next batch is aimed no sooner than batchMs after it.
  let batchAt = -Infinity;
  let aimedAt = -Infinity;
  let resolveFinished!: (stats: PacerStats) => void;
  const finished = new Promise<PacerStats>((resolve) => (resolveFinished = resolve));
  const drainWaiters: Array<() => void> = [];

  // At most one pending setImmediate wake, and no second timer for a time an armed one already covers.
  let soonArmed = false;
  let timerDue: number | undefined;
  const wakeSoon = (): void => {
    if (soonArmed || ended) return;
    soonArmed = true;
    scheduler.soon(() => {
      soonArmed = false;
      tick();
    });
  };
  const wakeAt = (due: number): void => {
    if (timerDue !== undefined && timerDue <= due) return;
    timerDue = due;
    scheduler.after(due - (clock.now() - t0), () => {
      if (timerDue === due) timerDue = undefined;
      tick();
    });
  };

  const release = (): void => {
    free++;
    if (free === options.slots) for (const wake of drainWaiters.splice(0)) wake();
  };

  const finish = (aborted: boolean): void => {
    if (ended) return;
    ended = true;
    resolveFinished({ due: started + dropped, started, dropped, maxLagMs: maxLag, meanLagMs: started ? lagSum / started : 0, t0, aborted });
  };

  const tick = (): void => {
    // One sleep per turn at most: if arrivals finish as soon as they start (a send that fails at once), the loop
    // still comes back to the event loop between them, for signals, timers and progress.
    let slept = false;
    for (;;) {
      if (ended) return;
      if (signal?.aborted) return finish(true);
      const now = clock.now() - t0;
      if (next !== undefined && next <= now) batchAt = Math.min(aimedAt, now);
      while (next !== undefined && next <= now) {
        if (free > 0) {
          free--;
          started++;
          const lag = now - next;
          lagSum += lag;
          if (lag > maxLag) maxLag = lag;
          let once = false;
          options.start(
            next,
            () => {
              if (once) return;
              once = true;
              release();
            },
            lag,
          );
        } else {
          dropped++;
          options.dropped(next);
        }
        next = schedule.timeOf(++n);
      }
      const target = next === undefined ? schedule.durationMs : Math.max(next, batchAt + batchMs);
      aimedAt = target;
      const wait = target - (clock.now() - t0);
      if (next === undefined && wait <= 0) return finish(false);
      if (wait > spinMs) return wakeAt(target - spinMs);
      if (!scheduler.sleep || slept) return wakeSoon();
      // Nothing of ours in flight, so nothing to read meanwhile: sleep until the arrival is due. With answers to
      // come, a slice at most: the next turn of the loop reads them, then sleeps again.
      scheduler.sleep(free < options.slots ? Math.min(wait, sliceMs) : wait);
      slept = true;
    }
  };

  signal?.addEventListener('abort', wakeSoon, { once: true });
  // The first turn runs after startPacer returns, so callers hold the RunningPacer (and t0) before any start.
  wakeSoon();
  return {
    t0,
    inFlight: () => options.slots - free,
    finished,
    drained: () => (free === options.slots ? Promise.resolve() : new Promise<void>((resolve) => drainWaiters.push(resolve))),
    nextIndex: () => n,
    refresh: () => {
      next = schedule.timeOf(n);
      // The next arrival may now be due sooner than the timer armed for the old one.
      wakeSoon();
    },
  };
}

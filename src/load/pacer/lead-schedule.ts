/**
 * An open-model run's schedule with its warm-up in front: one stream of arrivals for one pacer, so the run's
 * first arrival is started by the same loop, the same closures and the same optimised code as the warm-up's
 * last one. (Two pacers, one for the warm-up and one for the run, measured worse: the run's pacer is a new set of
 * closures with new object shapes, so at t0 V8 threw away the warm-up's optimised code and compiled it again, on
 * the generator's core, during the run's first second — bench/load-engine "warm start", README "Performance".)
 *
 * Lead arrivals come evenly at `rate` per second from the schedule's start until the run begins; the run begins
 * when `begin(atMs)` is called (at once when the warm-up's length is known in advance, or when workers are told
 * their common t0), and from then on arrival n is the run's arrival n − leadCount, at atMs + its own time.
 */
import type { ArrivalSchedule } from './arrival-schedule.ts';

export interface LeadSchedule extends ArrivalSchedule {
  /**
   * The run begins `atMs` after the schedule's start: lead arrivals stop before it. `fromIndex` (the pacer's next
   * arrival) keeps arrivals already started as lead ones when atMs has already passed. Once only.
   */
  begin(atMs: number, fromIndex: number): void;
  /** ms after the schedule's start at which the run begins; undefined until `begin`. */
  readonly runStartMs: number | undefined;
  /** Lead arrivals before the run (the first run arrival's index); undefined until `begin`. */
  readonly leadCount: number | undefined;
}

export function withLead(rate: number, run: ArrivalSchedule): LeadSchedule {
  const spacingMs = rate > 0 ? 1000 / rate : Infinity;
  let runStartMs: number | undefined;
  let leadCount: number | undefined;
  return {
    get runStartMs() {
      return runStartMs;
    },
    get leadCount() {
      return leadCount;
    },
    // Before `begin` the end is not known: the pacer asks for it only once no arrival is left, which cannot happen
    // while lead arrivals keep coming.
    get durationMs() {
      return runStartMs === undefined ? Infinity : runStartMs + run.durationMs;
    },
    get total() {
      return leadCount === undefined ? Infinity : leadCount + run.total;
    },
    begin(atMs: number, fromIndex: number) {
      if (runStartMs !== undefined) throw new Error('the run has already begun');
      runStartMs = Math.max(0, atMs);
      // Lead arrival k is due at k·spacing: those due before the run are the lead.
      const due = rate > 0 ? Math.ceil(runStartMs / spacingMs - 1e-9) : 0;
      leadCount = Math.max(due, fromIndex);
    },
    timeOf(n: number): number | undefined {
      if (n < 0) return undefined;
      if (leadCount === undefined || runStartMs === undefined) return rate > 0 ? n * spacingMs : undefined;
      if (n < leadCount) return n * spacingMs;
      const t = run.timeOf(n - leadCount);
      return t === undefined ? undefined : runStartMs + t;
    },
  };
}

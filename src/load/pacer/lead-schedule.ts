/**
 * An open-model run's schedule with its warm-up in front: one stream of arrivals for one pacer, so the run's
 * first arrival is started by the same loop, the same closures and the same optimised code as the warm-up's
 * last one. (Two pacers, one for the warm-up and one for the run, measured worse: the run's pacer is a new set of
 * closures with new object shapes, so at t0 V8 threw away the warm-up's optimised code and compiled it again, on
 * the generator's core, during the run's first second — `--trace-deopt`, docs/performance.md "warm start".)
 *
 * The lead replays the run's own first PERIOD_MS of arrivals, period after period, until the run begins: at a
 * constant rate that is the run's spacing exactly (period P holds m arrivals and the next one starts where the
 * (m+1)-th would be), on a ramp the ramp's start. The run begins when `begin(atMs)` is called (at once when the
 * warm-up's length is known in advance, or when workers are told their common t0); from then on arrival n is the
 * run's arrival n − leadCount, at atMs + its own time. Lead and run times come from the same expression, through
 * the run's own timeOf, so nothing in it is first executed at t0 (an untaken branch there also made V8 recompile).
 */
import type { ArrivalSchedule } from './arrival-schedule.ts';

/** The length of the run's start that the lead replays. */
const PERIOD_MS = 100;

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
  /** The lead's arrivals per second (0: none, the run's schedule only). */
  readonly leadRate: number;
}

/** `lead: false` for a schedule that is the run's alone (call `begin(0, 0)` before use). */
export function withLead(run: ArrivalSchedule, lead = true): LeadSchedule {
  // m arrivals in the run's first PERIOD_MS (at least its first one), replayed every periodMs.
  let m = 0;
  while (m < run.total && (run.timeOf(m) as number) < PERIOD_MS) m++;
  m = Math.max(1, Math.min(m, run.total));
  const periodMs = run.timeOf(m) ?? run.durationMs;
  const replay = lead && run.total > 0 && periodMs > 0;
  let runStartMs = Infinity;
  let leadCount = replay ? Infinity : 0;
  return {
    get runStartMs() {
      return runStartMs === Infinity ? undefined : runStartMs;
    },
    get leadCount() {
      return leadCount === Infinity ? undefined : leadCount;
    },
    leadRate: replay ? (m / periodMs) * 1000 : 0,
    // Before `begin` the end is not known: the pacer asks for it only once no arrival is left, which cannot happen
    // while lead arrivals keep coming.
    get durationMs() {
      return runStartMs + run.durationMs;
    },
    get total() {
      return leadCount + run.total;
    },
    begin(atMs: number, fromIndex: number) {
      if (runStartMs !== Infinity) throw new Error('the run has already begun');
      runStartMs = Math.max(0, atMs);
      if (!replay) return;
      // Lead arrivals due before the run: whole periods, then those of the last period that fall before it.
      const periods = Math.floor(runStartMs / periodMs);
      let due = periods * m;
      while (due < (periods + 1) * m && periods * periodMs + (run.timeOf(due - periods * m) as number) < runStartMs) due++;
      leadCount = Math.max(due, fromIndex);
    },
    timeOf(n: number): number | undefined {
      if (n < 0) return undefined;
      const inLead = n < leadCount;
      const first = inLead ? Math.floor(n / m) * m : leadCount;
      const t = run.timeOf(n - first);
      if (t === undefined) return undefined;
      return (inLead ? (first / m) * periodMs : runStartMs) + t;
    },
  };
}

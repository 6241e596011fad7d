/**
 * An executor is one value of a scenario's `executor:` (k6's lib/executor shape): its defaults, a `validate`
 * that collects every problem, `describe` for people, and the load profile the engines run.
 * `validate` returns messages of the form `path: text` (`stages[1].target: must be …`), so the scenario
 * loader can point at the line of `path` in the file.
 */
import type { ExecutorName, ExecutorOptions, Scenario } from '../scenario/types.ts';

/** A linear segment of a profile: VUs (closed model) or arrivals per second (open model). */
export interface Segment {
  durationMs: number;
  from: number;
  to: number;
}

export interface ExecutorBase {
  name: ExecutorName;
  /** Option keys this executor reads; any other executor option in the file is an error. */
  options: ReadonlyArray<keyof ExecutorOptions>;
  /** Options that must be given (after defaults). */
  required: ReadonlyArray<keyof ExecutorOptions>;
  defaults: Readonly<Partial<ExecutorOptions>>;
  validate(cfg: Scenario): string[];
  describe(cfg: Scenario): string;
  /** How long the load phase lasts (before gracefulStop), in ms. */
  plannedDurationMs(cfg: Scenario): number;
}

/** Closed model: VUs loop request → answer → next request (one connection each: engine/closed-model.ts). */
export interface ClosedExecutor extends ExecutorBase {
  model: 'closed';
  /** VU profile; per-vu-iterations gives one constant segment of `maxDuration`. */
  vuSegments(cfg: Scenario): Segment[];
  /** per-vu-iterations: requests per VU. */
  iterationsPerVu?(cfg: Scenario): number;
}

/** Open model: arrivals at a rate, whatever the answers do (our pacer + undici). */
export interface OpenExecutor extends ExecutorBase {
  model: 'open';
  /** Arrival rate per second over time. */
  rateSegments(cfg: Scenario): Segment[];
  /** Most requests in flight (maxVUs). */
  maxInFlight(cfg: Scenario): number;
}

export type Executor = ClosedExecutor | OpenExecutor;

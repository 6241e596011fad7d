/** What an engine needs to run a scenario, and what it hands back. */
import type { Recorder } from '../metrics/recorder.ts';
import type { Clock, Scheduler } from '../pacer/clock.ts';
import type { RequestMix } from '../request-mix.ts';
import type { WarmUp } from '../result.ts';
import type { Scenario } from '../scenario/types.ts';
import type { TemplateState } from '../template.ts';
import type { Slice } from './segments.ts';
import type { FlowRunner } from '../flow/flow-runner.ts';

export interface EngineInput {
  scenario: Scenario;
  baseUrl: string;
  mix: RequestMix;
  recorder: Recorder;
  templateState: TemplateState;
  /** Stops the load early (abortOnFail, Ctrl-C); what was measured is kept. */
  signal: AbortSignal;
  clock?: Clock;
  scheduler?: Scheduler;
  /** This engine's share of the scenario when several workers run it. @default the whole of it */
  slice?: Slice;
  /**
   * How many load workers share each core this process may run on (workers/pool.ts). The open model's pacer
   * wakes on a core's timer, so each worker's wakes are spaced this many times wider (PacerOptions.batchMs and
   * sliceMs): together they wake as often as one worker alone. @default 1
   */
  coreShare?: number;
  /**
   * Called after the warm-up, before any measured request: resolves to the clock reading at which the load
   * starts (workers wait for a common t0), or undefined for "now". @default now
   */
  ready?(warmUp: WarmUp | undefined): Promise<number | undefined>;
  /** A flow scenario: each arrival runs one iteration of it (src/load/flow/) instead of one request of `mix`. */
  flow?: FlowRunner;
  /** Called with the clock reading at which the load started (ms on `clock`), once. */
  onStart?(t0: number): void;
}

export interface EngineOutcome {
  /** Load phase plus the graceful stop, in ms. */
  elapsedMs: number;
  /** Notes for the user (requests cut off at the graceful stop, skipped warm-up). */
  notes: string[];
  warmUp?: WarmUp;
}

/** Timeouts are recorded in latency (recorder.recordError's latencyMs): undici's codes, which the h1 sender uses too. */
export function isTimeout(code: string): boolean {
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** Whether the scenario warms up with its own requests (not for rate-limit scenarios: it would spend the quota they measure). */
export function warmUpPlan(scenario: Scenario): { send: boolean; skipped?: string } {
  if (scenario.warmUp === false) return { send: false, skipped: 'turned off (warmUp: false)' };
  if (scenario.rateLimit) return { send: false, skipped: 'rate-limit scenario: warm-up requests would spend the quota it measures' };
  return { send: true };
}

/** The WarmUp reported when none was sent (`plan.skipped` says why, when it was skipped rather than empty). */
export function unsentWarmUp(plan: { skipped?: string }): WarmUp {
  return { durationMs: 0, requests: 0, errors: 0, connections: 0, ...(plan.skipped ? { skipped: plan.skipped } : {}) };
}

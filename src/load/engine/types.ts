/** What an engine needs to run a scenario, and what it hands back. */
import type { Recorder } from '../metrics/recorder.ts';
import type { Clock, Scheduler } from '../pacer/clock.ts';
import type { RequestMix } from '../request-mix.ts';
import type { Scenario } from '../scenario/types.ts';
import type { TemplateState } from '../template.ts';

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
  /** Called with the clock reading at which the load started (ms on `clock`), once. */
  onStart?(t0: number): void;
}

export interface EngineOutcome {
  /** Load phase plus the graceful stop, in ms. */
  elapsedMs: number;
  /** Notes for the user (generator lag, requests cut off at the graceful stop). */
  notes: string[];
}

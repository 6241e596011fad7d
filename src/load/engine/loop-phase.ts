/**
 * The closed model's VU loops as the warm-up sees them: where answers go and how many VUs run. Its own file so the
 * warm-up drives the run's loops (closed-model.ts VuLoops) without importing the model that calls it.
 */
import type { Recorder } from '../metrics/recorder.ts';

/** Where a VU's answers go: the run's recorder from t0, or the warm-up's scratch one. */
export interface LoopPhase {
  recorder: Recorder;
  /** Clock reading that answers' times are relative to. */
  base: number;
  timeoutMs: number;
  /** Called after each answer is recorded, with whether it failed (the warm-up stops on the first failure). */
  answered(failed: boolean): void;
}

/** The part of VuLoops the warm-up drives: switch where answers go, set how many VUs run, wait until none does. */
export interface PhasedLoops {
  phase: LoopPhase;
  want(n: number): void;
  idle(): Promise<void>;
}

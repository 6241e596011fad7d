/**
 * What the engines need of a compiled flow: run one iteration on a dispatcher into a recorder. Its own file so the
 * engines' input type names it without importing the iteration's code (which reads the engines' outcome type).
 */
import type { Dispatcher } from 'undici';
import type { Recorder } from '../metrics/recorder.ts';
import type { PreparedFlow } from './prepare.ts';

export interface FlowRunner {
  flow: PreparedFlow;
  /** Answers (and transport errors) recorded so far, warm-up and run together: the warm-up's share is this less the run's. */
  readonly answered: number;
  /**
   * Runs one iteration on `dispatcher`, recording into `recorder`. `intended` is the iteration's intended start
   * in ms after `base` (a clock reading); `done(failed)` is called once, when the iteration ends.
   */
  iterate(dispatcher: Dispatcher, recorder: Recorder, base: number, intended: number, timeoutMs: number, done: (failed: boolean) => void, signal?: AbortSignal): void;
}

/**
 * The generator's event-loop delay, per second, into the recorder (per worker: each worker thread has its own
 * loop). A 10 ms timer notes how late each of its ticks ran; a tick due at d that runs at d + x means the loop
 * could neither read answers nor start arrivals for x ms, and x is filed under the second in which the stall
 * began (d). This is what perf_hooks.monitorEventLoopDelay measures too (a repeating libuv timer), but that one
 * only yields a histogram read once a second, which files a stall near a boundary under the wrong second and, in
 * our runs, sometimes missed a 300 ms stall altogether; timing the ticks ourselves costs 100 callbacks a second.
 */
import type { Recorder } from '../metrics/recorder.ts';
import type { Clock } from '../pacer/clock.ts';

/** The probe's period: a stall that begins after a tick shows as up to this much shorter than it was. */
export const TICK_MS = 10;

export interface GeneratorProbe {
  /** Notes the delay up to now and stops. */
  stop(): void;
}

export function startGeneratorProbe(recorder: Recorder, clock: Clock, t0: number): GeneratorProbe {
  let due = Math.max(clock.now(), t0) + TICK_MS;
  const check = (): void => {
    const now = clock.now();
    const late = now - due;
    // Under a millisecond is timer jitter, not a stall; before t0 (the open model's lead) is the warm-up's.
    if (late >= 1 && due >= t0) recorder.recordLoopDelay(due - t0, late);
    due = now + TICK_MS;
  };
  const timer = setInterval(check, TICK_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      // Only a stall already under way counts: the time to the next, never-run tick is not a delay.
      if (clock.now() > due) check();
    },
  };
}

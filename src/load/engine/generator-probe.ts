/**
 * The generator's event-loop delay, once a second, into the recorder (per worker: each worker thread has its
 * own loop). perf_hooks.monitorEventLoopDelay samples with a 10 ms timer in libuv; its max over a second is how
 * long the loop was unable to read answers or start arrivals. Cheap (one timer), so it always runs.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Recorder } from '../metrics/recorder.ts';
import type { Clock } from '../pacer/clock.ts';

export interface GeneratorProbe {
  /** Records the delay since the last sample and stops. */
  stop(): void;
}

export function startGeneratorProbe(recorder: Recorder, clock: Clock, t0: number): GeneratorProbe {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const sample = (): void => {
    const at = clock.now() - t0;
    // The sample covers the second that just ended: file it under that second (at − 1 ms).
    if (histogram.count > 0) recorder.recordLoopDelay(Math.max(0, at - 1), histogram.max / 1e6);
    histogram.reset();
  };
  const timer = setInterval(sample, 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      histogram.disable();
    },
  };
}

/**
 * Was the load generator itself the bottleneck? Read from the per-second generator figures the recorder keeps
 * (merged across workers): the event-loop delay (perf_hooks.monitorEventLoopDelay, src/load/engine/
 * generator-probe.ts) and, in the open model, how many arrivals started late against their intended time.
 *
 * The bounds: a 50 ms event-loop stall delays every answer being read at that moment by up to 50 ms, which is
 * ten times a fast target's p99; more than 1 % of arrivals starting over 10 ms late moves a p99 by at least
 * that much. A second past either bound makes the whole run "generator-bound": its latencies then include the
 * generator's own delay (they are still measured from intended send times, so they are not hidden), and its
 * throughput may be the generator's, not the target's.
 */
import type { GeneratorBound } from '../result.ts';
import { LATE_START_MS, type SecondStats } from './recorder.ts';

export const GENERATOR_BOUNDS = { loopDelayMs: 50, lateStartMs: LATE_START_MS, lateShare: 0.01 } as const;

export function generatorBound(timeline: readonly Pick<SecondStats, 'starts' | 'lateStarts' | 'loopDelayMs'>[]): GeneratorBound | undefined {
  const seconds: number[] = [];
  let worstLoopDelayMs = 0;
  let worstLateShare = 0;
  timeline.forEach((s, t) => {
    const lateShare = s.starts > 0 ? s.lateStarts / s.starts : 0;
    worstLoopDelayMs = Math.max(worstLoopDelayMs, s.loopDelayMs);
    worstLateShare = Math.max(worstLateShare, lateShare);
    if (s.loopDelayMs > GENERATOR_BOUNDS.loopDelayMs || lateShare > GENERATOR_BOUNDS.lateShare) seconds.push(t);
  });
  if (seconds.length === 0) return undefined;
  const round = (n: number, d: number): number => Math.round(n * 10 ** d) / 10 ** d;
  const loop = round(worstLoopDelayMs, 1);
  const late = round(worstLateShare, 4);
  return {
    seconds,
    worstLoopDelayMs: loop,
    worstLateShare: late,
    bounds: { ...GENERATOR_BOUNDS },
    message: `generator-bound in ${seconds.length} second(s) (from t=${seconds[0]} s): event-loop delay up to ${loop} ms (bound ${GENERATOR_BOUNDS.loopDelayMs} ms), up to ${(late * 100).toFixed(2)} % of a second's arrivals started over ${GENERATOR_BOUNDS.lateStartMs} ms late (bound ${GENERATOR_BOUNDS.lateShare * 100} %); latencies there include the generator's own delay (more --workers, free cores, or a target on another machine)`,
  };
}

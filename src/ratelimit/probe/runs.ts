/**
 * A probe trace cut into admission runs. The first burst (every primary request before the first 429) is
 * run 0. After the first 429, a run is a stretch of admitted requests that no RUN_BREAK consecutive 429s
 * interrupt: an isolated 429 from pacing jitter does not split a run, the long 429 stretches of a recovery
 * watch do. A run keeps its own send times, so a deliberate pause inside it is visible.
 */
import type { Sample } from './types.ts';

/** Consecutive 429s that end a run. */
export const RUN_BREAK = 3;

export interface Run {
  /** Send time (ms since the probe started) of the run's first admitted request. */
  start: number;
  /** Send time of its last admitted request. */
  end: number;
  /** Admitted requests in the run. */
  size: number;
  /** Send times of the admitted requests. */
  times: number[];
  /** Send times of every primary request of the run, admitted or not, up to its last admitted one. */
  sendTimes: number[];
  /** True when RUN_BREAK 429s followed: the run is over, not cut off by the end of the probe. */
  closed: boolean;
}

export interface TraceRuns {
  /** The first burst: admitted requests before the first 429 (size 0 when the very first one was throttled). */
  first: { start: number; size: number };
  /** Send time of the first 429; undefined when none came. */
  first429?: number;
  /** Runs after the first 429, in order. */
  recovery: Run[];
}

/** The primary credential's samples in time order; the final silent-wait request only when asked for. */
export function primarySamples(samples: readonly Sample[], withSilentWait = false): Sample[] {
  return samples.filter((s) => s.credential === 'primary' && (withSilentWait || s.phase !== 'silent-wait')).sort((a, b) => a.t - b.t);
}

export function cutRuns(samples: readonly Sample[]): TraceRuns {
  const primary = primarySamples(samples);
  const firstThrottled = primary.findIndex((s) => !s.admitted);
  const before = firstThrottled === -1 ? primary : primary.slice(0, firstThrottled);
  const first = { start: primary[0]?.t ?? 0, size: before.length };
  if (firstThrottled === -1) return { first, recovery: [] };

  const recovery: Run[] = [];
  let current: Run | undefined;
  let pending: number[] = []; // send times of 429s since the current run's last admission
  for (const sample of primary.slice(firstThrottled + 1)) {
    if (sample.admitted) {
      if (current) {
        current.sendTimes.push(...pending, sample.t);
        current.times.push(sample.t);
        current.size += 1;
        current.end = sample.t;
      } else {
        current = { start: sample.t, end: sample.t, size: 1, times: [sample.t], sendTimes: [sample.t], closed: false };
        recovery.push(current);
      }
      pending = [];
    } else {
      pending.push(sample.t);
      if (current && pending.length >= RUN_BREAK) {
        current.closed = true;
        current = undefined;
      }
    }
  }
  return { first, first429: primary[firstThrottled]!.t, recovery };
}

/**
 * The longest pause between consecutive sends inside a run, when it stands out (more than five times the
 * run's median spacing and at least `minMs`): how many admissions came before it, and how long it was.
 */
export function pauseIn(run: Run, minMs: number): { before: number; ms: number } | undefined {
  if (run.sendTimes.length < 3) return undefined;
  const gaps = run.sendTimes.slice(1).map((t, i) => t - run.sendTimes[i]!);
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  let at = 0;
  for (let i = 1; i < gaps.length; i++) if (gaps[i]! > gaps[at]!) at = i;
  const ms = gaps[at]!;
  if (ms < minMs || ms <= 5 * median) return undefined;
  const pauseEndsAt = run.sendTimes[at + 1]!;
  return { before: run.times.filter((t) => t < pauseEndsAt).length, ms };
}

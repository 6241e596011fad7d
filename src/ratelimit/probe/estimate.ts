/**
 * From an admission trace to a policy: quota, window, and the algorithm's shape. Only observed behaviour
 * counts here; header claims are compared with the result elsewhere (claims.ts).
 *
 * The probe bursts until the first 429 (B1 admitted), watches for recovery, and sends a run at full pace each
 * time requests are admitted again. Its first recovery run pauses once after about a third of the quota.
 * - Token bucket: recovery runs are small (a token at a time) and admissions grow linearly; the refill rate is
 *   the slope of admissions over time, and the burst is B1 minus what refilled during the first burst.
 * - Fixed window: the quota comes back all at once at each window boundary: the second recovery run is as
 *   large as the first, one window after it.
 * - Sliding window (log): capacity comes back as old requests age out, so the second recovery run replays the
 *   first one's shape one window later: it stops where the first one paused, and resumes a pause later.
 */
import { cutRuns, pauseIn, type Run } from './runs.ts';
import type { Estimate, Sample } from './types.ts';

/** Admissions after the first 429 that a refill-rate estimate needs. */
export const TOKEN_ADMISSIONS = 10;
/** A recovery run at most this share of the first burst is "a token at a time". */
const SMALL_SHARE = 0.4;
/** A second run at least this share of the first means the quota came back at once (fixed window). */
const SAME_SHARE = 0.8;

export interface EstimateOptions {
  /** Smallest pause inside a run that counts as the probe's deliberate pause (ms). @default 0 */
  minPauseMs?: number;
}

export function estimate(samples: readonly Sample[], options: EstimateOptions = {}): Estimate {
  const runs = cutRuns(samples);
  const b1 = runs.first.size;
  const reasons: string[] = [];
  const base = { firstBurst: b1, reasons };
  if (runs.first429 === undefined) {
    reasons.push(`no request was answered 429 (${b1} admitted)`);
    return { ...base, limited: false, algorithm: 'unknown', complete: true };
  }
  reasons.push(`${b1} request(s) admitted before the first 429`);
  const recovery = runs.recovery;
  if (recovery.length === 0) {
    reasons.push('no request was admitted again before the probe stopped: window and algorithm unknown');
    return { ...base, limited: true, algorithm: 'unknown', ...(b1 > 0 ? { quota: b1 } : {}), complete: false };
  }
  const small = (n: number) => b1 >= 2 && n <= Math.max(1, Math.floor(b1 * SMALL_SHARE));
  if (small(recovery[0]!.size) && !recovery.some((run) => run.closed && run.size >= SAME_SHARE * b1)) {
    return tokenBucket(b1, runs.first429, runs.first.start, recovery, reasons);
  }
  return windowed(b1, runs.first.start, recovery, reasons, options.minPauseMs ?? 0);
}

function tokenBucket(b1: number, first429: number, firstStart: number, recovery: Run[], reasons: string[]): Estimate {
  const times = recovery.flatMap((run) => run.times);
  const largest = Math.max(...recovery.map((run) => run.size));
  reasons.push(`after it, requests were admitted a few at a time (runs of at most ${largest}): a refilling bucket`);
  if (times.length < 3) {
    return { firstBurst: b1, reasons, limited: true, algorithm: 'token-bucket', quota: b1, complete: false };
  }
  const perMs = slope(times);
  const refillPerS = perMs * 1000;
  // Tokens that refilled while the first burst was being sent were spent by it too.
  const burst = Math.max(1, Math.round(b1 - refillPerS * ((first429 - firstStart) / 1000)));
  reasons.push(`${times.length} admissions over ${((times.at(-1)! - times[0]!) / 1000).toFixed(2)} s: refill ${refillPerS.toFixed(2)}/s; burst ${b1} − refilled during it = ${burst}`);
  return {
    firstBurst: b1,
    reasons,
    limited: true,
    algorithm: 'token-bucket',
    quota: burst,
    burst,
    refillPerS: round(refillPerS, 3),
    windowS: round(burst / refillPerS, 3),
    complete: times.length >= TOKEN_ADMISSIONS,
  };
}

function windowed(b1: number, firstStart: number, recovery: Run[], reasons: string[], minPauseMs: number): Estimate {
  const [r1, r2, r3] = recovery as [Run, Run | undefined, Run | undefined];
  const out = { firstBurst: b1, reasons, limited: true as const };
  reasons.push(`the first recovery run admitted ${r1.size} at once`);
  if (!r2) {
    reasons.push('a second recovery was not observed: the window length is unknown');
    return { ...out, algorithm: 'unknown', quota: r1.size, complete: false };
  }
  const windowS = round((r2.start - r1.start) / 1000, 3);
  if (r2.size >= SAME_SHARE * r1.size) {
    reasons.push(`${windowS} s later the second run admitted ${r2.size}: the whole quota came back at once (fixed window)`);
    const quota = r2.closed ? Math.min(r1.size, r2.size) : r1.size;
    return { ...out, algorithm: 'fixed-window', quota, windowS, complete: r2.closed };
  }
  const pause = pauseIn(r1, minPauseMs);
  if (pause && Math.abs(r2.size - pause.before) <= Math.max(2, 0.25 * pause.before)) {
    reasons.push(`${windowS} s later the second run admitted ${r2.size}, as many as the first run sent before its `
      + `${Math.round(pause.ms)} ms pause: capacity returns as old requests age out (sliding window)`);
    if (r3) reasons.push(`the rest (${r3.size}) came back ${((r3.start - r2.end) / 1000).toFixed(2)} s later`);
    return { ...out, algorithm: 'sliding-window', quota: r1.size, windowS, complete: r3 !== undefined && r3.closed };
  }
  // Without the pause signature, timing can still tell: a sliding log recovers exactly one window after the
  // first burst began; a fixed window recovers at its boundary, wherever that falls.
  const sinceFirst = (r1.start - firstStart) / 1000;
  if (Math.abs(sinceFirst - windowS) <= 0.05 * windowS && r2.size < SAME_SHARE * r1.size) {
    reasons.push(`recovery came one window (${windowS} s) after the first burst began and in part: sliding window`);
    return { ...out, algorithm: 'sliding-window', quota: r1.size, windowS, complete: r2.closed };
  }
  reasons.push(`the second run (${r2.size}) matches neither a fixed nor a sliding window`);
  return { ...out, algorithm: 'unknown', quota: r1.size, windowS, complete: r2.closed };
}

/** Least-squares slope of admissions (0, 1, 2 …) over their times. */
function slope(times: number[]): number {
  const n = times.length;
  const meanT = times.reduce((a, b) => a + b, 0) / n;
  const meanI = (n - 1) / 2;
  let num = 0;
  let den = 0;
  times.forEach((t, i) => {
    num += (t - meanT) * (i - meanI);
    den += (t - meanT) ** 2;
  });
  return den === 0 ? 0 : num / den;
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * What a Recorder holds and hands out: the counts and histograms thresholds read (MetricSource), one second of
 * the timeline, a flow's iterations, and the recorder as plain data (snapshots) for workers and report.json.
 */
import { createHistogram, recordMicros, type Histogram, type HistogramBuckets } from './histogram.ts';

/** What thresholds and summaries read; `name` selects one request name (the `{name:x}` tag). */
export interface MetricSource {
  readonly names: readonly string[];
  readonly elapsedMs: number;
  readonly dropped: number;
  counts(name?: string): Counts;
  histogram(name?: string): Histogram;
  /** Flow scenarios' iterations (absent for a mix). */
  readonly iterations?: IterationStats | undefined;
}

export interface Counts {
  /** Answers plus transport errors. */
  requests: number;
  /** Unexpected statuses and transport errors (and 429s with rateLimitedAsFailure). */
  failed: number;
  rateLimited: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface SecondStats {
  requests: number;
  failed: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  rateLimited: number;
  errors: number;
  dropped: number;
  /** Open model: arrivals started this second, and how many of them started later than GENERATOR_BOUND.lateStartMs. */
  starts: number;
  lateStarts: number;
  /** The generator's largest event-loop delay seen this second, ms (several workers: the largest of them). */
  loopDelayMs: number;
  histogram: Histogram;
}

/** The generator's own lag (src/load/metrics/generator-bound.ts reads it): a start this late counts as late. */
export const LATE_START_MS = 10;

export interface NameStats extends Omit<Counts, 'statusCodes'> {
  statusCodes: Map<number, number>;
  histogram: Histogram;
}

export function newNameStats(): NameStats {
  return { requests: 0, failed: 0, rateLimited: 0, errors: 0, statusCodes: new Map(), histogram: createHistogram() };
}

export function newSecond(histogram: Histogram): SecondStats {
  // loopDelayMs takes fractions: it starts as a double (NaN, then 0). Created as a small integer, the first fraction
  // stored in any second changes the shape of every second, and V8 throws away the hot path's optimised code.
  const second = { requests: 0, failed: 0, status2xx: 0, status4xx: 0, status5xx: 0, rateLimited: 0, errors: 0, dropped: 0, starts: 0, lateStarts: 0, loopDelayMs: NaN, histogram };
  second.loopDelayMs = 0;
  return second;
}

export interface RecorderOptions {
  /** Count 429 answers as failures too. @default false */
  rateLimitedAsFailure?: boolean;
  /**
   * Length of a timeline entry in ms. Only the open model's warm-up changes it (100: a scratch recorder whose
   * "seconds" end ten times a second, so the code that closes a second, and the object shapes it leaves, have run
   * before t0; V8 otherwise recompiles the hot path at the run's first second boundary). @default 1000
   */
  secondMs?: number;
  /**
   * Pack each second when the next begins (the compact kind: an hour of seconds in 2 KiB each). A live view that
   * holds a few recent seconds and is built afresh every second (a merge of workers' live snapshots) skips it:
   * packing was most of that merge's cost. @default true
   */
  packSeconds?: boolean;
}

/** Flow scenarios' iterations (k6's iterations and iteration_duration); failedBy: the step that failed each failed one. */
export interface IterationStats {
  count: number;
  failed: number;
  failedBy: Map<string, number>;
  histogram: Histogram;
}

/**
 * A Recorder as plain data: `snapshot()`'s, JSON-safe, with encoded histograms (H = string); a load worker's
 * (`workerSnapshot()`) holds them as buckets instead.
 */
export interface RecorderSnapshot<H = string, S = H> {
  names: string[];
  /** The second `timeline[0]` is (a partial snapshot). @default 0 */
  timelineFrom?: number;
  elapsedMs: number;
  dropped: number;
  errorCodes: Record<string, number>;
  all: H;
  byName: Array<Omit<Counts, 'statusCodes'> & { statusCodes: Record<string, number>; histogram: H }>;
  /** Flow scenarios only. */
  iterations?: { count: number; failed: number; failedBy: Record<string, number>; histogram: H };
  /** The generator fields are optional so snapshots from before they existed still merge. */
  timeline: Array<Omit<SecondStats, 'histogram' | 'starts' | 'lateStarts' | 'loopDelayMs'> & Partial<Pick<SecondStats, 'starts' | 'lateStarts' | 'loopDelayMs'>> & { histogram: S }>;
}

/**
 * What a load worker posts the main thread (Recorder.workerSnapshot): histograms as buckets, but the timeline's
 * packed seconds encoded; no `all`.
 */
export type WorkerSnapshot = Omit<RecorderSnapshot<HistogramBuckets, HistogramBuckets | string>, 'all'>;

/** The counts of some names' stats, added up. */
export function countsOf(selected: readonly NameStats[]): Counts {
  const out: Counts = { requests: 0, failed: 0, rateLimited: 0, errors: 0, statusCodes: {} };
  for (const s of selected) {
    out.requests += s.requests;
    out.failed += s.failed;
    out.rateLimited += s.rateLimited;
    out.errors += s.errors;
    for (const [code, n] of s.statusCodes) out.statusCodes[code] = (out.statusCodes[code] ?? 0) + n;
  }
  return out;
}

/** One flow iteration counted into `stats` (made at the first); returns them. */
export function withIteration(stats: IterationStats | undefined, durationMs: number, failedStep: string | undefined): IterationStats {
  const it = stats ?? { count: 0, failed: 0, failedBy: new Map<string, number>(), histogram: createHistogram() };
  it.count++;
  recordMicros(it.histogram, durationMs * 1000);
  if (failedStep !== undefined) {
    it.failed++;
    it.failedBy.set(failedStep, (it.failedBy.get(failedStep) ?? 0) + 1);
  }
  return it;
}

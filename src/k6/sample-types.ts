/**
 * The k6 sample reader's vocabulary: what it hands a sink (one request, one dropped arrival, one iteration), the
 * formats it reads, its options and what it returns. read-samples.ts re-exports all of it.
 */

/** The longest line read (decompressed bytes); k6's sample lines are a few hundred bytes. @default 1 MiB */
export const MAX_LINE_BYTES = 1024 * 1024;

/** One request as k6 measured it: its `http_req_duration` sample. */
export interface RequestSample {
  /** Sample time, ms since the epoch (k6 stamps a request's sample when it completes). */
  timeMs: number;
  /** http_req_duration, ms (k6: from the request's actual start — sending + waiting + receiving). */
  durationMs: number;
  /** The `name` tag (k6 sets it to the URL when a script gives none). */
  name: string;
  /** HTTP status; 0 for a request that got no answer (then `errorCode` says why). */
  status: number;
  /** The `expected_response` tag: false is what k6 counts in http_req_failed. */
  expected: boolean;
  errorCode?: string;
  /** k6-operator tags every runner with `instance_id` (its index, 1-based). */
  instanceId?: string;
}

/**
 * The k6 metrics of a script's iterations: iteration_duration and iterations, one sample of each per iteration k6
 * completed, and the exported flow scripts' iterations_failed {step} (one per failed iteration).
 */
export type IterationMetric = 'iteration_duration' | 'iterations' | 'iterations_failed';

export interface SampleSink {
  request(sample: RequestSample): void;
  /** A `dropped_iterations` sample (`count` arrivals, usually 1). */
  dropped(timeMs: number, count: number, instanceId?: string): void;
  /**
   * An `iteration_duration` (ms), `iterations` or `iterations_failed` (count; `step`: its tag) sample; without this
   * method those lines are skipped.
   */
  iteration?(metric: IterationMetric, timeMs: number, value: number, step?: string): void;
}

export type RawFormat = 'json' | 'csv';

export interface ReadProgress {
  file: string;
  /** Bytes read from the file (compressed bytes for a gzip file) and its size. */
  bytes: number;
  size: number;
  lines: number;
  requests: number;
}

export interface ReadOptions {
  /** Called at most every `progressEveryMs` while a file is read, and once at its end. */
  progress?: (p: ReadProgress) => void;
  progressEveryMs?: number;
}

export interface ReadResult {
  format: RawFormat;
  gzip: boolean;
  lines: number;
  requests: number;
  /** Metric declarations (NDJSON only): metric name → the thresholds the script gave it. */
  declaredThresholds: Record<string, string[]>;
}

/** A sink refuses a sample (e.g. a request name the scenario does not have): the reader names the file and line. */
export class SampleRejected extends Error {}

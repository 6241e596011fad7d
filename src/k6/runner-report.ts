/**
 * What `harness import k6` records about the runners it merged: report.json `scenarios[].k6`. Declared beside the
 * merge that computes it; the report model re-exports it.
 */
import type { LatencySummary, ThresholdResult } from '../load/result.ts';

/** One k6 process (a k6-operator runner pod) of a merged import: its own numbers, for the breakdown. */
export interface K6RunnerReport {
  /** `instance <id>` (k6-operator's instance_id tag) or the file's name. */
  runner: string;
  instanceId?: string;
  file: string;
  format: 'json' | 'csv';
  gzip: boolean;
  requests: number;
  failed: number;
  rateLimited: number;
  dropped: number;
  statusCodes: Record<string, number>;
  latency: LatencySummary;
  /** First and last sample time (k6's clock on that runner). */
  firstSampleAt: string;
  lastSampleAt: string;
  /** The scenario's thresholds judged on this runner's samples alone: for information; the verdict is the union's. */
  thresholds: ThresholdResult[];
}

/** How a merged k6 entry was made: the runners, and how close its percentiles are to the samples'. */
export interface K6RunnersReport {
  runners: K6RunnerReport[];
  /** The stated bound of every percentile in the entry (HDR histogram resolution), in words and as numbers. */
  precision: { relative: number; absoluteMs: number; rank: string; text: string };
  /** Where elapsed time (rps, counter rates) comes from. */
  elapsed: string;
}

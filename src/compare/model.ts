/**
 * compare.json's shape: what `harness compare` computed from two or more reports, before anything is printed.
 * The console, Markdown and HTML outputs all render this one value (computing is separate from printing).
 */
import type { CheckStatus, Level } from '../conformance/check.ts';
import type { Summary, Verdict } from '../conformance/result.ts';
import type { PercentilePoint, RateLimitReport } from '../report/report.ts';
import type { PercentileInterval } from './percentile-interval.ts';

export const COMPARISON_SCHEMA_VERSION = 1;

export interface ComparedRun {
  /** Short name used in every table: the run id (suffixed when two files hold the same run). */
  label: string;
  file: string;
  runId: string;
  startedAt: string;
  /** The target's base URL (names the run beside its id and time). */
  target?: string;
  verdict: Verdict;
  summary: Summary;
  rateLimit?: Pick<RateLimitReport, 'headerStyle' | 'policyClaimed' | 'observed' | 'retryAfter' | 'isolation'>;
}

/** One check whose status differs between runs; `null` where a run did not have it. */
export interface CheckChange {
  id: string;
  title: string;
  level: Level;
  statuses: Array<CheckStatus | null>;
}

/** compare.json's per-scenario numbers (units in the names), read from report.json's ScenarioResult by metrics.ts. */
export interface ScenarioMetrics {
  /** "k6" for a scenario imported from a k6 summary: then only what k6 reported is set, the rest is absent. */
  source?: 'k6';
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
  rps?: number;
  /** Shares (0–1). */
  errorRate?: number;
  rate429?: number;
  dropped?: number;
  /** Empty for k6 imports (a k6 summary has no histogram). */
  percentiles: PercentilePoint[];
  /** Samples (requests) in the run's histogram, when the report carries one. */
  samples?: number;
  /** 99 % confidence intervals of p50 / p95 / p99 from the run's HDR histogram (percentile-interval.ts); absent without one. */
  intervals?: Record<'p50' | 'p95' | 'p99', PercentileInterval>;
  /**
   * The run was marked generator-bound (report.json `generatorBound`): in `seconds` of its `ofSeconds` seconds the
   * load generator's event loop stalled or its arrivals started late past the engine's bounds, so its latencies
   * include the generator's own delay (`lateStartMs`: a start that late counts as late). A latency budget on such a
   * run is "exceeded" only by more than that delay (evaluate-budgets.ts).
   */
  generatorBound?: { seconds: number; ofSeconds: number; worstLoopDelayMs: number; worstLateShare: number; lateStartMs: number };
  /**
   * A generator-bound run's intervals over its seconds the generator kept up in: the per-second histograms without
   * the generator-bound seconds and the second after each (answers to requests sent in a stall complete then), so
   * none of the generator's own delay is in them. Present only with per-second blocks and at least half the seconds
   * left; a slowdown these still show is the target's (evaluate-budgets.ts).
   */
  cleanIntervals?: { seconds: number; ofSeconds: number; intervals: Record<'p50' | 'p95' | 'p99', PercentileInterval> };
  /** The run's typical second's longest event-loop stall (report.json `loopDelay.secondMedianMs`), ms. */
  loopDelayMs?: number;
}

/** One scenario across runs; `null` where a run did not have it. */
export interface ScenarioRow {
  name: string;
  runs: Array<ScenarioMetrics | null>;
}

/**
 * `inconclusive`: the runs' samples cannot tell whether the budget held (too few samples beyond the percentile, or
 * the confidence intervals straddle the limit). Not a failure: the gate exits 0 and says so.
 */
export type BudgetStatus = 'within' | 'exceeded' | 'inconclusive' | 'not-evaluated';

export interface BudgetResult {
  /** The budget as the user wrote it, e.g. `p95:+10%`. */
  budget: string;
  /** Label of the run checked against the baseline. */
  run: string;
  scenario?: string;
  baseline?: number;
  actual?: number;
  limit?: number;
  status: BudgetStatus;
  /** One readable sentence: what was compared and why it passed or not. */
  detail: string;
  /** For `inconclusive`: why the runs could not tell (too few samples, too short, overlapping intervals, a stalled generator). */
  reason?: string;
  /** For `inconclusive`: what to change so the next run decides. */
  advice?: string;
  /** For latency budgets decided on confidence intervals: each run's 99 % interval (ms) and the samples. */
  intervals?: { baseline: [number, number]; actual: [number, number]; baselineSamples: number; actualSamples: number };
}

export interface Comparison {
  schemaVersion: typeof COMPARISON_SCHEMA_VERSION;
  generatedAt: string;
  /** Index into `runs` of the run the others are compared with. */
  baseline: number;
  runs: ComparedRun[];
  checkChanges: CheckChange[];
  scenarios: ScenarioRow[];
  budgets: BudgetResult[];
  /** `none` when no --budget was given; `inconclusive` when nothing was exceeded but a budget could not be decided. */
  gate: 'passed' | 'failed' | 'inconclusive' | 'none';
  /** Set by `compare --history` (src/history/history-compare.ts): where the baselines came from, and what was skipped. */
  history?: {
    dir: string;
    label?: string;
    last: number;
    /** Per scenario: the runs compared with (run ids) and those left out, with why. */
    baselines: Array<{ scenario: string; runs: string[]; leftOut: Array<{ run: string; why: string }> }>;
    /** Files of the folder that are not runs this harness reads, with why. */
    skipped: Array<{ file: string; why: string }>;
  };
}

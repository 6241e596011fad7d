/**
 * report.json's optional load sections: `scenarios[]` (throughput runs) and `rateLimit` (the rate-limit probe).
 * Both are absent from a run without them. Like the rest of the report they are stable from schemaVersion 1
 * on; schemas/report.schema.json describes every field.
 *
 * `scenarios[]` entries ARE the load engine's ScenarioResult (src/load/result.ts): one model from the engine to
 * report.json, report.html, junit.xml and `harness compare`, whichever command ran the scenarios. The reporters depend on that model's
 * TYPE only (never on the engine's code), so the load engine and the reporters stay independent.
 */
import type { K6RunnersReport } from '../k6/runner-report.ts';
import type { CapacityResult, LatencySummary, ScenarioResult, ThresholdResult } from '../load/result.ts';
import type { PolicyMatch } from '../ratelimit/probe/policy-match.ts';
import type { EstimatedAlgorithm } from '../ratelimit/probe/types.ts';
import type { RateLimitTimelinePoint } from '../ratelimit/probe/timeline.ts';

export type { K6RunnerReport, K6RunnersReport } from '../k6/runner-report.ts';
export type { RateLimitTimelinePoint } from '../ratelimit/probe/timeline.ts';

export type {
  CapacityResult,
  CapacityStep,
  EncodedHistograms,
  LatencySummary,
  NameResult,
  PercentilePoint,
  ScenarioResult,
  ThresholdResult,
  TimelinePoint,
} from '../load/result.ts';

/**
 * One entry of report.json `scenarios[]`: a ScenarioResult, plus `capacity` when a capacity search ran over the
 * scenario (`harness capacity`: the step at the sustainable rate, with the curve of every step).
 */
export interface ScenarioReport extends ScenarioResult {
  capacity?: CapacityResult;
  /** Present when the entry is the exact merge of k6 runners' samples (`harness import k6 FILE...`, src/k6/). */
  k6?: K6RunnersReport;
}

export interface RateLimitReport {
  /** Which header family the target uses: `ietf` (RateLimit / RateLimit-Policy), `x-ratelimit`, `none`. */
  headerStyle: 'ietf' | 'x-ratelimit' | 'none';
  /** What the headers claim the policy is (or api.rateLimitPolicy states, `source: config`), when one is claimed. */
  policyClaimed?: { quota: number; windowS: number; raw?: string; source?: 'headers' | 'config' };
  /**
   * What the probe measured from its 429s; absent when no 429 came (then `admitted` says what was reached and
   * `notMeasured.observed` why). `windowS` only when a recovery measured it. `burst`, `refillPerS`: token buckets.
   */
  observed?: {
    quota: number;
    windowS?: number;
    algorithm: EstimatedAlgorithm;
    burst?: number;
    refillPerS?: number;
  };
  /** Traffic admitted without any 429: a lower bound of the limit, not a limit. */
  admitted?: { requests: number; seconds: number; peakRps: number };
  /**
   * What each rate-limit header family the target sent claimed (limit, window, remaining, reset) against what the
   * probe measured, newest family first: numbers and where they come from (src/ratelimit/probe/claims.ts).
   */
  headerClaims?: Array<{
    format: 'ietf-draft-09' | 'ietf-draft-07' | 'ietf-draft-06' | 'x-ratelimit';
    revision: string;
    fields: Record<string, string>;
    compared: Array<{ what: 'limit' | 'window' | 'remaining' | 'reset'; claimed?: number; observed?: number; inferred?: boolean; resolutionS?: number; mayExceed?: boolean; basis: string }>;
    findings: string[];
    notes: string[];
  }>;
  /**
   * The claimed quota and window each judged on the interval the measurement allows (src/ratelimit/probe/policy-match.ts);
   * absent when nothing was claimed or no 429 measured the limit.
   */
  policyMatch?: PolicyMatch;
  /** The claimed policy contradicted by what was admitted (more within a span than the claim allows): DIFFERS. */
  contradiction?: { admitted: number; spanS: number; bound: number; detail: string };
  /** Why a measurement is absent: keys observed, window, recovery, isolation. */
  notMeasured?: Partial<Record<'observed' | 'window' | 'recovery' | 'isolation', string>>;
  retryAfter: {
    /** Retry-After the target claimed on its first 429 (seconds); absent when it sent none. */
    claimedS?: number;
    /** How long it really took until a request was accepted again (seconds); absent when no recovery was observed. */
    actualRecoveryS?: number;
    /** Every probe of recovery: claimed vs actual, at `t` seconds since the probe started. */
    samples?: Array<{ t: number; claimedS?: number; actualS: number }>;
    /** true: admitted again no later than every Retry-After said; false: refused after waiting one out; absent: not established. */
    honest?: boolean;
  };
  /** Whether exhausting one credential's quota left the others untouched; `perCredential` only when tested. */
  isolation: {
    /** false when isolation could not be tested (one credential, or no 429 came): `perCredential` is then absent. */
    tested?: boolean;
    perCredential?: boolean;
    /** What was tried, e.g. "quota of key A exhausted; key B still answered 200". */
    detail?: string;
  };
  timeline: RateLimitTimelinePoint[];
}

/**
 * Latency statistics (ms) of a k6 summary's `http_req_duration` trend: only those k6 computed (its
 * `summaryTrendStats`, by default avg, min, med, max, p(90), p(95)); med is p50, p(99.9) p999, p(99.99) p9999.
 */
export interface ImportedLatency {
  avg?: number;
  min?: number;
  p50?: number;
  p90?: number;
  p95?: number;
  p99?: number;
  p999?: number;
  p9999?: number;
  max?: number;
}

/** A k6 threshold as the summary reports it; `actual` only when the summary holds the value it tested. */
export interface ImportedThreshold {
  metric: string;
  expr: string;
  ok: boolean;
  actual?: number;
}

/**
 * A `scenarios[]` entry imported from a k6 summary (`harness import k6`; src/compare/k6-summary.ts). It holds
 * what k6 gives and nothing else: no histogram, timeline or status codes, and every number k6 did not report is
 * absent. `source: "k6"` tells it from the engine's ScenarioResult.
 */
export interface ImportedScenario {
  name: string;
  source: 'k6';
  /** `summary-export`: `k6 run --summary-export`; `handle-summary`: the data object handleSummary() receives. */
  format: 'summary-export' | 'handle-summary';
  /** http_reqs count and rate (per second, over the whole test). */
  requests?: number;
  rps?: number;
  iterations?: number;
  /** dropped_iterations count, when the summary has the metric. */
  dropped?: number;
  latency: ImportedLatency;
  /** Per `name` tag, from `http_req_duration{name:…}` sub-metrics. */
  byName?: Record<string, { latency: ImportedLatency }>;
  /** http_req_failed rate: the share k6 counted failed (status outside expected_response, or no response). */
  failedRate?: number;
  /** checks rate: the share of k6 checks that passed. */
  checksRate?: number;
  /** handleSummary's state.testRunDurationMs. */
  durationMs?: number;
  thresholds: ImportedThreshold[];
}

/** A report's `scenarios[]` entry: run by the harness, or imported from k6. */
export type ScenarioEntry = ScenarioReport | ImportedScenario;

export function isImportedScenario(entry: ScenarioEntry): entry is ImportedScenario {
  return (entry as ImportedScenario).source === 'k6';
}

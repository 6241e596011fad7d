/**
 * report.json's optional load sections: `scenarios[]` (throughput runs) and `rateLimit` (the rate-limit probe).
 * Both are absent from a conformance-only run. Like the rest of the report they are stable from schemaVersion 1
 * on; schemas/report.schema.json describes every field. Units are in the names (Ms, S, PerS) so a reader never
 * has to guess, and per-second series are arrays of small objects keyed by `t` (seconds since the scenario's
 * start) so charts and compare read them without knowing how they were measured.
 */

/** Latency summary in milliseconds, measured from the intended send time (coordinated omission corrected). */
export interface LatencySummary {
  minMs: number;
  meanMs: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** One point of the HDR percentile curve: `percentile` in [0, 100], latency at or below which that share fell. */
export interface PercentilePoint {
  percentile: number;
  latencyMs: number;
}

/** Responses per status class; `error` counts transport failures (no HTTP response at all). */
export interface StatusClasses {
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  error: number;
}

/** One second of a scenario. `rateLimited` (429s) is also inside `status['4xx']`. */
export interface TimelinePoint {
  /** Seconds since the scenario started (0, 1, 2 …). */
  t: number;
  /** Requests completed (with or without a response) in this second. */
  requests: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  status: StatusClasses;
  rateLimited: number;
  /** Requests that could not start on time in this second (open-model executors only). */
  dropped?: number;
}

/** A k6-style threshold (`p(95)<250`) and how the run measured against it. */
export interface ThresholdResult {
  /** Metric the threshold is on, e.g. `http_req_duration`, `http_req_failed`, `rate_limited`. */
  metric: string;
  /** The expression as written in the scenario file, e.g. `p(95)<250`. */
  expression: string;
  /** The measured value the expression was evaluated with. */
  actual: number;
  passed: boolean;
}

/** One step of a capacity search: the arrival rate offered and what the target did with it. */
export interface CapacityStep {
  /** Offered arrival rate, requests per second. */
  ratePerS: number;
  /** Achieved throughput, requests per second. */
  achievedRps: number;
  p95Ms: number;
  p99Ms: number;
  /** Share of requests (0–1) that failed: transport errors and 5xx. */
  errorRate: number;
  /** Whether every SLO held at this step. */
  withinSlo: boolean;
}

export interface CapacityResult {
  /** The SLO the search stepped against, as written (e.g. `p95<250ms, errors<1%`). */
  slo: string;
  steps: CapacityStep[];
  /** Highest offered rate at which the SLO held; absent when the first step already broke it. */
  sustainableRatePerS?: number;
}

export interface ScenarioReport {
  name: string;
  /** The scenario's `executor:` (k6 vocabulary): constant-arrival-rate, ramping-arrival-rate, constant-vus … */
  executor: string;
  startedAt: string;
  durationS: number;
  /** Offered arrival rate for open-model executors (requests per second). */
  targetRatePerS?: number;
  requests: {
    total: number;
    /** Achieved throughput over the whole scenario. */
    rps: number;
    /** Requests that could not start on time (k6 `dropped_iterations`). */
    dropped: number;
  };
  latency: LatencySummary;
  /** HDR percentile curve (log-scale x axis in charts: 0, 90, 99, 99.9 … 100). */
  percentiles: PercentilePoint[];
  /** Raw HDR histogram (base64, hdr-histogram-js encoding) so runs and workers merge exactly. */
  histogram?: string;
  /** Responses per exact status code ("200", "429", …) plus `error` for transport failures. */
  statusCodes: Record<string, number>;
  /** Share of requests (0–1) that failed: transport errors and 5xx. */
  errorRate: number;
  rateLimited: {
    /** 429 responses. */
    count: number;
    /** Share of requests (0–1) answered 429. */
    rate: number;
  };
  timeline: TimelinePoint[];
  thresholds: ThresholdResult[];
  /** Present for capacity runs (`harness capacity`). */
  capacity?: CapacityResult;
}

export type RateLimitAlgorithm = 'fixed-window' | 'sliding-window' | 'token-bucket' | 'unknown';

/** One second of the rate-limit probe. */
export interface RateLimitTimelinePoint {
  t: number;
  /** Requests answered with anything but 429. */
  accepted: number;
  /** Requests answered 429. */
  limited: number;
  /** Last remaining-quota header value seen in this second, when the target sends one. */
  remaining?: number;
  /** Retry-After (seconds) claimed by the last 429 of this second. */
  retryAfterS?: number;
}

export interface RateLimitReport {
  /** Which header family the target uses: `ietf` (RateLimit / RateLimit-Policy), `x-ratelimit`, `none`. */
  headerStyle: 'ietf' | 'x-ratelimit' | 'none';
  /** What the headers claim the policy is, when they claim one. */
  policyClaimed?: { quota: number; windowS: number; raw?: string };
  /** What the probe measured. `burst` and `refillPerS` are set for token buckets. */
  observed: {
    quota: number;
    windowS: number;
    algorithm: RateLimitAlgorithm;
    burst?: number;
    refillPerS?: number;
  };
  retryAfter: {
    /** Retry-After the target claimed on its first 429 (seconds); absent when it sent none. */
    claimedS?: number;
    /** How long it really took until a request was accepted again (seconds). */
    actualRecoveryS: number;
    /** Every probe of recovery: claimed vs actual, at `t` seconds since the probe started. */
    samples?: Array<{ t: number; claimedS?: number; actualS: number }>;
  };
  /** Whether exhausting one credential's quota left the others untouched. */
  isolation: {
    perCredential: boolean;
    /** What was tried, e.g. "quota of key A exhausted; key B still answered 200". */
    detail?: string;
  };
  timeline: RateLimitTimelinePoint[];
}

/**
 * The result model of a throughput scenario: report.json's `scenarios[]` entries are exactly this, whichever
 * command ran them (`harness run`, `harness load`, `harness capacity`); the field names are stable from
 * schemaVersion 1.
 * Latencies are milliseconds, measured from each request's intended send time in the open model (see
 * src/load/pacer/pacer.ts). Computing (metrics/summarize.ts) is separate from printing (print-summary.ts).
 */

/** Percentiles of one HDR histogram, in ms. `p9999` is p99.99 (kept beside the six fields the report shows). */
export interface LatencySummary {
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  p9999: number;
  max: number;
}

export interface NameResult {
  requests: number;
  latency: LatencySummary;
  /** Status code → count, e.g. `{"201": 950, "429": 50}`. */
  statusCodes: Record<string, number>;
}

export interface ThresholdResult {
  /** As written in the scenario, e.g. `http_req_duration{name:send}`. */
  metric: string;
  /** e.g. `p(99)<100` */
  expr: string;
  ok: boolean;
  /** The value the expression's left side had (ms for durations, 0..1 for rates, a count, or per second); 0 when not evaluated. */
  actual: number;
  /** Why the threshold could not be judged (its metric has no samples, e.g. "k6 output carries no iteration_duration"): then ok is false. */
  notEvaluated?: string;
}

/** One second of the run (by completion time; `t` counts seconds from the start). */
export interface LoopDelay {
  secondMedianMs: number;
  secondP90Ms: number;
  worstMs: number;
}

export interface TimelinePoint {
  t: number;
  requests: number;
  p50: number;
  p99: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  rateLimited: number;
  errors: number;
}

/**
 * One point of the HDR percentile curve (report.html's "latency distribution" chart, compare's curves): the
 * latency in ms at or below which `percentile` % of the requests fell. Computed from the full histogram.
 */
export interface PercentilePoint {
  /** In [0, 100]: 0 is the fastest request, 100 the slowest. */
  percentile: number;
  latencyMs: number;
}

/**
 * Encoded HDR histograms (hdr-histogram-js compressed base64, values in µs), so results from workers, runs or
 * machines merge exactly: decode and add. Not shown in tables.
 */
export interface EncodedHistograms {
  unit: 'us';
  all: string;
  byName: Record<string, string>;
  /**
   * The run's latencies by time (by completion time, like the timeline): `histograms[i]` holds blocks `i·seconds`
   * to `(i+1)·seconds` of the timeline. `seconds` is 1 unless the run had more than MAX_BLOCKS seconds (then blocks
   * are longer, so a long soak's report stays small). `harness compare` estimates how much latencies vary together
   * in time from them (src/compare/percentile-interval.ts). Absent in reports written before it existed.
   */
  blocks?: { seconds: number; histograms: string[] };
}

/**
 * A rate-limit scenario's verdict (scenario `rateLimit:`; src/load/rate-limit-expectation.ts): the expected 429
 * fraction max(0, 1 − (credentials × perCredentialQuota / windowSeconds) / offeredRps) against the observed one
 * (rateLimited / requests); `ok` when they differ by at most `tolerance`. Per second, accepted = timeline
 * `requests − rateLimited`, throttled = `rateLimited`.
 */
export interface RateLimitExpectation {
  perCredentialQuota: number;
  windowSeconds: number;
  credentials: number;
  /** The scenario's constant arrival rate, per second. */
  offeredRps: number;
  expectedFraction: number;
  observedFraction: number;
  /** Largest |observed − expected| that passes (scenario `rateLimit.tolerance`, default 0.05). */
  tolerance: number;
  /**
   * How much lower the observed fraction may also be, for the fixed windows the run covers only in part at its
   * start and end: 2 × credentials × quota × expectedFraction / requests (src/load/rate-limit-expectation.ts).
   * Absent in reports written before it existed.
   */
  edgeAllowance?: number;
  ok: boolean;
}

/**
 * The warm-up before t0 (src/load/engine/warm-up.ts): the scenario's connections opened and its request path
 * exercised with its own requests. Never counted in any metric, threshold or timeline.
 */
export interface WarmUp {
  durationMs: number;
  /** Warm-up requests sent (answers and errors alike). */
  requests: number;
  /** Warm-up requests that failed (transport error or timeout). */
  errors: number;
  /** Connections the warm-up opened (preAllocatedVUs in the open model, the VUs in the closed one), all workers. */
  connections: number;
  /** Why there was no warm-up traffic, when there was none. */
  skipped?: string;
}

/**
 * The run was limited by the load generator, not (only) by the target: in at least one second the generator's
 * event loop stalled for more than `bounds.loopDelayMs`, or (open model) more than `bounds.lateShare` of that
 * second's arrivals started more than `bounds.lateStartMs` after their intended time. Latencies of those
 * seconds include the generator's own delay. Bounds: src/load/metrics/generator-bound.ts.
 */
export interface GeneratorBound {
  /** Seconds of the timeline (`t`) that crossed a bound. */
  seconds: number[];
  /** Largest event-loop delay of any second, ms. */
  worstLoopDelayMs: number;
  /** Largest share (0..1) of a second's arrivals that started late (open model; 0 in the closed model). */
  worstLateShare: number;
  bounds: { loopDelayMs: number; lateStartMs: number; lateShare: number };
  /** One sentence for people, with the figures. */
  message: string;
}

export interface ScenarioResult {
  name: string;
  executor: string;
  /** The scenario as it ran: defaults applied, flags applied (`describe` text in `config.description`). */
  config: Record<string, unknown>;
  /** Requests that got an answer or a transport error (dropped iterations are not requests). */
  requests: number;
  /** requests / elapsed seconds */
  rps: number;
  /** The run's measured length, ms (t0 to its end, warm-up excluded): what `rps` divides by. Absent in older reports. */
  durationMs?: number;
  /** Arrivals that could not start on time because every VU (connection) was busy: k6's dropped_iterations. */
  dropped: number;
  latency: LatencySummary;
  /** The HDR percentile curve at fixed percentiles (0, 50, 90, 99, 99.9 … 100); empty when there were no requests. */
  percentiles: PercentilePoint[];
  byName: Record<string, NameResult>;
  statusCodes: Record<string, number>;
  /** Answers with status 429 (not failures unless the scenario says `rateLimitedAsFailure: true`). */
  rateLimited: number;
  /** Transport errors by code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT …). */
  errors: Record<string, number>;
  thresholds: ThresholdResult[];
  timeline: TimelinePoint[];
  /** Only for scenarios with `rateLimit:`; when not ok, `thresholds` also holds a failed `rate_limited` entry. */
  rateLimitExpectation?: RateLimitExpectation;
  /** Extra beside the report fields: encoded histograms for exact merging. */
  histograms?: EncodedHistograms;
  /** Worker threads that generated the load (1: in the main thread). */
  workers?: number;
  /** The warm-up before t0; absent when the scenario turned it off (`warmUp: false`). */
  warmUp?: WarmUp;
  /**
   * The load generator's own event-loop delay over the run: the longest stall of each second (0 when under 1 ms),
   * its median and p90 over the seconds, and the worst. How the machine shared its cores while this run measured:
   * `harness compare` holds latency differences smaller than the typical second's stall undecided (evaluate-budgets.ts).
   */
  loopDelay?: LoopDelay;
  /** Present only when the run was limited by the generator itself. */
  generatorBound?: GeneratorBound;
  /** Flow scenarios only: their iterations (k6's iterations and iteration_duration). */
  iterations?: IterationResult;
  /** Present when the run pushed live metrics (--metrics-out): what was sent and what could not be. */
  metricsOutput?: MetricsOutputResult;
}

/**
 * A flow scenario's iterations: one pass through its steps each. Duration is from the iteration's intended
 * start (the arrival's, in the open model) to its end, think times included, as k6's iteration_duration.
 */
export interface IterationResult {
  count: number;
  /** Iterations in which a step failed (aborted there with onStepFailure: abort). */
  failed: number;
  /** Completed iterations per second of the run. */
  rate: number;
  duration: LatencySummary;
  /** Step name → iterations that step failed. */
  failedBy: Record<string, number>;
}

/** What a live metrics output (src/load/metrics-out/) sent during the scenario, and what it could not. */
export interface MetricsOutputResult {
  kind: 'prometheus-rw';
  /** The endpoint, without any userinfo or query. */
  url: string;
  testid: string;
  pushes: number;
  samplesSent: number;
  failedPushes: number;
  /** Samples never delivered: failed pushes and batches dropped while the endpoint was slow. */
  samplesNotSent: number;
  /** The last error, when a push failed. */
  lastError?: string;
}

/** One step of `harness capacity`. */
export interface CapacityStep {
  rate: number;
  achievedRps: number;
  p50: number;
  p99: number;
  /** (failed + dropped) / (requests + dropped) */
  errorRate: number;
  ok: boolean;
  /** The step's run was generator-bound (ScenarioResult.generatorBound): a broken step then says nothing about the target. */
  generatorBound?: boolean;
}

export interface CapacityResult {
  /** Highest rate whose step held the SLO and the error budget; 0 when even the start rate broke them. */
  sustainableRps: number;
  slo: string;
  /** As a fraction (0.01 for 1 %). */
  errorBudget: number;
  steps: CapacityStep[];
  /**
   * How the search ended: `found` (a step broke the SLO or the budget: the target's limit lies between
   * sustainableRps and that step), `not-reached` (every step up to --max passed: the target may sustain more),
   * `generator-bound` (the first broken step was limited by the generator: the target's limit was not measured),
   * `interrupted` (SIGINT/SIGTERM stopped the search: only the finished steps count, sustainableRps is a lower bound).
   */
  ceiling?: 'found' | 'not-reached' | 'generator-bound' | 'interrupted';
  /** With ceiling `interrupted`: the step (1-based) that was running when the search was stopped, of the ramp's planned steps. */
  interrupted?: { atStep: number; plannedSteps: number };
}

/** Did every threshold hold? */
export function thresholdsCrossed(results: readonly ScenarioResult[]): ThresholdResult[] {
  return results.flatMap((r) => r.thresholds.filter((t) => !t.ok));
}

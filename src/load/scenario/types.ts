/**
 * A throughput scenario as the engine sees it: a scenario file (scenarios/*.yaml, format in
 * schemas/scenario.schema.json) with the executor's defaults applied. k6's vocabulary throughout, so a k6 user
 * reads a scenario at once and `harness export k6` maps it one-to-one.
 */

export const EXECUTOR_NAMES = ['constant-vus', 'ramping-vus', 'per-vu-iterations', 'constant-arrival-rate', 'ramping-arrival-rate'] as const;
export type ExecutorName = (typeof EXECUTOR_NAMES)[number];

/** Which credential the scenario's requests carry as `Authorization: Bearer …`. */
export const CREDENTIAL_NAMES = ['loadKey', 'apiKey', 'secondKey', 'restrictedKey', 'none'] as const;
export type CredentialName = (typeof CREDENTIAL_NAMES)[number];

/** API operations a request can name instead of a raw method + path (paths come from the config's api.paths). */
export const REQUEST_OPERATIONS = ['send', 'list', 'account', 'login', 'inbound', 'webhooks'] as const;
export type RequestOperation = (typeof REQUEST_OPERATIONS)[number];

export interface Stage {
  /** k6 duration, e.g. `30s`. */
  duration: string;
  /** VUs (ramping-vus) or iterations per timeUnit (ramping-arrival-rate) at the end of the stage. */
  target: number;
}

export interface RequestSpec {
  /** Tag for per-name metrics and thresholds (`http_req_duration{name:send}`). @default the operation, else "METHOD path" */
  name: string;
  /** Share of the mix, relative to the other requests' weights. @default 1 */
  weight: number;
  operation?: RequestOperation;
  method?: string;
  path?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** JSON body (a YAML mapping) or text; strings may hold `{{seq}}`, `{{phone}}` … (src/load/template.ts). */
  body?: unknown;
  /** Statuses that count as success. @default 200–399 (k6's expected_response) */
  expectStatus?: number[];
}

/** A rate-limit scenario's expected limit: `quota` requests per `windowSeconds`, per credential. */
export interface RateLimitSpec {
  quota: number;
  windowSeconds: number;
  /** Largest |observed − expected| 429 fraction that still passes. @default 0.05 */
  tolerance?: number;
}

export interface ObjectThreshold {
  threshold: string;
  /** Stop the scenario as soon as the threshold is crossed. @default false */
  abortOnFail?: boolean;
  /** With abortOnFail: do not evaluate during the first part of the run. @default "0s" */
  delayAbortEval?: string;
}
export type ThresholdSpec = string | ObjectThreshold;

/** Executor options: which apply depends on `executor` (each executor's `validate` says so). */
export interface ExecutorOptions {
  vus?: number;
  duration?: string;
  iterations?: number;
  maxDuration?: string;
  startVUs?: number;
  stages?: Stage[];
  rate?: number;
  startRate?: number;
  timeUnit?: string;
  preAllocatedVUs?: number;
  maxVUs?: number;
  /** After the last arrival (or duration), how long in-flight requests may finish. @default "10s" */
  gracefulStop?: string;
}

export interface Scenario extends ExecutorOptions {
  name: string;
  description?: string;
  executor: ExecutorName;
  /** @default "loadKey"; with `credentials`, the first of them */
  credential: CredentialName;
  /** Several credentials: requests rotate round-robin across them (instead of `credential`). */
  credentials?: Array<Exclude<CredentialName, 'none'>>;
  /** The limit the target is expected to enforce per credential; adds `rateLimitExpectation` to the result. */
  rateLimit?: RateLimitSpec;
  /** The weighted mix; for a flow scenario, its steps as requests (so per-name checks and metrics see them). */
  requests: RequestSpec[];
  /** A user journey instead of a mix (src/load/flow/): one iteration is one pass through its steps. */
  flow?: FlowSpec;
  /** k6 syntax: metric (with optional `{name:x}`) → expressions. @default {} */
  thresholds: Record<string, ThresholdSpec[]>;
  /** Count 429 answers as failures (http_req_failed) too. @default false */
  rateLimitedAsFailure: boolean;
  /** Per-request timeout; a timed-out request is failed and recorded in latency at its duration. @default "10s" */
  timeout: string;
  /** Worker threads generating the load (`--workers` wins): a number, or `auto` (src/load/workers/count.ts). @default "auto" */
  workers?: number | 'auto';
  /** Warm start before t0 (connections opened, request path exercised, not counted). @default true */
  warmUp?: boolean;
  /** File the scenario came from, when it came from a file. */
  source?: string;
}

/** Where a step reads a value from its answer. */
export type CaptureSpec = { json: string } | { header: string } | { status: true };

/** One step of a flow: a request plus what it captures, checks, waits for and repeats. */
export interface StepSpec extends Omit<RequestSpec, 'weight'> {
  capture?: Record<string, CaptureSpec>;
  /** JSON pointer → the value the answer must hold there (strings may use variables). */
  expectJson?: Record<string, string | number | boolean | null>;
  /** Think time after the step: a duration or a uniformly random one in [min, max]. */
  think?: string | { min: string; max: string };
  /** Run the step again while `while` holds a value, at most `max` times in all. */
  repeat?: { while: string; max: number };
}

export interface FlowSpec {
  /** Variables rendered once when an iteration starts (`phone: "{{phone}}"`). */
  vars?: Record<string, string>;
  /** What a failed step does to its iteration. @default "abort" */
  onStepFailure?: 'abort' | 'continue';
  steps: StepSpec[];
}

/**
 * The rate-limit probe's vocabulary: what one probe request saw (a Sample), the options that bound the probe,
 * and what it concludes. The estimator (estimate.ts) works on samples alone, so a synthetic trace tests it.
 */
import type { RateLimitAlgorithm, RateLimitHeaderStyle } from '../../config/types.ts';
import type { HeaderFormat } from '../headers.ts';

/** The algorithm the probe's estimator names: one the reference target implements, or none it could tell. */
export type EstimatedAlgorithm = RateLimitAlgorithm | 'unknown';

/** What a probe needs of an HTTP client: HttpClient fits, and so does a fake in tests. */
export interface ProbeHttp {
  request(options: {
    method?: string;
    path: string;
    query?: Record<string, string | number | boolean | undefined | null>;
    bearer?: string;
    retryOn429?: boolean;
  }): Promise<{ status: number; headers: Record<string, string> }>;
}

export type SampleCredential = 'primary' | 'second';

/** Why a request was sent: the first burst, a recovery watch sample, or a request of a recovery run. */
export type SamplePhase = 'burst' | 'watch' | 'run' | 'isolation' | 'silent-wait';

export interface Sample {
  /** Milliseconds since the probe started, taken just before the request was sent. */
  t: number;
  credential: SampleCredential;
  phase: SamplePhase;
  status: number;
  /** Anything but 429. */
  admitted: boolean;
  /** Remaining quota the headers announced, when they did. */
  remaining?: number;
  /** Retry-After of a 429, in seconds (or the reset, when Retry-After is absent: see `retryAfterFromReset`). */
  retryAfterS?: number;
  /** True when `retryAfterS` came from the rate-limit reset because the 429 carried no Retry-After. */
  retryAfterFromReset?: boolean;
  /** Send → response read, ms: the target saw the request somewhere within it, so `t` is uncertain by this much. */
  rttMs?: number;
  /** How much later than the pacer meant the request went out, ms (the harness's own send lag). */
  lagMs?: number;
}

export interface ProbeOptions {
  http: ProbeHttp;
  /** The policy the config states (api.rateLimitPolicy), used for what the headers do not state. */
  policy?: { quota: number; windowS: number };
  /** Bearer credential whose limit is probed; undefined probes the anonymous (per-address) limit. */
  credential: string | undefined;
  /** Another credential, for the isolation observation. */
  secondCredential?: string;
  /** Never faster than this many requests per second. */
  maxRps: number;
  /** Never more requests than this (every credential counted). */
  budgetRequests: number;
  /** Never longer than this. */
  budgetSeconds: number;
  /** Header style to read (api.rateLimitHeaders). @default "auto" */
  style?: RateLimitHeaderStyle;
  /** Path of a cheap read. @default "/v1/whatsapp/messages" */
  path?: string;
  /** Query of that read. @default { limit: 1 } */
  query?: Record<string, string | number>;
  /** Clock in ms; injectable so tests can run a virtual clock. @default Date.now */
  now?: () => number;
  /** Sleep; injectable with `now`. @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** SIGINT/SIGTERM: the probe stops sending and returns what it measured so far. */
  signal?: AbortSignal;
  /** Told each request's round trip and send lag (ms), so the run's conditions (a check's context) include the probe's. */
  onTiming?: (rttMs: number, lagMs: number) => void;
}

/**
 * How precisely the probe's send times place requests at the target, measured from its own requests: the target
 * saw each request somewhere within its round trip, so a send time stands for the target's instant ± uncertaintyMs
 * (the longest round trip of all). Quota and window judgements take their tolerance from the round trips of the
 * very requests they rest on (judge.ts), this worst case where a request has none.
 */
export interface ProbeTiming {
  rttP50Ms?: number;
  rttP99Ms?: number;
  rttMaxMs?: number;
  lagP99Ms?: number;
  lagMaxMs?: number;
  uncertaintyMs: number;
}

export interface ClaimedPolicy {
  /** Header family as report.json names it. */
  headerStyle: 'ietf' | 'x-ratelimit' | 'none';
  /** The header format read (api.rateLimitHeaders, or the one auto detected); absent when none was. */
  format?: HeaderFormat;
  quota?: number;
  windowS?: number;
  /** What the quota counts (draft-09 `qu`), when the policy says; absent means requests. */
  quotaUnit?: string;
  /** The policy header as sent (RateLimit-Policy, else RateLimit-Limit, RateLimit or X-RateLimit-Limit). */
  raw?: string;
  /** Where quota and window come from: the headers, or api.rateLimitPolicy for what the headers do not state. */
  source?: 'headers' | 'config';
  findings: string[];
}

/**
 * The claim contradicted by what was admitted: more requests admitted within a span than any policy of the
 * claimed quota per window admits there (fixed window, sliding window or token bucket alike).
 */
export interface ClaimContradiction {
  /** Requests admitted within the span. */
  admitted: number;
  /** Length of the span, seconds (from the first to the last of those requests' send times). */
  spanS: number;
  /** Most a claimed policy admits within such a span: quota × (⌈span / window⌉ + 1). */
  bound: number;
  claimedQuota: number;
  claimedWindowS: number;
  detail: string;
}

/** What one header family a target sent claimed, against what the probe measured (claims.ts). */
export interface HeaderClaimComparison {
  format: HeaderFormat;
  /** The published revisions (or vendor convention) the family follows, in words. */
  revision: string;
  /** The family's fields on the first response that carried it, as sent. */
  fields: Record<string, string>;
  compared: Array<{
    what: 'limit' | 'window' | 'remaining' | 'reset';
    claimed?: number;
    observed?: number;
    /** The claimed window was not stated but inferred from the reset on a fresh window. */
    inferred?: boolean;
    /** Whole-second claims (a reset, a window inferred from one): how far below the claim the truth may lie. */
    resolutionS?: number;
    /**
     * remaining: the window announced with the count may have reset (or a bucket refilled) before the first 429,
     * so more admissions than claimed contradict nothing; fewer still do.
     */
    mayExceed?: boolean;
    /** Where the claim and the observation come from, in words. */
    basis: string;
  }>;
  findings: string[];
  notes: string[];
}

export interface Estimate {
  /** False when no 429 came at all: then only `noLimitNote` and the rate reached are meaningful. */
  limited: boolean;
  algorithm: EstimatedAlgorithm;
  /** Requests per window (window algorithms) or the bucket size (token bucket). */
  quota?: number;
  /** Window length; for a token bucket the time to refill completely (burst / refill). */
  windowS?: number;
  /** Token bucket only. */
  burst?: number;
  refillPerS?: number;
  /** Requests admitted before the first 429. */
  firstBurst: number;
  /** Every conclusion is backed by enough observation (the probe stops once it is). */
  complete: boolean;
  /** Sentences explaining the classification. */
  reasons: string[];
}

export interface RecoverySample {
  /** Seconds since the probe started, of the 429. */
  t: number;
  claimedS?: number;
  /** Seconds from the 429 to the next admitted request. */
  actualS: number;
}

export interface RetryAfterFinding {
  /** Retry-After of the first 429 (seconds); absent when it sent none. */
  claimedS?: number;
  /** Seconds from the first 429 to the first admitted request. */
  actualRecoveryS?: number;
  samples: RecoverySample[];
  /** False when a request sent at or after a 429's Retry-After (with no admitted request between) got 429 again. */
  honest: boolean | undefined;
  /** Sentences: each dishonest 429, or a Retry-After much longer than needed. */
  notes: string[];
}

export interface IsolationFinding {
  tested: boolean;
  /** Only when tested: whether the second credential was served while the first was throttled. */
  perCredential?: boolean;
  detail: string;
}

export interface ProbeResult {
  claimed: ClaimedPolicy;
  estimate: Estimate;
  retryAfter: RetryAfterFinding;
  isolation: IsolationFinding;
  /** Whether a 429 uses up quota: 'no' when recovery came while throttled requests kept arriving. */
  throttledConsume: 'yes' | 'no' | 'unknown';
  /** Present when no 429 came: "no limit observed up to N req/s". */
  noLimitNote?: string;
  /** What each rate-limit header family the target sent claimed, against the measurement (newest family first). */
  headerClaims?: HeaderClaimComparison[];
  /** Present when the admissions contradict the claimed policy (a DIFFERS finding, 429 or not). */
  contradiction?: ClaimContradiction;
  /** Why the probe stopped: "complete", "request budget", "time budget", "transport error: …". */
  stoppedBy: string;
  requests: number;
  elapsedS: number;
  /** Highest request rate reached over any burst, requests per second. */
  peakRps: number;
  /** The bounds the probe ran under, so findings can say how much of them was used. */
  budget: { requests: number; seconds: number };
  timing: ProbeTiming;
  /** Why `throttledConsume` is what it is: what was observed, in words. */
  throttledConsumeNote: string;
  samples: Sample[];
}

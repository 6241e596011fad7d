/**
 * The harness config as the rest of the program sees it: every default applied, every ${ENV} resolved,
 * deep-frozen. `schemas/harness-config.schema.json` validates the YAML form (all keys optional there);
 * `defaults.ts` fills what the file leaves out. Keep the three in step (test/unit/config/schema-sync.test.ts).
 *
 * Everything PROFILE.md chose is re-describable here, so a target that follows SERVICE-SPEC.md but chose
 * differently on a PROFILE point can be described instead of failing.
 */
import type { Operation, ProfileArea } from './operations.ts';
import type { CredentialsConfig } from './credential-types.ts';
import type { ReferenceConfig } from './reference-types.ts';

export { OPERATION_METHODS, OPERATIONS, PROFILE_AREAS, type Operation, type ProfileArea } from './operations.ts';
export type { RateLimitAlgorithm, ReferenceConfig, ReferenceRateLimitConfig } from './reference-types.ts';
export type { ConsentMode, CredentialsConfig, JwtSigningConfig, OAuthClientConfig, OAuthConfig } from './credential-types.ts';

export type WebhookSigningKey = 'auto' | 'whsec-base64' | 'raw';
export type RateLimitHeaderStyle = 'auto' | 'ietf-draft-09' | 'ietf-draft-07' | 'ietf-draft-06' | 'x-ratelimit' | 'none';

export interface TargetConfig {
  /** Base URL of the target. Unset: the embedded reference target is started on 127.0.0.1, port 0. */
  baseUrl?: string;
  /** Per-request timeout in milliseconds. @default 10000 */
  timeoutMs: number;
  /**
   * Whether the target serves more than one account: `single` makes the ownership checks not applicable (every
   * report says so); `multiple` needs `credentials.otherAccount.apiKey` for them. @default "multiple"
   */
  accounts: 'single' | 'multiple';
}

export interface PaginationConfig {
  /** Page size used when `limit` is not sent. @default 20 */
  defaultLimit: number;
  /** Largest accepted `limit`. @default 100 */
  maxLimit: number;
  /** Documented order of the list. @default "newest-first" */
  order: 'newest-first' | 'oldest-first';
}

export interface ApiConfig {
  /** Path per operation; `{id}` is replaced. Defaults are PROFILE.md's paths. */
  paths: Record<Operation, string>;
  /** Query parameter names of the list operation. */
  query: { limit: string; cursor: string; from: string; since: string; until: string };
  pagination: PaginationConfig;
  /**
   * Expected success status per operation.
   * @default PROFILE.md: create 201, read 200, delete 204; `oauthAuthorize` 302 (the consent POST's redirect)
   */
  successStatus: Record<Operation, number>;
  /** Statuses that count as "the request was rejected". @default [400, 422] */
  rejectedStatus: number[];
  /** Status for a body that is not valid JSON. @default [400] */
  malformedJsonStatus: number[];
  /**
   * JSON Schema that error bodies must match: a file path (relative to the config file; the loader makes it
   * absolute) or the `$id` of a schema under schemas/.
   * @default "https://api-harness.example/schemas/api/problem-details.json"
   */
  errorSchema: string;
  /** Replacement schemas per resource: resource name (a schemas/api file's base name) → file path or $id. */
  schemas: Record<string, string>;
  /** Rate-limit header style the target uses. @default "auto" */
  rateLimitHeaders: RateLimitHeaderStyle;
  /**
   * The rate-limit policy (quota per window) of the API key, for a target whose headers do not state the window
   * (X-RateLimit-*, or none): the probe and the ratelimit suite compare against it, and check deadlines follow
   * it. Headers that state a policy win. Optional.
   */
  rateLimitPolicy?: { quota: number; windowSeconds: number };
  /**
   * How another account's resource is refused: `not-found` (404 like an unknown id, PROFILE.md), `forbidden` (403),
   * or `either`. That it is refused is MUST; this status is checked at PROFILE level. @default { refusal: "not-found" }
   */
  ownership: { refusal: OwnershipRefusal };
}

export type OwnershipRefusal = 'not-found' | 'forbidden' | 'either';

export interface ConformanceConfig {
  /** Suites to run; empty: every registered suite. @default [] */
  suites: string[];
  /** Check ids to skip (each must be a registered id). @default [] */
  skipChecks: string[];
  /**
   * Declarative suite files (schemas/suite.schema.json) whose suites join the built-in ones, relative to the
   * config file. @default []
   */
  suiteFiles: string[];
  /** PROFILE.md areas that apply to this target. @default every area true */
  profile: Record<ProfileArea, boolean>;
  /** Does the target have the sandbox inbound endpoint? @default true */
  sandbox: boolean;
  /** Messages seeded through the sandbox for pagination checks. @default 45 */
  seedCount: number;
  /** Upper bound on how long one check may take, in ms. @default 30000 */
  checkTimeoutMs: number;
  /**
   * Longest a check may wait for something to happen by itself: a token to expire, a Retry-After to pass.
   * A check that would have to wait longer is skipped with that reason. @default 5
   */
  maxWaitSeconds: number;
  /**
   * JWT lifetime of the embedded reference target during `harness run`: short, so the expired-token check can
   * wait it out within maxWaitSeconds. Not used for `harness serve` or an external target. @default 3
   */
  embeddedJwtTtlSeconds: number;
}

/** The harness's webhook receiver (suites/webhooks). */
export interface WebhooksConfig {
  /** Interface the receiver listens on. @default "127.0.0.1" */
  receiverHost: string;
  /** Port of the receiver; 0 picks a free one. @default 0 */
  receiverPort: number;
  /**
   * URL to register at the target instead of the receiver's local URL, for a target that cannot reach this
   * machine (a tunnel or relay forwarding to receiverHost:receiverPort). Optional.
   */
  publicUrl?: string;
  /** A webhook registered by hand (its URL must reach the receiver): used instead of the management endpoints. Optional. */
  preRegistered?: { url: string; secret: string };
  /**
   * Which bytes the target keys its HMAC with: `whsec-base64` — Standard Webhooks, the base64 after `whsec_`;
   * `raw` — the secret's UTF-8 bytes as given (prefix included); `auto` — base64 for a `whsec_` secret, raw
   * bytes otherwise. @default "auto"
   */
  signingKey: WebhookSigningKey;
  /** Longest the webhook checks wait for deliveries, in seconds. @default 10 */
  waitSeconds: number;
  /** Deliveries the receiver keeps (the oldest are dropped first). @default 10000 */
  maxDeliveries: number;
}

export interface ReportConfig {
  /** Folder that receives reports/<run-id>/. Relative to the working directory. @default "reports" */
  outDir: string;
}

/** Throughput scenarios of `harness run` (src/job/run-scenarios.ts). */
export interface LoadConfig {
  /**
   * Scenario names (scenarios/<name>.yaml in the working directory, else the shipped ones) or .yaml files, run
   * after the conformance suites against the same target with credentials.loadKey. [] runs none.
   * `--scenario a,b` and `--no-load` win. @default ["smoke"]
   */
  scenarios: string[];
  /**
   * Worker threads generating each scenario's load (`harness run`, `harness load`, `harness capacity`), or
   * `auto`; `--workers` wins, and this wins over a scenario's own `workers`. Absent: the scenario's, else `auto`.
   */
  workers?: number | 'auto';
  /**
   * Live metrics while scenarios run, as `KIND=URL`: `prometheus-rw=http://host:9090/api/v1/write` (Prometheus
   * remote write, k6's metric names; testid = the run id). `--metrics-out` wins. Absent: none.
   */
  metricsOut?: string;
}

export interface HarnessConfig {
  /** File the config came from, or undefined for built-in defaults. Not part of the YAML. */
  readonly source?: string;
  /**
   * Dotted paths of the options the file or the overrides set, not left to a default (`api.query.cursor`): what
   * the target's operators stated, e.g. the cursor parameter a MUST paging check may then rely on. Not part of
   * the YAML; absent in a config built by hand.
   */
  readonly given?: readonly string[];
  target: TargetConfig;
  credentials: CredentialsConfig;
  api: ApiConfig;
  conformance: ConformanceConfig;
  reference: ReferenceConfig;
  webhooks: WebhooksConfig;
  report: ReportConfig;
  load: LoadConfig;
}

/** Recursively readonly: the loader deep-freezes the config. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export type FrozenConfig = DeepReadonly<HarnessConfig>;

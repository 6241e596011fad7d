/**
 * The reference target's options with every default applied. The defaults are the `@default` values of
 * `ReferenceConfig` (src/config/types.ts) and live only here, so `buildApp()` with no options behaves exactly
 * like `harness serve` with an empty config.
 */
import type { RateLimitAlgorithm, ReferenceConfig } from '../config/types.ts';
import { TargetStartError } from '../errors/harness-errors.ts';
import type { ReferenceTargetOptions, ServerTimeouts } from './types.ts';

export interface ResolvedRateLimit {
  algorithm: RateLimitAlgorithm;
  quota: number;
  windowSeconds: number;
  refillPerSecond: number;
  anonymousQuota: number;
}

export interface ResolvedOptions {
  rateLimit: ResolvedRateLimit;
  loadQuota: number;
  /** Fixed delay before every request is handled, in ms; 0: none (no hook installed). */
  injectLatencyMs: number;
  /** Host names answered besides loopback (http/host-allow-list.ts): reference.allowedHosts and the listen address. */
  allowedHosts: string[];
  loginThrottle: ReferenceConfig['loginThrottle'];
  tokens: ReferenceConfig['tokens'];
  statusDelaysMs: ReferenceConfig['statusDelaysMs'];
  webhooks: ReferenceConfig['webhooks'];
  credentials: NonNullable<ReferenceConfig['credentials']>;
  logger: boolean;
  now: () => number;
  /** HS256 key of the user JWTs (UTF-8); undefined: random per start. */
  jwtSigningKey?: string;
  /** Largest accepted request body: a 1 MiB campaign plus its JSON envelope must fit. */
  bodyLimitBytes: number;
  server: ServerTimeouts;
  /** Messages kept per store; the oldest is evicted beyond it (store/*-messages.ts). */
  stores: { inbound: number; outbound: number };
}

export const DEFAULTS = {
  rateLimit: { algorithm: 'fixed-window', quota: 100, windowSeconds: 1, anonymousQuota: 200 },
  loadQuota: 1_000_000_000,
  injectLatencyMs: 0,
  allowedHosts: [] as string[],
  loginThrottle: { attempts: 5, windowSeconds: 60 },
  tokens: { jwtTtlSeconds: 900, accessTokenTtlSeconds: 3600, codeTtlSeconds: 60 },
  statusDelaysMs: { delivered: 200, read: 400 },
  webhooks: { attempts: 5, baseDelayMs: 500, timeoutMs: 5000, allow: [] as string[] },
  bodyLimitBytes: 2 * 1024 * 1024,
  // Node's own keep-alive default (5 s) rather than Fastify's 72 s; a slow-loris head or body is cut off.
  server: { keepAliveMs: 5_000, headersMs: 10_000, requestMs: 30_000, idleMs: 30_000 },
  stores: { inbound: 100_000, outbound: 100_000 },
} as const;

export function resolveOptions(opts: ReferenceTargetOptions = {}): ResolvedOptions {
  const rl = opts.rateLimit ?? {};
  const quota = positive(rl.quota, DEFAULTS.rateLimit.quota, 'rateLimit.quota');
  const windowSeconds = positive(rl.windowSeconds, DEFAULTS.rateLimit.windowSeconds, 'rateLimit.windowSeconds');
  return {
    rateLimit: {
      algorithm: rl.algorithm ?? DEFAULTS.rateLimit.algorithm,
      quota,
      windowSeconds,
      refillPerSecond: positive(rl.refillPerSecond, quota / windowSeconds, 'rateLimit.refillPerSecond'),
      anonymousQuota: positive(rl.anonymousQuota, DEFAULTS.rateLimit.anonymousQuota, 'rateLimit.anonymousQuota'),
    },
    loadQuota: positive(opts.loadQuota, DEFAULTS.loadQuota, 'loadQuota'),
    injectLatencyMs: nonNegative(opts.injectLatencyMs, DEFAULTS.injectLatencyMs, 'injectLatencyMs'),
    // The address it listens on is a name it serves (not a wildcard: 0.0.0.0 is no name a browser sends).
    allowedHosts: [...(opts.allowedHosts ?? DEFAULTS.allowedHosts), ...(opts.host && !['0.0.0.0', '::'].includes(opts.host) ? [opts.host] : [])],
    loginThrottle: {
      attempts: positive(opts.loginThrottle?.attempts, DEFAULTS.loginThrottle.attempts, 'loginThrottle.attempts'),
      windowSeconds: positive(
        opts.loginThrottle?.windowSeconds,
        DEFAULTS.loginThrottle.windowSeconds,
        'loginThrottle.windowSeconds',
      ),
    },
    tokens: {
      jwtTtlSeconds: positive(opts.tokens?.jwtTtlSeconds, DEFAULTS.tokens.jwtTtlSeconds, 'tokens.jwtTtlSeconds'),
      accessTokenTtlSeconds: positive(
        opts.tokens?.accessTokenTtlSeconds,
        DEFAULTS.tokens.accessTokenTtlSeconds,
        'tokens.accessTokenTtlSeconds',
      ),
      codeTtlSeconds: positive(opts.tokens?.codeTtlSeconds, DEFAULTS.tokens.codeTtlSeconds, 'tokens.codeTtlSeconds'),
    },
    statusDelaysMs: {
      delivered: nonNegative(opts.statusDelaysMs?.delivered, DEFAULTS.statusDelaysMs.delivered, 'statusDelaysMs.delivered'),
      read: nonNegative(opts.statusDelaysMs?.read, DEFAULTS.statusDelaysMs.read, 'statusDelaysMs.read'),
    },
    webhooks: {
      attempts: positive(opts.webhooks?.attempts, DEFAULTS.webhooks.attempts, 'webhooks.attempts'),
      baseDelayMs: nonNegative(opts.webhooks?.baseDelayMs, DEFAULTS.webhooks.baseDelayMs, 'webhooks.baseDelayMs'),
      timeoutMs: positive(opts.webhooks?.timeoutMs, DEFAULTS.webhooks.timeoutMs, 'webhooks.timeoutMs'),
      allow: [...(opts.webhooks?.allow ?? DEFAULTS.webhooks.allow)],
    },
    credentials: opts.credentials ?? {},
    logger: opts.logger ?? false,
    now: opts.now ?? Date.now,
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    server: {
      keepAliveMs: positive(opts.server?.keepAliveMs, DEFAULTS.server.keepAliveMs, 'server.keepAliveMs'),
      headersMs: positive(opts.server?.headersMs, DEFAULTS.server.headersMs, 'server.headersMs'),
      requestMs: positive(opts.server?.requestMs, DEFAULTS.server.requestMs, 'server.requestMs'),
      idleMs: positive(opts.server?.idleMs, DEFAULTS.server.idleMs, 'server.idleMs'),
    },
    stores: {
      inbound: positive(opts.stores?.inbound, DEFAULTS.stores.inbound, 'stores.inbound'),
      outbound: positive(opts.stores?.outbound, DEFAULTS.stores.outbound, 'stores.outbound'),
    },
    ...(opts.jwtSigningKey !== undefined ? { jwtSigningKey: opts.jwtSigningKey } : {}),
  };
}

// The config loader validates user files; these guards catch programmatic callers passing nonsense, which
// would otherwise surface much later as a limiter that never admits anything.
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TargetStartError(`reference target option ${name} must be > 0`);
  return value;
}

function nonNegative(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new TargetStartError(`reference target option ${name} must be >= 0`);
  return value;
}

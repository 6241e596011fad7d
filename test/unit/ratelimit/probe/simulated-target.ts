/**
 * A rate-limited "target" on a virtual clock for probe tests: the reference target's own limiters and header
 * writer behind a fake HTTP client. `sleep` advances the clock; each request takes `latencyMs` of it.
 */
import { createRateLimiter } from '../../../../src/target/ratelimit/create.ts';
import { rateLimitHeaders } from '../../../../src/target/ratelimit/headers.ts';
import type { RateLimitAlgorithm } from '../../../../src/config/types.ts';
import type { ProbeHttp } from '../../../../src/ratelimit/probe/types.ts';

export interface SimulatedOptions {
  algorithm: RateLimitAlgorithm;
  quota: number;
  windowSeconds: number;
  refillPerSecond?: number;
  /** Clock start (ms); vary it to move the fixed-window phase. */
  startMs?: number;
  latencyMs?: number;
  /** Each request's time until the first 429 (a sender slowed during its first burst only); then `latencyMs`. */
  firstBurstLatencyMs?: number;
  /** Every credential shares one bucket. */
  shared?: boolean;
  /** Rewrites response headers (faults). */
  rewrite?: (status: number, headers: Record<string, string>) => Record<string, string>;
  /** A throttled request also uses up quota (counted as if admitted, when the algorithm allows). */
  noLimit?: boolean;
}

export function simulatedTarget(options: SimulatedOptions) {
  let clock = options.startMs ?? 1_700_000_000_000;
  const now = () => clock;
  const sleep = async (ms: number) => {
    clock += Math.max(0, ms);
  };
  const limiter = createRateLimiter(options.algorithm, now);
  const policy = {
    name: 'default',
    quota: options.quota,
    windowSeconds: options.windowSeconds,
    refillPerSecond: options.refillPerSecond ?? options.quota / options.windowSeconds,
  };
  let requests = 0;
  let throttledYet = false;
  const http: ProbeHttp = {
    async request(req) {
      requests += 1;
      clock += (!throttledYet ? options.firstBurstLatencyMs : undefined) ?? options.latencyMs ?? 1;
      if (options.noLimit) return { status: 200, headers: options.rewrite ? options.rewrite(200, {}) : {} };
      const key = options.shared ? 'one' : (req.bearer ?? 'anonymous');
      const decision = limiter.consume(key, policy);
      const raw = rateLimitHeaders(decision);
      let headers = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));
      const status = decision.allowed ? 200 : 429;
      if (status === 429) throttledYet = true;
      if (options.rewrite) headers = options.rewrite(status, headers);
      return { status, headers };
    },
  };
  return { http, now, sleep, requests: () => requests };
}

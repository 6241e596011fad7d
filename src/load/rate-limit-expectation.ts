/**
 * A rate-limit scenario's verdict (`rateLimit:` in the scenario file): a constant offered rate above the limit,
 * spread round-robin over N credentials, each allowed `quota` requests per `windowSeconds`. In the steady state
 * the target accepts N × quota / windowSeconds requests per second and answers the rest 429, so the expected
 * 429 fraction is max(0, 1 − (N × quota / windowSeconds) / offeredRps); the observed one is rateLimited /
 * requests. They agree within `tolerance` (default 0.05), or the run gets a crossed `rate_limited` threshold.
 *
 * The tolerance also absorbs a short run's edges: a fixed window that the run only partly covers at its start
 * and end lets through up to a window's quota more (or less) than the steady state, which moves the observed
 * fraction by at most about expectedFraction / (run seconds / windowSeconds) when the rate is under twice the
 * limit — keep that well below the tolerance (scenarios/ratelimit.yaml: 0.167 / 5 ≈ 0.033).
 */
import type { RateLimitExpectation, ThresholdResult } from './result.ts';
import type { RateLimitSpec } from './scenario/types.ts';

export const DEFAULT_RATE_LIMIT_TOLERANCE = 0.05;

const round = (n: number, digits = 4): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function rateLimitExpectation(spec: RateLimitSpec, credentials: number, offeredRps: number, counts: { requests: number; rateLimited: number }): RateLimitExpectation {
  const tolerance = spec.tolerance ?? DEFAULT_RATE_LIMIT_TOLERANCE;
  const allowedRps = (credentials * spec.quota) / spec.windowSeconds;
  const expectedFraction = offeredRps > 0 ? Math.max(0, 1 - allowedRps / offeredRps) : 0;
  const observedFraction = counts.requests > 0 ? counts.rateLimited / counts.requests : 0;
  return {
    perCredentialQuota: spec.quota,
    windowSeconds: spec.windowSeconds,
    credentials,
    offeredRps: round(offeredRps, 3),
    expectedFraction: round(expectedFraction),
    observedFraction: round(observedFraction),
    tolerance,
    // Compared unrounded; a hair of floating-point slack so a difference of exactly the tolerance passes.
    ok: counts.requests > 0 && Math.abs(observedFraction - expectedFraction) <= tolerance + 1e-9,
  };
}

/** The threshold entry a failed expectation adds to the scenario's thresholds (exit 99, named in the report). */
export function rateLimitThreshold(e: RateLimitExpectation): ThresholdResult {
  return { metric: 'rate_limited', expr: `expected fraction ${e.expectedFraction}±${e.tolerance}`, ok: e.ok, actual: e.observedFraction };
}

/**
 * A rate-limit scenario's verdict (`rateLimit:` in the scenario file): a constant offered rate above the limit,
 * spread round-robin over N credentials, each allowed `quota` requests per `windowSeconds`. In the steady state
 * the target accepts N × quota / windowSeconds requests per second and answers the rest 429, so the expected
 * 429 fraction is max(0, 1 − (N × quota / windowSeconds) / offeredRps); the observed one is rateLimited /
 * requests. They agree within `tolerance` (default 0.05), or the run gets a crossed `rate_limited` threshold.
 *
 * A short run's edges only lower the observed fraction, and by a known most: a fixed window the run covers for a
 * share f of it at its start or its end receives f × the offered arrivals and throttles max(0, arrivals − quota)
 * of them, where the steady state throttles f × its share; the difference is largest at f = 1 − expected share
 * and is then quota × expectedFraction per credential. So the observed fraction passes from expected − edges −
 * tolerance to expected + tolerance, with edges = 2 × credentials × quota × expectedFraction / requests
 * (`edgeAllowance`): a run's alignment to the target's windows, which nobody chooses, never decides its verdict.
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
  const edgeAllowance = counts.requests > 0 ? Math.min(expectedFraction, (2 * credentials * spec.quota * expectedFraction) / counts.requests) : 0;
  return {
    perCredentialQuota: spec.quota,
    windowSeconds: spec.windowSeconds,
    credentials,
    offeredRps: round(offeredRps, 3),
    expectedFraction: round(expectedFraction),
    observedFraction: round(observedFraction),
    tolerance,
    edgeAllowance: round(edgeAllowance),
    // Compared unrounded; a hair of floating-point slack so a difference of exactly the tolerance passes.
    ok: counts.requests > 0 && observedFraction <= expectedFraction + tolerance + 1e-9 && observedFraction >= expectedFraction - edgeAllowance - tolerance - 1e-9,
  };
}

/** The threshold entry a failed expectation adds to the scenario's thresholds (exit 99, named in the report). */
export function rateLimitThreshold(e: RateLimitExpectation): ThresholdResult {
  const below = e.edgeAllowance ? ` (−${e.edgeAllowance} more for the run's edges)` : '';
  return { metric: 'rate_limited', expr: `expected fraction ${e.expectedFraction}±${e.tolerance}${below}`, ok: e.ok, actual: e.observedFraction };
}

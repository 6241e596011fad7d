/**
 * A probe result as report.json's `rateLimit` section (RateLimitReport, src/report/report-load.ts). Only what
 * the probe measured: no quota, window, recovery or isolation without the 429s that measure them — those are
 * absent, with the reason under `notMeasured`.
 */
import type { RateLimitReport } from './report-load.ts';
import { matchPolicy } from '../ratelimit/probe/policy-match.ts';
import { timelineOf } from '../ratelimit/probe/timeline.ts';
import type { ProbeResult } from '../ratelimit/probe/types.ts';

export function toRateLimitReport(result: ProbeResult): RateLimitReport {
  const { claimed, estimate, retryAfter, isolation } = result;
  const notMeasured: NonNullable<RateLimitReport['notMeasured']> = {};
  let observed: RateLimitReport['observed'];
  if (estimate.limited) {
    observed = {
      quota: estimate.quota ?? estimate.firstBurst,
      algorithm: estimate.algorithm,
      ...(estimate.windowS !== undefined && estimate.windowS > 0 ? { windowS: estimate.windowS } : {}),
      ...(estimate.burst !== undefined ? { burst: estimate.burst } : {}),
      ...(estimate.refillPerS !== undefined ? { refillPerS: estimate.refillPerS } : {}),
    };
    if (observed.windowS === undefined) notMeasured.window = `no recovery measured the window (${result.requests} requests in ${result.elapsedS} s, stopped: ${result.stoppedBy})`;
  } else {
    notMeasured.observed = `not measured: no request was answered 429 (${result.noLimitNote ?? `${result.requests} requests in ${result.elapsedS} s`})`;
  }
  if (retryAfter.actualRecoveryS === undefined) {
    notMeasured.recovery = estimate.limited ? 'not measured: no request was admitted again after the first 429 before the probe stopped' : 'not measured: no 429 came';
  }
  if (!isolation.tested) notMeasured.isolation = isolation.detail;
  const policyMatch = claimed.quota !== undefined && claimed.windowS !== undefined ? matchPolicy(result) : undefined;
  return {
    headerStyle: claimed.headerStyle,
    ...(claimed.quota !== undefined && claimed.windowS !== undefined
      ? { policyClaimed: { quota: claimed.quota, windowS: claimed.windowS, ...(claimed.raw !== undefined ? { raw: claimed.raw } : {}), ...(claimed.source ? { source: claimed.source } : {}) } }
      : {}),
    ...(observed ? { observed } : {}),
    ...(policyMatch ? { policyMatch } : {}),
    ...(estimate.limited ? {} : { admitted: { requests: result.requests, seconds: result.elapsedS, peakRps: result.peakRps } }),
    ...(result.headerClaims && result.headerClaims.length > 0 ? { headerClaims: result.headerClaims } : {}),
    ...(result.contradiction
      ? { contradiction: { admitted: result.contradiction.admitted, spanS: result.contradiction.spanS, bound: result.contradiction.bound, detail: result.contradiction.detail } }
      : {}),
    ...(Object.keys(notMeasured).length > 0 ? { notMeasured } : {}),
    retryAfter: {
      ...(retryAfter.claimedS !== undefined ? { claimedS: retryAfter.claimedS } : {}),
      ...(retryAfter.actualRecoveryS !== undefined ? { actualRecoveryS: retryAfter.actualRecoveryS } : {}),
      samples: retryAfter.samples,
      ...(retryAfter.honest !== undefined ? { honest: retryAfter.honest } : {}),
    },
    isolation: { tested: isolation.tested, ...(isolation.perCredential !== undefined ? { perCredential: isolation.perCredential } : {}), detail: isolation.detail },
    timeline: timelineOf(result.samples),
  };
}
